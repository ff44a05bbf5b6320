package io.ratatosk.pagecache.writeaware;

/**
 * A fixed-size map from a shadow page id (a non-zero int) to a slot: open addressing, linear
 * probing, backward-shift deletion (no tombstones), Fibonacci hashing. Sized for at most
 * {@code maxEntries} ids at a load factor of at most 1/2. Single-threaded.
 *
 * <p>Kept over agrona's {@code Int2IntHashMap}, which is slower under the shadow clocks' mix; see
 * docs/benchmarks.md.
 *
 * <p>Internal: public only so that {@code PrimitiveMapBenchmark} (bench-jmh) can measure it; not part of the
 * page cache's API.
 */
public final class IdIndex {
    /** The most ids an index holds: its 2 to 4 cells per id must stay an int array's length. */
    public static final int MAX_ENTRIES = 1 << 29;
    private static final int EMPTY = 0;

    private final int[] keys;
    private final int[] slots;
    private final int mask;
    private final int shift;
    private int size;

    public IdIndex(int maxEntries) {
        int tableSize = cellsFor(maxEntries);
        this.keys = new int[tableSize];
        this.slots = new int[tableSize];
        this.mask = tableSize - 1;
        this.shift = Integer.numberOfLeadingZeros(tableSize) + 1;
    }

    /**
     * Cells for {@code maxEntries} ids: a power of two, at least twice as many.
     *
     * @throws IllegalArgumentException for more than {@link #MAX_ENTRIES} ids (the doubling overflowed into a
     *                                  negative or empty table) or a negative count
     */
    public static int cellsFor(int maxEntries) {
        if (maxEntries < 0 || maxEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException("an id index holds 0 to " + MAX_ENTRIES + " ids: maxEntries=" + maxEntries);
        }
        return Integer.highestOneBit(Math.max(2, maxEntries) * 2 - 1) * 2;
    }

    private int home(int id) {
        return (id * 0x9E3779B9) >>> shift; // the product's top bits
    }

    /** The slot of {@code id}, or -1. */
    public int get(int id) {
        for (int i = home(id); ; i = (i + 1) & mask) {
            if (keys[i] == id) {
                return slots[i];
            }
            if (keys[i] == EMPTY) {
                return -1;
            }
        }
    }

    /** Adds {@code id}, which must be absent. */
    public void put(int id, int slot) {
        int i = home(id);
        while (keys[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        keys[i] = id;
        slots[i] = slot;
        size++;
    }

    /** Removes {@code id}, which must be present. */
    public void remove(int id) {
        int i = home(id);
        while (keys[i] != id) {
            i = (i + 1) & mask;
        }
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(keys[j]);
            boolean movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
            if (movable) {
                keys[hole] = keys[j];
                slots[hole] = slots[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
        size--;
    }

    public int size() {
        return size;
    }
}
