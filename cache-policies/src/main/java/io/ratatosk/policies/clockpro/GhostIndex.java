package io.ratatosk.policies.clockpro;

import io.ratatosk.core.PageKey;
import io.ratatosk.policies.PolicySizes;

/**
 * CLOCK-Pro's non-resident (ghost) entries in fixed arrays: a slot per ghost holding the evicted
 * page's key, a free list of slots, and an open-addressing index from key to slot (linear probing,
 * backward-shift deletion, so no tombstones pile up). Where a ghost sits on the clock is its
 * owner's business. Nothing is allocated after construction.
 *
 * <p>Each index cell holds the slot and the low 32 bits of the key's hash. A probe compares the hash
 * first and reads the slot's key only when it matches, a deletion finds a moved cell's home from the
 * cell alone, and {@link #remove} finds the slot's cell by the slot number: all within the probe run's
 * cells, where a cell of the slot alone sent every step to the key array, a second cache miss
 * (docs/benchmarks.md, "Primitive maps").
 *
 * <p>Not thread-safe: its owner calls it under its own lock.
 *
 * <p>Kept over agrona's {@code Long2LongHashMap} as the index: agrona's is faster under CLOCK-Pro's mix (a
 * lookup finds the key in the cell, where this one follows the cell to the slot's key), but it holds at most
 * 2^29 cells, half of what {@link PolicySizes#MAX_GHOSTS} needs, at four times the bytes per cell; see
 * docs/benchmarks.md.
 *
 * <p>Internal: public only so that {@code PrimitiveMapBenchmark} (bench-jmh) can measure it; not part of the
 * policies' API.
 */
public final class GhostIndex {
    public static final int NONE = -1;
    /** A cell's hash bits: the key's hash's low 32 bits, whose low bits are the key's home cell. */
    private static final long TAG = 0xFFFF_FFFF_0000_0000L;

    private final int capacity;
    private final long[] keys;
    private final int[] nextFree;
    /** Per index cell: the key's hash's low 32 bits above slot + 1; 0 for an empty cell. */
    private final long[] cells;
    private final int cellMask;
    private int freeHead;
    private int size;

    /**
     * @param capacity ghosts kept, in [1, {@link PolicySizes#MAX_GHOSTS}]; there is room for one
     *                 more, which the owner trims at once
     */
    public GhostIndex(int capacity) {
        if (capacity < 1 || capacity > PolicySizes.MAX_GHOSTS) {
            throw new IllegalArgumentException("ghost capacity must be in [1, " + PolicySizes.MAX_GHOSTS + "]: capacity=" + capacity);
        }
        this.capacity = capacity;
        int slots = capacity + 1;
        keys = new long[slots];
        nextFree = new int[slots];
        for (int s = 0; s < slots; s++) {
            nextFree[s] = s + 1 < slots ? s + 1 : NONE;
        }
        int cellCount = cellsFor(capacity);
        cells = new long[cellCount];
        cellMask = cellCount - 1;
    }

    /**
     * Index cells for {@code capacity} ghosts: at least two per ghost, a power of two, at least 4;
     * 2^30 (the largest power-of-two array) at {@link PolicySizes#MAX_GHOSTS}. The slot beyond the
     * capacity may take the load past 1/2 by one cell.
     */
    public static int cellsFor(int capacity) {
        return Math.max(4, Integer.highestOneBit(capacity * 2 - 1) << 1);
    }

    /** Slots there are: the capacity plus one. */
    public int slots() {
        return keys.length;
    }

    public int capacity() {
        return capacity;
    }

    public int size() {
        return size;
    }

    public boolean overCapacity() {
        return size > capacity;
    }

    /** Takes a free slot for {@code key}, which must have none; returns the slot. */
    public int add(long key) {
        int slot = slotOfOrAdd(key);
        if (slot >= 0) {
            throw new IllegalStateException(PageKey.toString(key) + " already has a ghost");
        }
        return ~slot;
    }

    /**
     * The slot holding {@code key}, or, if none does, {@code ~slot} for the free slot it takes now (a negative
     * number): one probe where {@link #slotOf} then {@link #add} take two.
     */
    public int slotOfOrAdd(long key) {
        long tag = tagOf(key);
        int cell = homeOf(tag);
        for (long c = cells[cell]; c != 0; c = cells[cell]) {
            if ((c & TAG) == tag && keys[slotIn(c)] == key) {
                return slotIn(c);
            }
            cell = (cell + 1) & cellMask;
        }
        if (freeHead == NONE) {
            throw new IllegalStateException("no free ghost slot: " + size + " ghosts, capacity " + capacity
                + "; the owner must trim after every add");
        }
        int slot = freeHead;
        freeHead = nextFree[slot];
        keys[slot] = key;
        cells[cell] = tag | (slot + 1); // the empty cell that ended the probe: where the key's run now ends
        size++;
        return ~slot;
    }

    /** The slot holding {@code key}'s ghost, or {@link #NONE}. */
    public int slotOf(long key) {
        int cell = cellOf(key);
        return cell == NONE ? NONE : slotIn(cells[cell]);
    }

    public long keyAt(int slot) {
        return keys[slot];
    }

    /** Frees {@code slot}, which must hold a ghost. */
    public void remove(int slot) {
        deleteCell(cellOfSlot(slot));
        keys[slot] = PageKey.UNBOUND;
        nextFree[slot] = freeHead;
        freeHead = slot;
        size--;
    }

    private static long tagOf(long key) {
        return PageKey.hash(key) << 32;
    }

    private static int slotIn(long cell) {
        return (int) cell - 1;
    }

    /** The home cell of the key whose cell (or tag) this is. */
    private int homeOf(long cell) {
        return (int) (cell >>> 32) & cellMask;
    }

    private int cellOf(long key) {
        long tag = tagOf(key);
        for (int cell = homeOf(tag); cells[cell] != 0; cell = (cell + 1) & cellMask) {
            long c = cells[cell];
            if ((c & TAG) == tag && keys[slotIn(c)] == key) {
                return cell;
            }
        }
        return NONE;
    }

    /** The cell of {@code slot}, which holds a ghost: its key's probe run, compared by slot, never by key. */
    private int cellOfSlot(int slot) {
        long tag = tagOf(keys[slot]);
        for (int cell = homeOf(tag); ; cell = (cell + 1) & cellMask) {
            long c = cells[cell];
            if (c == (tag | (slot + 1))) {
                return cell;
            }
            if (c == 0) {
                throw new IllegalStateException("slot " + slot + " holds no ghost");
            }
        }
    }

    /** Empties {@code cell}, shifting later entries of its probe run back so that lookups still find them. */
    private void deleteCell(int cell) {
        int hole = cell;
        for (int probe = (hole + 1) & cellMask; cells[probe] != 0; probe = (probe + 1) & cellMask) {
            int home = homeOf(cells[probe]);
            boolean homeAfterHole = hole <= probe ? hole < home && home <= probe : hole < home || home <= probe;
            if (!homeAfterHole) {
                cells[hole] = cells[probe];
                hole = probe;
            }
        }
        cells[hole] = 0;
    }

    /** Every used slot is found by its key, the index holds nothing else, and the count is right. */
    public void checkInvariants(String owner) {
        int used = 0;
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != PageKey.UNBOUND) {
                used++;
                if (slotOf(keys[slot]) != slot) {
                    throw new IllegalStateException(owner + ": the ghost of " + PageKey.toString(keys[slot])
                        + " in slot " + slot + " is not found by its key");
                }
            }
        }
        int indexed = 0;
        for (long cell : cells) {
            indexed += cell != 0 ? 1 : 0;
        }
        if (used != size || indexed != size || size > capacity) {
            throw new IllegalStateException(owner + ": " + size + " ghosts counted, " + used + " slots used, "
                + indexed + " indexed, capacity " + capacity);
        }
    }
}
