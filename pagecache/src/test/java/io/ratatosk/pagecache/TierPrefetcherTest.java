package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.tier.PrefetchSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prefetcher's wait for demand reads, with a tier whose demand read never seems to end (storage that stalls). */
class TierPrefetcherTest {
    private static final int PAGE = 4096;
    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    @TempDir
    Path dir;

    /** A tier of plain files that holds every page but page 0, with a demand read in flight while {@link #stalled}. */
    static final class StalledTier extends PlainFilesTier implements PrefetchSource {
        final AtomicLong readsInFlightCalls = new AtomicLong();
        volatile boolean stalled = true;
        volatile SwapInListener listener = SwapInListener.NONE;
        /** What {@link #keyInSlot} says slot 0 holds. */
        volatile long keyInSlot;
        /** Whether every read is a swap-in from slot 0, told to the listener from inside the read, as the NVM tier does. */
        volatile boolean readsAreSwapIns;

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                @Override
                public int read(long pageId, long address) throws IOException {
                    int read = super.read(pageId, address);
                    if (readsAreSwapIns) {
                        listener.swappedIn(fileId, pageId, 0);
                    }
                    return read;
                }
            };
        }

        @Override
        public PrefetchSource prefetchSource() {
            return this;
        }

        @Override
        public int depth() {
            return 2;
        }

        @Override
        public void swapInListener(SwapInListener listener) {
            this.listener = listener == null ? SwapInListener.NONE : listener;
        }

        @Override
        public int readsInFlight() {
            readsInFlightCalls.incrementAndGet();
            return stalled ? 1 : 0;
        }

        @Override
        public boolean contains(int fileId, long pageId) {
            return pageId > 0;
        }

        @Override
        public int slots() {
            return 2;
        }

        @Override
        public long keyInSlot(int slot) {
            return keyInSlot;
        }
    }

    /** Polls of {@code readsInFlight()} over {@link #WATCH_NANOS}, and the milliseconds they took. */
    private static long[] pollsWhileWatching(StalledTier tier) throws InterruptedException {
        long calls = tier.readsInFlightCalls.get();
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WATCH_NANOS));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return new long[] {tier.readsInFlightCalls.get() - calls, millis};
    }

    /** The prefetch thread alive that was not in {@code before}: this cache's, not a cache's another test left open. */
    private static Thread prefetchThread(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("ratatosk-tier-prefetch") && t.isAlive() && !before.contains(t))
            .findFirst().orElse(null);
    }

    /**
     * A demand read that lasts (storage that stalls) kept the prefetcher waking every 20 us, tens of thousands of times a
     * second, for as long as it lasted, and a spin without any park once the thread was interrupted; now the wait's step
     * doubles up to {@link TierPrefetcher#MAX_DEMAND_BACKOFF_NANOS}, interrupted or not. The hint is still prefetched once
     * the read ends, and the cache closes at once while the prefetcher waits.
     */
    @Test
    void aDemandReadThatLastsIsWaitedForWithoutSpinning() throws Exception {
        StalledTier tier = new StalledTier();
        PageCacheConfig config = SwapPluginMisuseTest.config("pagecache.memory", "64k");
        Set<Thread> before = SwapPluginMisuseTest.threadsNow();
        PageCache cache = PageCache.open(config, tier);
        try {
            PagedFile file = cache.map(dir.resolve("stalled.db"), PAGE);
            LifecycleTest.write(file, 3, 3);
            file.flush(); // four pages long; pages 0 to 2 were never faulted in
            tier.listener.swappedIn(PageCacheInternals.fileId(file), 0, 0); // depth 2: a hint of page 1
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (tier.readsInFlightCalls.get() == 0) {
                assertTrue(System.nanoTime() - deadline < 0, "the prefetcher took a hint and waits for the demand read");
                Thread.sleep(1);
            }

            long maxPolls = 1 + WATCH_NANOS / TierPrefetcher.MAX_DEMAND_BACKOFF_NANOS;
            long[] waiting = pollsWhileWatching(tier);
            assertTrue(waiting[0] <= 2 * maxPolls * waiting[1] / TimeUnit.NANOSECONDS.toMillis(WATCH_NANOS) + 16,
                waiting[0] + " polls of the demand reads in " + waiting[1] + " ms");

            Thread prefetcher = prefetchThread(before);
            assertNotNull(prefetcher);
            prefetcher.interrupt();
            long[] interrupted = pollsWhileWatching(tier);
            assertTrue(interrupted[0] <= 2 * maxPolls * interrupted[1] / TimeUnit.NANOSECONDS.toMillis(WATCH_NANOS) + 16,
                interrupted[0] + " polls of the demand reads in " + interrupted[1] + " ms, interrupted");

            tier.stalled = false;
            while (cache.stats().nvm().prefetched() == 0) {
                assertTrue(System.nanoTime() - deadline < 0, "a hint was prefetched once the demand read ended");
                Thread.sleep(1);
            }
            assertEquals(1, cache.stats().faults(), "the prefetch was no fault (the one fault is page 3's write)");

            tier.stalled = true;
            tier.listener.swappedIn(PageCacheInternals.fileId(file), 1, 0); // a hint of page 2, waited for again
            long polls = tier.readsInFlightCalls.get();
            while (tier.readsInFlightCalls.get() == polls) {
                assertTrue(System.nanoTime() - deadline < 0, "the prefetcher waits again");
                Thread.sleep(1);
            }
        } finally {
            // The stall never ends: a close that waited for it would never return, and a bound checked once it returned
            // hung the build on that one; the preemptive bound catches it. A close that gave up waiting after a while (a
            // bounded join) leaves the prefetcher still waiting for the stall, alive: the check below catches that. No
            // time is measured (a 5 s bound on the close failed falsely where a loaded machine made the close slow).
            assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), cache::close,
                "the close waited for the stalled demand read");
        }
        assertNull(prefetchThread(before), "the prefetcher stopped with the close, the stall still on");
    }

    /**
     * A hint is only a hint: a key from the tier that names no file the cache could have (file id -1: a bare page id, a
     * plug-in's bug) is dropped. It reached the cache's owner table with that id, and the IndexOutOfBoundsException went
     * through the tier's read into the fault that had read the page, which failed.
     */
    @Test
    void aHintThatNamesNoFileIsDroppedAndTheFaultThatOfferedItGetsItsPage() throws Exception {
        StalledTier tier = new StalledTier();
        tier.stalled = false;
        tier.keyInSlot = 5; // file id bits 0: file -1, page 5
        tier.readsAreSwapIns = true;
        try (PageCache cache = PageCache.open(SwapPluginMisuseTest.config("pagecache.memory", "64k"), tier);
             PagedFile file = cache.map(dir.resolve("hint.db"), PAGE)) {
            LifecycleTest.write(file, 3, 3);
            file.flush();
            file.close();
            try (PagedFile again = cache.map(dir.resolve("hint.db"), PAGE)) {
                assertEquals(3, LifecycleTest.read(again, 3), "the fault got its page");
                assertTrue(cache.stats().nvm().prefetchHintsDropped() > 0, "the hint naming no file was dropped");
            }
        }
    }

    /**
     * A hint that a full queue pushes out (its oldest, written over by a new one) is dropped like any other and counted:
     * it went uncounted, so {@code prefetchHintsDropped} said nothing of the hints a burst of swap-ins lost while the
     * prefetcher waited for demand reads.
     */
    @Test
    void aHintPushedOutOfAFullQueueIsCountedDropped() throws Exception {
        StalledTier tier = new StalledTier(); // the prefetcher takes at most one hint, then waits for the stall
        int offered = TierPrefetcher.QUEUE_SIZE + 50;
        PageCache cache = PageCache.open(SwapPluginMisuseTest.config("pagecache.memory", "64k"), tier);
        try {
            PagedFile file = cache.map(dir.resolve("burst.db"), PAGE);
            int fileId = PageCacheInternals.fileId(file);
            for (int page = 1; page <= offered; page++) {
                tier.listener.swappedIn(fileId, page, 0); // depth 2: a hint of page + 1, none resident
            }
            long dropped = cache.stats().nvm().prefetchHintsDropped();
            assertTrue(dropped >= offered - TierPrefetcher.QUEUE_SIZE - 1,
                dropped + " hints counted dropped of " + offered + " offered to a queue of " + TierPrefetcher.QUEUE_SIZE
                    + " that the prefetcher, waiting for the stall, took at most one of");
            assertEquals(0, cache.stats().nvm().prefetched(), "nothing prefetched during the stall");
        } finally {
            assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), cache::close,
                "the close waited for the stalled demand read");
        }
    }
}
