package io.ratatosk.nvm;

import java.util.concurrent.locks.StampedLock;

import io.ratatosk.core.PageKey;

/**
 * The NVM index: page key to NVM slot, a fixed-size open-addressing table of primitive arrays (no
 * boxing, no allocation after construction, no resizing). Linear probing with backward-shift
 * deletion, so there are no tombstones and a probe ends at the first empty cell. Keys are
 * {@link PageKey}s, which are never 0; 0 marks an empty cell.
 *
 * <p>Sized for at most {@code maxEntries} keys at a load factor of at most 1/2, for every slot count
 * the NVM tier may have ({@link NvmFlags#MAX_SLOTS}): the cells, up to 2^32, are split
 * into segments of at most 2^30 (the largest power-of-two array), and a cell number is a
 * {@code long}. Writers take a {@link StampedLock}'s write lock (each a handful of array stores);
 * {@link #get} reads optimistically and retries under the read lock only if a writer intervened.
 *
 * <p>Kept over agrona's {@code Long2LongHashMap}: a lock-free optimistic read must survive a writer shifting
 * cells under it (hence the bounded probe), which agrona's unbounded probes do not promise, and agrona's tables
 * stop at 2^29 cells where this one reaches 2^32.
 */
final class PageSlotIndex {
    static final int ABSENT = -1;
    private static final long EMPTY = 0L;
    /** Cells per segment at most: 2^30. */
    static final int MAX_SEGMENT_SHIFT = 30;

    private final long[][] keys;
    private final int[][] values;
    private final long mask;
    private final int segmentShift;
    private final int segmentMask;
    private final int maxEntries;
    private final StampedLock lock = new StampedLock();
    private int size;

    PageSlotIndex(int maxEntries) {
        this(maxEntries, MAX_SEGMENT_SHIFT);
    }

    /** With segments of at most 2^{@code maxSegmentShift} cells; tests use small ones to cross segments. */
    PageSlotIndex(int maxEntries, int maxSegmentShift) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("index capacity must be at least 1: maxEntries=" + maxEntries);
        }
        if (maxSegmentShift < 1 || maxSegmentShift > MAX_SEGMENT_SHIFT) {
            throw new IllegalArgumentException("segment shift must be in [1, " + MAX_SEGMENT_SHIFT + "]: " + maxSegmentShift);
        }
        long cells = cellsFor(maxEntries);
        this.segmentShift = Math.min(maxSegmentShift, Long.numberOfTrailingZeros(cells));
        int segmentCells = 1 << segmentShift;
        int segments = (int) (cells >>> segmentShift);
        this.keys = new long[segments][segmentCells];
        this.values = new int[segments][segmentCells];
        this.mask = cells - 1;
        this.segmentMask = segmentCells - 1;
        this.maxEntries = maxEntries;
    }

    /** The slot of {@code key}, or {@link #ABSENT}. */
    int get(long key) {
        long stamp = lock.tryOptimisticRead();
        int value = probe(key);
        if (!lock.validate(stamp)) {
            stamp = lock.readLock();
            try {
                value = probe(key);
            } finally {
                lock.unlockRead(stamp);
            }
        }
        return value;
    }

    private int probe(long key) {
        // Bounded: under an optimistic read a concurrent shift may hide the empty cell that ends a probe.
        for (long i = home(key), n = 0; n <= mask; i = (i + 1) & mask, n++) {
            long k = key(i);
            if (k == key) {
                return value(i);
            }
            if (k == EMPTY) {
                return ABSENT;
            }
        }
        return ABSENT;
    }

    /** Maps {@code key} to {@code slot}, replacing any previous slot; returns the previous one or {@link #ABSENT}. */
    int put(long key, int slot) {
        checkKey(key);
        long stamp = lock.writeLock();
        try {
            long i = home(key);
            while (key(i) != EMPTY) {
                if (key(i) == key) {
                    int previous = value(i);
                    setValue(i, slot);
                    return previous;
                }
                i = (i + 1) & mask;
            }
            if (size == maxEntries) {
                throw new IllegalStateException("NVM index full: " + size + " entries");
            }
            setValue(i, slot);
            setKey(i, key);
            size++;
            return ABSENT;
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Removes {@code key} if it maps to {@code slot}; returns whether it did. */
    boolean remove(long key, int slot) {
        long stamp = lock.writeLock();
        try {
            long i = home(key);
            while (key(i) != key) {
                if (key(i) == EMPTY) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            if (value(i) != slot) {
                return false;
            }
            shiftBack(i);
            size--;
            return true;
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Backward-shift deletion: pulls later members of the probe run into the hole at {@code hole}. */
    private void shiftBack(long hole) {
        long i = hole;
        while (true) {
            i = (i + 1) & mask;
            long k = key(i);
            if (k == EMPTY) {
                break;
            }
            long home = home(k);
            // k may move into the hole only if its home is not in the cyclic range (hole, i].
            boolean homeInRange = hole <= i ? hole < home && home <= i : hole < home || home <= i;
            if (!homeInRange) {
                setKey(hole, k);
                setValue(hole, value(i));
                hole = i;
            }
        }
        setKey(hole, EMPTY);
        setValue(hole, 0);
    }

    int size() {
        long stamp = lock.readLock();
        try {
            return size;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Cells for {@code maxEntries} keys: a power of two, at least twice as many (load at most 1/2);
     * 2^32 for the most NVM slots, in four segments.
     */
    static long cellsFor(int maxEntries) {
        return Long.highestOneBit(2L * maxEntries - 1) << 1;
    }

    /** Cells in all. */
    long cells() {
        return mask + 1;
    }

    int segments() {
        return keys.length;
    }

    private long home(long key) {
        return PageKey.hash(key) & mask;
    }

    private long key(long cell) {
        return keys[(int) (cell >>> segmentShift)][(int) cell & segmentMask];
    }

    private void setKey(long cell, long key) {
        keys[(int) (cell >>> segmentShift)][(int) cell & segmentMask] = key;
    }

    private int value(long cell) {
        return values[(int) (cell >>> segmentShift)][(int) cell & segmentMask];
    }

    private void setValue(long cell, int value) {
        values[(int) (cell >>> segmentShift)][(int) cell & segmentMask] = value;
    }

    private static void checkKey(long key) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("key 0 is reserved for empty cells");
        }
    }
}
