package io.ratatosk.policies;

import io.ratatosk.core.PageKey;

/**
 * A fixed-capacity map from page key to a {@code long}, in two primitive arrays: open addressing
 * with linear probing and backward-shift deletion, so removals leave no tombstones. Key 0
 * ({@link PageKey#UNBOUND}) marks an empty cell. Not thread-safe.
 *
 * <p>Kept over agrona's {@code Long2LongHashMap}, which is no faster under the exact history's mix and holds at
 * most 2^29 cells (keys and values share one array), half of what {@link PolicySizes#MAX_HISTORY_CAPACITY}
 * needs; see docs/benchmarks.md.
 *
 * <p>Internal: public only so that {@code PrimitiveMapBenchmark} (bench-jmh) can measure it; not part of the
 * policies' API.
 */
public final class PageKeyTable {
    public static final long ABSENT = Long.MIN_VALUE;

    private final long[] keys;
    private final long[] values;
    private final int mask;
    private final int maxEntries;
    private int size;

    /** @param maxEntries entries it must hold; the table is at least twice as large */
    public PageKeyTable(int maxEntries) {
        int cells = cellsFor(maxEntries);
        keys = new long[cells];
        values = new long[cells];
        mask = cells - 1;
        this.maxEntries = maxEntries;
    }

    /** Cells for {@code maxEntries}: a power of two, at least twice as many; 2^30 for 2^29 entries, the most. */
    public static int cellsFor(int maxEntries) {
        return Integer.highestOneBit(Math.max(4, 2 * maxEntries - 1)) << 1;
    }

    public int size() {
        return size;
    }

    /** The value of {@code key}, or {@link #ABSENT}. */
    public long get(long key) {
        int cell = cellOf(key);
        return cell < 0 ? ABSENT : values[cell];
    }

    public void put(long key, long value) {
        int cell = home(key);
        while (keys[cell] != PageKey.UNBOUND && keys[cell] != key) {
            cell = (cell + 1) & mask;
        }
        if (keys[cell] == PageKey.UNBOUND) {
            if (size == maxEntries) {
                throw new IllegalStateException("table full: " + size + " entries");
            }
            keys[cell] = key;
            size++;
        }
        values[cell] = value;
    }

    /** Removes {@code key}; its value, or {@link #ABSENT}. */
    public long remove(long key) {
        int cell = cellOf(key);
        if (cell < 0) {
            return ABSENT;
        }
        long value = values[cell];
        int hole = cell;
        for (int probe = (hole + 1) & mask; keys[probe] != PageKey.UNBOUND; probe = (probe + 1) & mask) {
            int home = home(keys[probe]);
            boolean homeAfterHole = hole <= probe ? hole < home && home <= probe : hole < home || home <= probe;
            if (!homeAfterHole) {
                keys[hole] = keys[probe];
                values[hole] = values[probe];
                hole = probe;
            }
        }
        keys[hole] = PageKey.UNBOUND;
        size--;
        return value;
    }

    private int home(long key) {
        return (int) PageKey.hash(key) & mask;
    }

    private int cellOf(long key) {
        for (int cell = home(key); keys[cell] != PageKey.UNBOUND; cell = (cell + 1) & mask) {
            if (keys[cell] == key) {
                return cell;
            }
        }
        return -1;
    }
}
