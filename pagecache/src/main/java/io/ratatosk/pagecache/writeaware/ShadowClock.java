package io.ratatosk.pagecache.writeaware;

/**
 * One of ARI's shadow tag sets, for a fully associative page cache: a small usage-count clock over
 * the sampled pages only, run with one write-aware variant, counting the misses and the writes that
 * variant's evictions cause. Variant {@code budget} passes over a dirty candidate as long as that
 * frame has been passed over fewer than {@code budget} times since it was faulted in (and at most
 * {@link WriteAwareEviction#MAX_SKIPS_PER_SEARCH} candidates in one search), which is exactly what
 * {@link WriteAwareEviction} does to the real policy. Budget 0 is the plain clock.
 *
 * <p>Which evictions write depends on what is behind the frames. Without NVM ({@code nvmSlots} 0)
 * a dirty page is written back and a clean one is dropped. With NVM, the shadow also keeps the set
 * of pages the NVM tier holds, with the tier's own clock over slots: a dirty page is written into
 * NVM, a clean one too unless NVM still has its copy (then the eviction is free), and a fault finds
 * its page in NVM or not, as in {@code NvmSwapStore}. So a variant that keeps dirty pages longer is
 * also charged for the clean pages it evicts instead, where those cost an NVM write. (Passing over
 * clean pages that NVM lacks would not pay: each is stored once whenever it leaves; only a dirty
 * page kept longer can absorb further writes.)
 *
 * <p>Pages are named by a non-zero 32-bit id (a hash of the page key); the shadow keeps metadata
 * only. Single-threaded: {@link AriSampler} calls it under its lock.
 */
final class ShadowClock {
    private final int capacity;
    private final int budget;
    private final int maxUsage;
    private final int faultUsage;
    private final int evictThreshold;
    private final int[] ids;
    private final byte[] usage;
    private final boolean[] dirty;
    private final byte[] skips;
    private final IdIndex index;
    private final Nvm nvm;
    private int size;
    private int hand;
    private long misses;
    private long writes;

    ShadowClock(int capacity, int nvmSlots, int budget, int maxUsage, int faultUsage, int evictThreshold) {
        if (capacity < 1 || nvmSlots < 0) {
            throw new IllegalArgumentException("a shadow cache needs a frame and no negative NVM: capacity=" + capacity
                + ", nvmSlots=" + nvmSlots);
        }
        // A usage clock's settings, the usage kept in a byte: a threshold no usage reaches (a negative one) left evict()
        // sweeping for ever once the shadow was full.
        if (maxUsage < 1 || maxUsage > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("a shadow clock's usage is in [1, " + Byte.MAX_VALUE + "]: maxUsage=" + maxUsage);
        }
        if (faultUsage < 0 || faultUsage > maxUsage || evictThreshold < 0 || evictThreshold > maxUsage) {
            throw new IllegalArgumentException("a shadow clock's fault usage and evict threshold are in [0, maxUsage="
                + maxUsage + "]: faultUsage=" + faultUsage + ", evictThreshold=" + evictThreshold);
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
        this.index = new IdIndex(capacity);
        this.nvm = nvmSlots == 0 ? null : new Nvm(nvmSlots);
    }

    int budget() {
        return budget;
    }

    /** One reference to the page {@code id} (never 0); {@code write} if it dirtied the page. */
    void reference(int id, boolean write) {
        int slot = index.get(id);
        if (slot >= 0) {
            if (usage[slot] < maxUsage) {
                usage[slot]++;
            }
            dirty[slot] |= write;
            return;
        }
        misses++;
        if (nvm != null) {
            nvm.touch(id);
        }
        slot = size < capacity ? size++ : evict();
        ids[slot] = id;
        usage[slot] = (byte) faultUsage;
        dirty[slot] = write;
        skips[slot] = 0;
        index.put(id, slot);
    }

    /** Whether evicting the page in {@code slot} now would write it somewhere. */
    private boolean evictionWrites(int slot) {
        return dirty[slot] || nvm != null && !nvm.holds(ids[slot]);
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
            if (evictionWrites(slot)) {
                writes++;
                if (nvm != null) {
                    nvm.store(ids[slot]);
                }
            } else if (nvm != null) {
                nvm.touch(ids[slot]); // a clean eviction that finds its copy references it, as the tier does
            }
            index.remove(ids[slot]);
            return slot;
        }
    }

    long misses() {
        return misses;
    }

    /** Evictions that wrote: to NVM with a shadow NVM, else dirty pages to the file. */
    long writes() {
        return writes;
    }

    /** Starts a new epoch's counts; the cache contents stay. */
    void resetCounts() {
        misses = 0;
        writes = 0;
    }

    /** The shadow's own bookkeeping: every slot in use is indexed, and nothing else is. */
    void checkInvariants() {
        if (index.size() != size) {
            throw new IllegalStateException("shadow clock (budget " + budget + ") holds " + size + " pages but indexes " + index.size());
        }
        for (int slot = 0; slot < size; slot++) {
            if (index.get(ids[slot]) != slot) {
                throw new IllegalStateException("shadow clock (budget " + budget + ") slot " + slot + " is not indexed");
            }
        }
        if (nvm != null) {
            nvm.checkInvariants();
        }
    }

    /**
     * The pages the NVM tier would hold: slots filled in order, then reclaimed by a clock that gives
     * a referenced slot a second chance, as {@code NvmSwapStore} does. A swap-in and an eviction
     * that finds its copy reference the slot.
     */
    private static final class Nvm {
        private final int slots;
        private final int[] ids;
        private final boolean[] referenced;
        private final IdIndex index;
        private int used;
        private int hand;

        Nvm(int slots) {
            this.slots = slots;
            this.ids = new int[slots];
            this.referenced = new boolean[slots];
            this.index = new IdIndex(slots);
        }

        boolean holds(int id) {
            return index.get(id) >= 0;
        }

        /** A fault: if NVM holds the page, it is swapped in and its slot referenced. */
        void touch(int id) {
            int slot = index.get(id);
            if (slot >= 0) {
                referenced[slot] = true;
            }
        }

        /** An eviction that writes: into the page's slot, or a new one. */
        void store(int id) {
            int slot = index.get(id);
            if (slot < 0) {
                slot = used < slots ? used++ : reclaim();
                ids[slot] = id;
                index.put(id, slot);
            }
            referenced[slot] = true;
        }

        private int reclaim() {
            while (true) {
                int slot = hand;
                hand = slot + 1 == slots ? 0 : slot + 1;
                if (referenced[slot]) {
                    referenced[slot] = false;
                    continue;
                }
                index.remove(ids[slot]);
                return slot;
            }
        }

        void checkInvariants() {
            if (index.size() != used) {
                throw new IllegalStateException("shadow NVM holds " + used + " pages but indexes " + index.size());
            }
        }
    }
}
