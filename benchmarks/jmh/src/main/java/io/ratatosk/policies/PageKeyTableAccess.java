package io.ratatosk.policies;

import io.ratatosk.bench.jmh.PrimitiveMaps.HistoryTable;

/**
 * The benchmarks' access to the package-private {@link PageKeyTable}, as {@code ExactHistoryPolicy} sizes and
 * calls it; it lives in the policies' package (in the benchmark module) for that access alone.
 */
public final class PageKeyTableAccess implements HistoryTable {
    private final PageKeyTable table;

    /** The table of an exact history of {@code capacity} entries, for {@link #ringBound} of them. */
    public PageKeyTableAccess(int capacity) {
        table = new PageKeyTable(ringBound(capacity));
    }

    /** Ring entries, and so keys at most, of an exact history of {@code capacity} entries. */
    public static int ringBound(int capacity) {
        return ExactHistoryPolicy.ringBound(capacity);
    }

    /** The table's cells for an exact history of {@code capacity} entries. */
    public static int cells(int capacity) {
        return PageKeyTable.cellsFor(ringBound(capacity));
    }

    @Override
    public long get(long key) {
        return table.get(key);
    }

    @Override
    public void put(long key, long value) {
        table.put(key, value);
    }

    @Override
    public long remove(long key) {
        return table.remove(key);
    }
}
