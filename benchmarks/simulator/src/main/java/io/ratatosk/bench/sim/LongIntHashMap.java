package io.ratatosk.bench.sim;

/**
 * An open-addressing map from {@code long} keys to non-negative {@code int} values, without boxing,
 * for remapping a trace's sparse keys to dense ids. Linear probing over a power-of-two table; the
 * value array stores {@code value + 1} so that a zeroed slot means empty and every long, 0
 * included, is a valid key. Grows at a load of one half; no removal (a trace only adds keys).
 *
 * <p>Kept over agrona's {@code Long2LongHashMap} (agrona has no long-to-int map): reading a trace takes about a
 * quarter longer with agrona's, whose cells are also a third larger (16 bytes, against 12); see
 * docs/benchmarks.md.
 *
 * <p>Internal: public only so that {@code PrimitiveMapBenchmark} (bench-jmh) can measure it; not part of the
 * simulator's API.
 */
public final class LongIntHashMap {
    private static final int MAX_CAPACITY = 1 << 30;
    /** The most keys the map takes: the one that would fill its largest table to the growth limit is refused. */
    public static final int MAX_SIZE = MAX_CAPACITY - 2;

    private long[] keys;
    private int[] valuesPlusOne;
    private int mask;
    private int size;
    private int resizeAt;

    public LongIntHashMap(int expectedSize) {
        allocate(capacityFor(expectedSize));
    }

    /** Cells to begin with for {@code expectedSize} keys: a power of two, at least twice as many (and 32), at most 2^30. */
    public static int capacityFor(int expectedSize) {
        // In longs: past 2^29 the doubling overflowed an int, to -2^31 (and past 2^30 to 0 cells)
        return (int) Math.min(Long.highestOneBit(Math.max(16L, expectedSize) * 2 - 1) << 1, MAX_CAPACITY);
    }

    public int size() {
        return size;
    }

    /** The value mapped to {@code key}, or {@code -1} if there is none. */
    int get(long key) {
        int slot = slot(key);
        while (true) {
            int v = valuesPlusOne[slot];
            if (v == 0) {
                return -1;
            }
            if (keys[slot] == key) {
                return v - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** The id of {@code key}, assigning the next dense id ({@link #size()} before the call) if it is new. */
    public int idOf(long key) {
        int slot = slot(key);
        while (true) {
            int v = valuesPlusOne[slot];
            if (v == 0) {
                int id = size++;
                keys[slot] = key;
                valuesPlusOne[slot] = id + 1;
                if (size >= resizeAt) {
                    grow();
                }
                return id;
            }
            if (keys[slot] == key) {
                return v - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        valuesPlusOne = new int[capacity];
        mask = capacity - 1;
        resizeAt = capacity == MAX_CAPACITY ? MAX_CAPACITY - 1 : capacity / 2;
    }

    private void grow() {
        if (keys.length == MAX_CAPACITY) {
            throw new IllegalStateException("too many distinct keys for one trace: size=" + size);
        }
        long[] oldKeys = keys;
        int[] oldValues = valuesPlusOne;
        allocate(oldKeys.length * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != 0) {
                int slot = slot(oldKeys[i]);
                while (valuesPlusOne[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                valuesPlusOne[slot] = oldValues[i];
            }
        }
    }
}
