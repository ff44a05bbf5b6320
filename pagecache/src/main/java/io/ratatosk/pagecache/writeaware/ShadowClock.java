package io.ratatosk.pagecache.writeaware;

import java.util.Arrays;

/**
 * One of ARI's shadow tag sets, for a fully associative page cache: a small usage-count clock over
 * the sampled pages only, run with one write-aware variant, counting the misses and write-backs
 * that variant would cause. Variant {@code budget} passes over a dirty candidate for a later one as
 * long as that frame has been passed over fewer than {@code budget} times since it was faulted in
 * (and at most {@link WriteAwareEviction#MAX_SKIPS_PER_SEARCH} candidates in one search), which is
 * exactly what {@link WriteAwareEviction} does to the real policy. Budget 0 is the plain clock.
 *
 * <p>Pages are named by a 32-bit id (a hash of the page key); the shadow keeps metadata only.
 * Single-threaded: {@link AriSampler} calls it under its lock.
 */
final class ShadowClock {
    private static final int EMPTY = 0;

    private final int capacity;
    private final int budget;
    private final int maxUsage;
    private final int faultUsage;
    private final int evictThreshold;
    private final int[] ids;
    private final byte[] usage;
    private final boolean[] dirty;
    private final byte[] skips;
    /** Open addressing, linear probing, backward-shift deletion: id -> slot + 1, keyed by {@link #keys}. */
    private final int[] keys;
    private final int[] slots;
    private final int mask;
    private final int shift;
    private int size;
    private int hand;
    private long misses;
    private long writeBacks;

    ShadowClock(int capacity, int budget, int maxUsage, int faultUsage, int evictThreshold) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a shadow cache needs at least one frame: capacity=" + capacity);
        }
        this.capacity = capacity;
        this.budget = budget;
        this.maxUsage = maxUsage;
        this.faultUsage = faultUsage;
        this.evictThreshold = evictThreshold;
        this.ids = new int[capacity];
        this.usage = new byte[capacity];
        this.dirty = new boolean[capacity];
        this.skips = new byte[capacity];
        int tableSize = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2;
        this.keys = new int[tableSize];
        this.slots = new int[tableSize];
        this.mask = tableSize - 1;
        this.shift = Integer.numberOfLeadingZeros(tableSize) + 1;
    }

    int budget() {
        return budget;
    }

    /** One reference to the page {@code id} (never 0); {@code write} if it dirtied the page. */
    void reference(int id, boolean write) {
        int slot = find(id);
        if (slot >= 0) {
            if (usage[slot] < maxUsage) {
                usage[slot]++;
            }
            dirty[slot] |= write;
            return;
        }
        misses++;
        slot = size < capacity ? size++ : evict();
        ids[slot] = id;
        usage[slot] = (byte) faultUsage;
        dirty[slot] = write;
        skips[slot] = 0;
        insert(id, slot);
    }

    /** The clock: decrement as it passes; a candidate has usage at most the threshold before the step. */
    private int evict() {
        int passed = 0;
        while (true) {
            int slot = hand;
            hand = slot + 1 == capacity ? 0 : slot + 1;
            int u = usage[slot];
            if (u > 0) {
                usage[slot] = (byte) (u - 1);
            }
            if (u > evictThreshold) {
                continue;
            }
            if (dirty[slot] && skips[slot] < budget && passed < WriteAwareEviction.MAX_SKIPS_PER_SEARCH) {
                skips[slot]++;
                passed++;
                continue;
            }
            if (dirty[slot]) {
                writeBacks++;
            }
            remove(ids[slot]);
            return slot;
        }
    }

    long misses() {
        return misses;
    }

    long writeBacks() {
        return writeBacks;
    }

    /** Starts a new epoch's counts; the cache contents stay. */
    void resetCounts() {
        misses = 0;
        writeBacks = 0;
    }

    // ---- id -> slot -----------------------------------------------------------------------------

    private int home(int id) {
        return (id * 0x9E3779B9) >>> shift; // Fibonacci hashing: the product's top bits
    }

    private int find(int id) {
        for (int i = home(id); ; i = (i + 1) & mask) {
            if (keys[i] == id) {
                return slots[i];
            }
            if (keys[i] == EMPTY) {
                return -1;
            }
        }
    }

    private void insert(int id, int slot) {
        int i = home(id);
        while (keys[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        keys[i] = id;
        slots[i] = slot;
    }

    private void remove(int id) {
        int i = home(id);
        while (keys[i] != id) {
            i = (i + 1) & mask;
        }
        // Backward-shift deletion: move later entries of the run into the hole where their home allows.
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
    }

    /** The shadow's own bookkeeping: every slot in use is indexed, and nothing else is. */
    void checkInvariants() {
        int indexed = 0;
        for (int key : keys) {
            if (key != EMPTY) {
                indexed++;
            }
        }
        if (indexed != size) {
            throw new IllegalStateException("shadow clock (budget " + budget + ") holds " + size + " pages but indexes " + indexed);
        }
        int[] held = Arrays.copyOf(ids, size);
        for (int slot = 0; slot < size; slot++) {
            if (find(held[slot]) != slot) {
                throw new IllegalStateException("shadow clock (budget " + budget + ") slot " + slot + " is not indexed");
            }
        }
    }
}
