package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.tier.PrefetchSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Once a cache's close tells its tier it is done with it ({@link io.ratatosk.pagecache.tier.SwapTier#servesCache}'s
 * supplier reads false), the tier's host may close the tier at once: nothing of the cache may call the tier after that
 * but the tier's own close. The close said so right after unmapping the files, before it took its listener off the tier
 * and stopped its prefetcher, which went on asking the tier for its demand reads: calls on a tier its host may have
 * closed.
 */
class TierReleasedAfterItsUsersStopTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /**
     * A tier of plain files holding every page but page 0, with a demand read in flight for good (a prefetch waits on
     * it), that records each call of its prefetch hooks made after its cache said it was done with it.
     */
    static class WatchedTier extends PlainFilesTier implements PrefetchSource {
        volatile BooleanSupplier cacheOpen = () -> true;
        /** On once the cache is open: the open itself calls a hook before the supplier reads true. */
        volatile boolean watching;
        volatile SwapInListener listener = SwapInListener.NONE;
        volatile Thread prefetcher;
        final AtomicLong readsInFlightCalls = new AtomicLong();
        final List<String> callsAfterRelease = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void servesCache(BooleanSupplier cacheOpen) {
            this.cacheOpen = cacheOpen;
        }

        @Override
        public PrefetchSource prefetchSource() {
            return this;
        }

        @Override
        public int depth() {
            return 2;
        }

        private boolean released(String call) {
            if (watching && !cacheOpen.getAsBoolean()) {
                callsAfterRelease.add(call + " on " + Thread.currentThread().getName());
                return true;
            }
            return false;
        }

        @Override
        public int readsInFlight() {
            prefetcher = Thread.currentThread();
            released("readsInFlight()");
            readsInFlightCalls.incrementAndGet();
            return 1;
        }

        @Override
        public void swapInListener(SwapInListener listener) {
            if (released("swapInListener(" + listener + ")")) {
                // A host closing the tier now, as it may: the prefetcher, if still running, asks the tier once more
                long calls = readsInFlightCalls.get();
                Thread thread = prefetcher;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
                while (readsInFlightCalls.get() == calls && thread != null && thread.isAlive()
                       && System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                    Thread.yield();
                }
            }
            this.listener = listener == null ? SwapInListener.NONE : listener;
        }

        @Override
        public boolean contains(int fileId, long pageId) {
            released("contains(" + fileId + ", " + pageId + ")");
            return pageId > 0;
        }

        @Override
        public int slots() {
            released("slots()");
            return 2;
        }

        @Override
        public long keyInSlot(int slot) {
            released("keyInSlot(" + slot + ")");
            return 0;
        }
    }

    @Test
    void theCacheCallsNoHookOfItsTierOnceItSaidItWasDoneWithIt() throws Exception {
        WatchedTier tier = new WatchedTier();
        PageCache cache = PageCache.open(SwapPluginMisuseTest.config("pagecache.memory", "64k"), tier);
        try {
            PagedFile file = cache.map(dir.resolve("watched.db"), PAGE);
            LifecycleTest.write(file, 3, 3);
            file.flush(); // four pages long; pages 0 to 2 were never faulted in
            tier.watching = true;
            tier.listener.swappedIn(PageCacheInternals.fileId(file), 0, 0); // a hint of page 1, waiting on the stall
            Waits.until(() -> tier.readsInFlightCalls.get() > 0, "the prefetcher waiting for the demand read");
        } finally {
            cache.close();
        }
        assertTrue(cache.isClosed());
        assertEquals(List.of(), tier.callsAfterRelease, "calls on the tier after its cache was done with it");
    }

    /**
     * A host may close the tier once its cache is closed; {@link PageCache#isClosed()} read true while the close still
     * answered its tier it was open (servesCache's supplier true: taking its listener off the tier, stopping its threads),
     * and a host that closed the tier on seeing it was refused, told to close the page cache instead.
     */
    @Test
    void theCacheReadsClosedOnlyOnceItsTierMayBeClosed() throws Exception {
        AtomicReference<PageCache> opened = new AtomicReference<>();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        WatchedTier tier = new WatchedTier() {
            @Override
            public void swapInListener(SwapInListener listener) {
                PageCache cache = opened.get();
                if (listener == null && cache != null) { // the close's
                    seen.add("isClosed()=" + cache.isClosed() + " while the tier's supplier read " + cacheOpen.getAsBoolean());
                }
                super.swapInListener(listener);
            }
        };
        PageCache cache = PageCache.open(SwapPluginMisuseTest.config("pagecache.memory", "64k"), tier);
        opened.set(cache);
        cache.close();
        assertTrue(cache.isClosed());
        assertEquals(List.of("isClosed()=false while the tier's supplier read true"), seen);
    }
}
