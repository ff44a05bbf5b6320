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
    private final int maxEntries;
    private int size;

    public IdIndex(int maxEntries) {
        int tableSize = cellsFor(maxEntries);
        this.maxEntries = maxEntries;
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

    /** The slot of {@code id}, or -1 (for 0 too, which is never held). */
    public int get(int id) {
        int cell = cellOf(id);
        return cell < 0 ? -1 : slots[cell];
    }

    /** The cell that holds {@code id}, or -1 (for 0 too, which is never held). */
    private int cellOf(int id) {
        for (int i = home(id); ; i = (i + 1) & mask) {
            int key = keys[i];
            if (key == EMPTY) { // first: 0 would match an empty cell, and get return the slot a removed id left there
                return -1;
            }
            if (key == id) {
                return i;
            }
        }
    }

    /**
     * Adds {@code id}, which must be absent.
     *
     * @throws IllegalArgumentException for id 0 (the empty cell's mark) or an id held already
     * @throws IllegalStateException    when the index holds the {@code maxEntries} ids it was sized for (a full table's
     *                                  probe never ends)
     */
    public void put(int id, int slot) {
        if (id == EMPTY) {
            throw new IllegalArgumentException("an id index holds non-zero ids only: id=0");
        }
        if (size == maxEntries) {
            throw new IllegalStateException("an id index sized for " + maxEntries + " ids is full: id=" + id);
        }
        int i = home(id);
        for (int key; (key = keys[i]) != EMPTY; i = (i + 1) & mask) {
            if (key == id) {
                throw new IllegalArgumentException("the id index holds id=" + id + " already, at slot " + slots[i]);
            }
        }
        keys[i] = id;
        slots[i] = slot;
        size++;
    }

    /**
     * Removes {@code id}, which must be present.
     *
     * @throws IllegalArgumentException for an id not held (0 included): its probe once circled the table for ever
     */
    public void remove(int id) {
        int hole = cellOf(id);
        if (hole < 0) {
            throw new IllegalArgumentException("the id index does not hold id=" + id);
        }
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
