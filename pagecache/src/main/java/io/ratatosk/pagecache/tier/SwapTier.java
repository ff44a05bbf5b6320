package io.ratatosk.pagecache.tier;

import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;

/**
 * A tier between the page frames and the store's files: the page cache reaches every file through it
 * (it is the {@link PageSwapperFactory} of the files), reports its counters, and uses its hooks when it
 * offers them: prefetching after a swap-in, and write-aware eviction. Closing it makes every file it
 * holds pages of durable.
 */
public interface SwapTier extends PageSwapperFactory {
    /** The tier's counters now, for {@code PageCacheStats}. */
    TierCounters counters();

    /** What the page cache's prefetcher needs from the tier, when prefetching is on; null otherwise. */
    default PrefetchSource prefetchSource() {
        return null;
    }

    /** Whether, and with what slots, write-aware eviction should run in front of the tier; null when off. */
    default WriteAwareness writeAwareness() {
        return null;
    }

    /** Checks the tier's bookkeeping when no operation runs, naming the first inconsistency. */
    default void checkInvariants() {
    }

    @Override
    void close() throws IOException;

    /**
     * Write-aware eviction in front of a tier: the policy passes over dirty frames as far as sampling
     * shows it pays, and its shadows model a tier of {@code slots} slots to count the writes it saves.
     */
    record WriteAwareness(int slots) {
    }
}
