package io.ratatosk.policies.deferredlru;

import io.ratatosk.core.config.Flag;

/** The flags of deferred-lru. */
public final class DeferredLruFlags {
    public static final Flag PULL_THRESHOLD = Flag.frameShare("pagecache.deferred_lru.pull_threshold", "0.9",
            "Frames hit since the last pull that make the next hit move them all to the head of the LRU list.");

    public static final Flag PURGE_COUNT = Flag.frameShare("pagecache.deferred_lru.purge_count", "0.01",
            "Eviction candidates one walk from the LRU tail collects.");

    private DeferredLruFlags() {
    }
}
