package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.internal.IopsLimiter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pagecache.flush.iops_limit}: a flush issues at most that many write calls in any second, on a
 * clock the test controls (its waits advance the clock; nothing sleeps), and an unlimited one never waits.
 */
class FlushIopsLimitTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

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
}
