package io.ratatosk.it.lifecycle;

import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PagedFile;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One opened {@link PageCache} of a scenario and what the run knows about its closing: how many close
 * attempts began and ended (an IllegalStateException is only explained by a close attempt that overlapped
 * the operation, or one after the mapping was made), whether one succeeded, and the PagedFile each file
 * was last mapped to (to catch two live mappings of one file).
 */
final class CacheGeneration {
    final int number;
    final PageCache cache;
    final String description;
    /**
     * Whether the injector's record of each mapping's forces speaks for this cache ({@link FaultInjector#forcesOf}): a
     * failing disk (with the NVM tier too: the injector counts a write-back failing inside the tier's force as the
     * mapping's failed force, and leaves out the force of the tier's close of a file, which is the close's).
     */
    final boolean forcesTracked;
    final AtomicInteger closesStarted = new AtomicInteger();
    final AtomicInteger closesFinished = new AtomicInteger();
    /** Set once a close() returned normally: from then on nothing may succeed on this cache. */
    volatile boolean closed;
    final AtomicReferenceArray<PagedFile> latestMapping;
    /**
     * The model's {@code next()} calls on this cache's cursors that returned true (those of the plain reads and writes,
     * touches' reads and linked records, not every one): each is a hit or a fault of the cache ({@code PageCacheStats}),
     * so once every cursor is closed (its counts published) hits plus faults are at least this.
     */
    final LongAdder pins = new LongAdder();
    /**
     * The NVM tier the scenario made and gave the cache ({@code PageCache.open(config, tier)}), which the cache closes
     * with itself: the host keeps it and closes it too, refused while the cache is open, doing nothing once it closed.
     * Null where the cache made its own tier, or has none.
     */
    final NvmSwapStore hostTier;

    /**
     * The injector's swapper factory of this cache, which counts the writes (and reads) its files got, where the cache writes
     * to them itself (no swap tier in between, whose writes to the files the cache does not count as its own); else null.
     */
    final FaultInjector.Factory swapperWrites;

    CacheGeneration(int number, PageCache cache, String description, int files, boolean forcesTracked, NvmSwapStore hostTier,
                    FaultInjector.Factory swapperWrites) {
        this.number = number;
        this.swapperWrites = swapperWrites;
        this.cache = cache;
        this.hostTier = hostTier;
        this.description = description;
        this.forcesTracked = forcesTracked;
        this.latestMapping = new AtomicReferenceArray<>(files);
    }

    /**
     * True if a close of this cache could explain an IllegalStateException on something mapped or
     * begun when {@code finishedBefore} close attempts had finished: one succeeded, or one began since.
     */
    boolean closingSince(int finishedBefore) {
        return closed || closesStarted.get() > finishedBefore;
    }

    @Override
    public String toString() {
        return "generation " + number + " (" + description + ")";
    }
}
