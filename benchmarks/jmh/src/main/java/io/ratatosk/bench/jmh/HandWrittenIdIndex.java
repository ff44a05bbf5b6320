package io.ratatosk.bench.jmh;

import io.ratatosk.bench.jmh.PrimitiveMaps.ShadowIndex;

/**
 * A fixed-size map from a shadow page id (a non-zero int) to a slot: open addressing, linear
 * probing, backward-shift deletion (no tombstones), Fibonacci hashing. Sized for at most
 * {@code maxEntries} ids at a load factor of at most 1/2. Single-threaded.
 *
 * <p>The hand-written map agrona's {@code Int2IntHashMap} replaced in the write-aware sampler's shadow
 * clocks (docs/benchmarks.md says why): {@link PrimitiveMapBenchmark}'s reference for that row.
 */
final class HandWrittenIdIndex implements ShadowIndex {
    private static final int EMPTY = 0;

    private final int[] keys;
    private final int[] slots;
    private final int mask;
    private final int shift;
    private int size;

    HandWrittenIdIndex(int maxEntries) {
        int tableSize = Integer.highestOneBit(Math.max(2, maxEntries) * 2 - 1) * 2;
        this.keys = new int[tableSize];
        this.slots = new int[tableSize];
        this.mask = tableSize - 1;
        this.shift = Integer.numberOfLeadingZeros(tableSize) + 1;
    }

    private int home(int id) {
        return (id * 0x9E3779B9) >>> shift; // the product's top bits
    }

    /** The slot of {@code id}, or -1. */
    @Override
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

    /** Adds {@code id}, which must be absent; -1. */
    @Override
    public int put(int id, int slot) {
        int i = home(id);
        while (keys[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        keys[i] = id;
        slots[i] = slot;
        size++;
        return -1;
    }

    /** Removes {@code id}, which must be present; its slot. */
    @Override
    public int remove(int id) {
        int i = home(id);
        while (keys[i] != id) {
            i = (i + 1) & mask;
        }
        int removed = slots[i];
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
        return removed;
    }

    int size() {
        return size;
    }
}
