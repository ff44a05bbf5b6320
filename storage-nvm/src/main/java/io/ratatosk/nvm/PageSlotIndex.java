package io.ratatosk.nvm;

import java.util.concurrent.locks.StampedLock;

import io.ratatosk.core.PageKey;

/**
 * The NVM index: page key to NVM slot, a fixed-size open-addressing table of primitive arrays (no
 * boxing, no allocation after construction, no resizing). Linear probing with backward-shift
 * deletion, so there are no tombstones and a probe ends at the first empty cell. Keys are
 * {@link PageKey}s, which are never 0; 0 marks an empty cell.
 *
 * <p>Sized for at most {@code maxEntries} keys at a load factor of at most 1/2. Writers take a
 * {@link StampedLock}'s write lock (each a handful of array stores); {@link #get} reads
 * optimistically and retries under the read lock only if a writer intervened.
 */
final class PageSlotIndex {
    static final int ABSENT = -1;
    private static final long EMPTY = 0L;

    private final long[] keys;
    private final int[] values;
    private final int mask;
    private final int maxEntries;
    private final StampedLock lock = new StampedLock();
    private int size;

    PageSlotIndex(int maxEntries) {
        if (maxEntries < 1 || maxEntries > (1 << 29)) {
            throw new IllegalArgumentException("index capacity must be in [1, 2^29]: maxEntries=" + maxEntries);
        }
        int capacity = Integer.highestOneBit(maxEntries * 2 - 1) << 1;
        this.keys = new long[capacity];
        this.values = new int[capacity];
        this.mask = capacity - 1;
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
        for (int i = home(key), n = 0; n <= mask; i = (i + 1) & mask, n++) {
            long k = keys[i];
            if (k == key) {
                return values[i];
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
            int i = home(key);
            while (keys[i] != EMPTY) {
                if (keys[i] == key) {
                    int previous = values[i];
                    values[i] = slot;
                    return previous;
                }
                i = (i + 1) & mask;
            }
            if (size == maxEntries) {
                throw new IllegalStateException("NVM index full: " + size + " entries");
            }
            values[i] = slot;
            keys[i] = key;
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
            int i = home(key);
            while (keys[i] != key) {
                if (keys[i] == EMPTY) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            if (values[i] != slot) {
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
    private void shiftBack(int hole) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            long k = keys[i];
            if (k == EMPTY) {
                break;
            }
            int home = home(k);
            // k may move into the hole only if its home is not in the cyclic range (hole, i].
            boolean homeInRange = hole <= i ? hole < home && home <= i : hole < home || home <= i;
            if (!homeInRange) {
                keys[hole] = k;
                values[hole] = values[i];
                hole = i;
            }
        }
        keys[hole] = EMPTY;
        values[hole] = 0;
    }

    int size() {
        long stamp = lock.readLock();
        try {
            return size;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private int home(long key) {
        return (int) PageKey.hash(key) & mask;
    }

    private static void checkKey(long key) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("key 0 is reserved for empty cells");
        }
    }
}
