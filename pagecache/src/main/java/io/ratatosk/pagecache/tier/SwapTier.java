package io.ratatosk.pagecache.tier;

import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * A tier between the page frames and the store's files: the page cache reaches every file through it
 * (it is the {@link PageSwapperFactory} of the files), reports its counters, and uses its hooks when it
 * offers them: prefetching after a swap-in, and write-aware eviction. Closing it makes every file it
 * holds pages of durable.
 *
 * <p>A swapper of the tier must not call back into the page cache from inside a call the cache made (map, close or
 * truncate a file, close or flush the cache, open a cursor): the call would wait for the one in progress, and is
 * refused with an {@code IllegalStateException}. A prefetch depth must be in [0, 256]; {@link #counters()} must not
 * return null.
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

    /**
     * Called once by the page cache that takes this tier, before it maps a file through it: {@code cacheOpen} answers
     * true for as long as that cache is open, and false once it is closing the tier (or failed to open). A tier that
     * closes the files it holds should refuse {@link #close()} with an {@code IllegalStateException} while it answers
     * true, and refuse another cache's call meanwhile: closed under an open cache, such a tier released every mapped
     * file, and every later close of the cache failed writing its dirty pages, keeping its memory and threads for the
     * JVM's life. The default ignores it.
     */
    default void servesCache(BooleanSupplier cacheOpen) {
    }

    /** Closes the tier and every file it holds; the page cache it serves calls this once that cache has closed. */
    @Override
    void close() throws IOException;

    /**
     * Write-aware eviction in front of a tier: the policy passes over dirty frames as far as sampling
     * shows it pays, and its shadows model a tier of {@code slots} slots to count the writes it saves.
     */
    record WriteAwareness(int slots) {
        /**
         * Refuses a negative count where the tier makes it, naming it: passed on, it failed the page cache's open with
         * the advice for shadows too big for the heap ("more heap, fewer slots"), wrong for a tier's bug.
         */
        public WriteAwareness {
            if (slots < 0) {
                throw new IllegalArgumentException("write-aware eviction models a tier of 0 or more slots: slots=" + slots);
            }
        }
    }
}
