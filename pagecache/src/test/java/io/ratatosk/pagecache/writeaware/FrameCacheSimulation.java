package io.ratatosk.pagecache.writeaware;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.replay.PolicyReplay;

/**
 * A policy, optionally wrapped in {@link WriteAwareEviction}, replayed through {@link PolicyReplay}:
 * the page cache's lock and modified-bit protocol over frame metadata only, evicting on one faulting
 * thread's cooperative sweep. Counts misses and write-backs (writes).
 */
final class FrameCacheSimulation implements AutoCloseable {
    private final PolicyReplay replay;

    FrameCacheSimulation(int frameCount, String policyName, boolean writeAware) {
        this.replay = new PolicyReplay(frameCount, 0, frames -> {
            EvictionPolicy plain = PolicyRegistry.create(policyName, frames, FlagValues.NONE);
            return writeAware ? new WriteAwareEviction(plain, frames, 4, 1, 1) : plain;
        }, Sweep.cooperative(42));
    }

    void reference(long pageId, boolean write) {
        replay.access(Math.toIntExact(pageId), write);
    }

    long misses() {
        return replay.misses();
    }

    /** Dirty evictions: the writes to the file. */
    long writes() {
        return replay.writeBacks();
    }

    EvictionPolicy policy() {
        return replay.policy();
    }

    @Override
    public void close() {
        try {
            replay.verify();
        } finally {
            replay.close();
        }
    }
}
