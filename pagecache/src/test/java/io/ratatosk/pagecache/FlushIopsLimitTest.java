package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.internal.IopsLimiter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code pagecache.flush.iops_limit}: a flush issues at most that many write calls in any second, on a
 * clock the test controls (its waits advance the clock; nothing sleeps), and an unlimited one never waits.
 */
class FlushIopsLimitTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /**
     * A clock that never moves: a limited flush waits for its second slot for ever, parking the while (so it takes no
     * core), unless something hurries it.
     */
    static final class StoppedClock implements IopsLimiter.Clock {
        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public void park(long nanos) {
            LockSupport.parkNanos(nanos);
        }
    }

    /** A clock that moves only when the limiter waits on it. */
    static final class ManualClock implements IopsLimiter.Clock {
        long now = 1_000_000_000L;
        long parks;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void park(long nanos) {
            parks++;
            now += nanos;
        }
    }

    @Test
    void aLimitedFlushIssuesAtMostTheLimitOfWriteCallsInAnySecond() throws IOException {
        ManualClock clock = new ManualClock();
        List<RecordingSwapper.WriteCall> calls = RecordingSwapper.newLog();
        int limit = 50;
        int dirtyPages = 400; // every other page: nothing to coalesce, 400 write calls
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "8m", "pagecache.page_size", "4k",
            "pagecache.flush.iops_limit", String.valueOf(limit), "pagecache.evictor.enabled", "false",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config, RecordingSwapper.factory(calls, clock::nanoTime));
             PagedFile file = cache.map(dir.resolve("limited.db"), PAGE)) {
            cache.useFlushLimiter(new IopsLimiter(limit, clock));
            for (long i = 0; i < dirtyPages; i++) {
                try (PageCursor c = file.io(2 * i, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(0, i);
                }
            }
            calls.clear();
            long start = clock.now;
            file.flush();

            assertEquals(dirtyPages, calls.size());
            for (int i = limit; i < calls.size(); i++) {
                long window = calls.get(i).atNanos() - calls.get(i - limit).atNanos();
                assertTrue(window >= 1_000_000_000L, "calls " + (i - limit) + ".." + i + " fell within " + window + " ns");
            }
            long elapsed = clock.now - start;
            assertTrue(elapsed >= (dirtyPages - 1) * (1_000_000_000L / limit), "the flush took " + elapsed + " ns of the clock");
        }
    }

    /**
     * A run's first page whose flush lock is held elsewhere (an eviction, another flusher) is waited for and written
     * alone: with the slot the run took for it, not a second one. Each took a slot, so such a page cost two and a limited
     * flush under contention ran below its limit: here 3 write calls took 4 slots, 60 ms of the clock at 50 a second.
     */
    @Test
    void aPageWaitedForAloneUsesTheSlotItsRunTookForIt() throws Exception {
        ManualClock clock = new ManualClock();
        List<RecordingSwapper.WriteCall> calls = RecordingSwapper.newLog();
        int limit = 50;
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "8m", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        ExecutorService flusher = Executors.newSingleThreadExecutor(r -> new Thread(r, "flusher"));
        try (PageCache cache = PageCache.open(config, RecordingSwapper.factory(calls, clock::nanoTime));
             PagedFile file = cache.map(dir.resolve("held.db"), PAGE)) {
            cache.useFlushLimiter(new IopsLimiter(limit, clock));
            for (long p : new long[] {0, 2, 4}) { // three runs of one page
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(0, p);
                }
            }
            int frame = PageCacheInternals.tableEntry(file, 2) - 1;
            long stamp = PageCacheInternals.frames(cache).tryFlushLock(frame); // as an eviction or another flusher would
            calls.clear();
            long start = clock.now;
            Future<?> flush = flusher.submit(() -> {
                file.flush();
                return null;
            });
            Thread thread = flusherThread();
            Waits.until(() -> {
                assertTrue(!flush.isDone(), "the flush ended without waiting for page 2");
                return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getMethodName().equals("flushAlone"));
            }, "the flush waits for page 2 in flushAlone", thread);
            PageCacheInternals.frames(cache).unlockFlush(frame, stamp, false); // still dirty: the flush writes it
            flush.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            assertEquals(3, calls.size(), calls.toString());
            assertEquals(2 * (1_000_000_000L / limit), clock.now - start, "3 write calls, 3 slots: two intervals");
        } finally {
            flusher.shutdownNow();
        }
    }

    private static Thread flusherThread() throws InterruptedException {
        Waits.until(() -> Waits.threadNamed("flusher") != null, "the flusher thread starts");
        return Waits.threadNamed("flusher");
    }

    @Test
    void theConfiguredLimitIsTheOneFlushesUse() throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.flush.iops_limit", "123",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config)) {
            assertTrue(PageCacheInternals.flushLimiter(cache).isLimited());
        }
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false")))) {
            assertEquals(IopsLimiter.UNLIMITED, PageCacheInternals.flushLimiter(cache));
        }
    }

    @Test
    void anUnlimitedLimiterNeverWaitsAndALimitedOneSpacesSlotsEvenly() {
        ManualClock clock = new ManualClock();
        IopsLimiter unlimited = new IopsLimiter(0, clock);
        for (int i = 0; i < 1000; i++) {
            unlimited.acquire();
        }
        assertEquals(0, clock.parks);

        IopsLimiter limited = new IopsLimiter(4, clock);
        long start = clock.now;
        limited.acquire(); // the first slot is now
        assertEquals(start, clock.now);
        limited.acquire();
        limited.acquire();
        assertEquals(start + 500_000_000L, clock.now, "the third call waits for its slot, half a second on");
        clock.now += 10_000_000_000L; // a quiet spell is not saved up as a burst
        long later = clock.now;
        limited.acquire();
        limited.acquire();
        assertEquals(later + 250_000_000L, clock.now);
    }

    @Test
    void anInterruptedCallerWaitsOutItsSlotAndKeepsItsInterrupt() {
        ManualClock clock = new ManualClock();
        IopsLimiter limited = new IopsLimiter(2, clock);
        limited.acquire();
        Thread.currentThread().interrupt();
        try {
            limited.acquire();
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
        } finally {
            Thread.interrupted();
        }
        assertEquals(1_000_000_000L + 500_000_000L, clock.now, "the second call waited for its slot");
    }

    @Test
    void aHurriedWaitReturnsAtOnceAndTakesNoSlot() {
        ManualClock clock = new ManualClock();
        IopsLimiter limited = new IopsLimiter(1, clock);
        limited.acquire();
        long start = clock.now;
        int[] looks = {0};
        limited.acquire(() -> ++looks[0] > 3); // not at its start, then hurried after two slices of its wait
        assertEquals(start + 2 * IopsLimiter.HURRY_CHECK_NANOS, clock.now, "two slices of the one-second wait");
        limited.acquire(() -> true);
        assertEquals(start + 2 * IopsLimiter.HURRY_CHECK_NANOS, clock.now, "hurried from the start: no wait");
        limited.acquire();
        assertEquals(start + 2_000_000_000L, clock.now, "the hurried call kept its slot, the one from the start none");
    }

    /**
     * A limited flush that the file's close (or the cache's) waits for stops keeping to the limit: the close's
     * own flush is not limited, and it must not wait at the limited rate for the one in flight (it did: 30 pages
     * at 1 write a second kept a close waiting for half a minute). On a clock that stands still the limited flush
     * would never end by itself, so the close ending at all (within the shared hang bound) shows it hurried the flush;
     * no time is measured.
     */
    @ParameterizedTest(name = "{0} close")
    @ValueSource(strings = {"file", "cache"})
    void aCloseDoesNotWaitForALimitedFlushAtItsRate(String which) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k",
            "pagecache.flush.iops_limit", "1", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        Path path = dir.resolve("closing.db");
        PageCache cache = PageCache.open(config);
        cache.useFlushLimiter(new IopsLimiter(1, new StoppedClock()));
        PagedFile file = cache.map(path, PAGE);
        int dirtyPages = 30; // every other page: 30 write calls, never done at the limit on a stopped clock
        for (long i = 0; i < dirtyPages; i++) {
            try (PageCursor c = file.io(2 * i, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, 1000 + i);
            }
        }
        // Two threads of its own: CompletableFuture.runAsync ran both in the common pool's one worker on two cores
        // under JDK 25 (JDK 17 gave each a thread), so the close waited for the flush.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> flush = threads.submit(() -> {
                file.flush();
                return null;
            });
            Waits.until(() -> {
                assertFalse(flush.isDone(), "the flush ended (returned or threw) without waiting for its second slot");
                return cache.flushLimiter().waitedNanos() != 0;
            }, "the flush waits for its second slot");
            Future<?> close = threads.submit(() -> {
                if (which.equals("file")) {
                    file.close();
                }
                cache.close();
                return null;
            });
            close.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            flush.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        try (PageCache reopened = PageCache.open(config); PagedFile again = reopened.map(path, PAGE, false)) {
            for (long i = 0; i < dirtyPages; i++) {
                try (PageCursor c = again.io(2 * i, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    long value;
                    do {
                        value = c.getLong(0);
                    } while (c.shouldRetry());
                    assertEquals(1000 + i, value, "page " + 2 * i);
                }
            }
        }
    }
}
