package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counts cursors keep in {@code CursorCounts} (d9ab899), through the public API under many threads: every pin is
 * published as one hit or fault, whichever thread closes the cursor and however many pins it made (past the batch of
 * 1024 too), and the open count balances, so the memory is freed at close.
 */
class CursorCountsUnderLoadTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 64;

    @TempDir
    Path dir;

    @Test
    void everyPinOfManyThreadsIsCountedOnceAndEveryCursorClosesItsCount() throws Exception {
        // Room for every page and no background evictor: nothing is evicted, so each successful next() is exactly one
        // hit or one fault (a page evicted under a read would be faulted in again by its retry, and counted again).
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k",
            "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false"));
        PageCache cache = PageCache.open(config);
        PagedFile file = cache.map(dir.resolve("counts.db"), PAGE);
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (long p = 0; p < PAGES; p++) {
                assertTrue(c.next(p));
                c.putLong(0, p);
            }
        }
        long before = cache.stats().hits() + cache.stats().faults();
        int threads = 12;
        AtomicLong pins = new AtomicLong();
        BlockingQueue<PageCursor> handedOver = new ArrayBlockingQueue<>(256);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(me);
                try {
                    start.await();
                    try (PageCursor scan = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                        for (int i = 0; i < 2_500; i++) { // past the 1024 a cursor counts before it publishes
                            assertTrue(scan.next(random.nextInt(PAGES)));
                            pins.incrementAndGet();
                        }
                    }
                    for (int i = 0; i < 2_000; i++) {
                        long page = random.nextInt(PAGES);
                        PageCursor c = file.io(page, PagedFile.PF_SHARED_READ_LOCK);
                        assertTrue(c.next());
                        pins.incrementAndGet();
                        long value;
                        do {
                            value = c.getLong(0);
                        } while (c.shouldRetry());
                        assertEquals(page, value);
                        if (i % 4 == 0 && handedOver.offer(c)) {
                            // closed by whichever thread polls it
                        } else {
                            c.close();
                        }
                        PageCursor other = handedOver.poll();
                        if (other != null) {
                            other.close();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers[t].setDaemon(true); // a thread left waiting fails the test below, and must not keep the JVM alive
            workers[t].start();
        }
        start.countDown();
        for (Thread worker : workers) {
            Waits.join(worker, worker.getName() + " finished"); // fails with its stack, within ratatosk.test.wait_s
        }
        assertNull(failure.get(), () -> String.valueOf(failure.get()));
        for (PageCursor left; (left = handedOver.poll()) != null; ) {
            left.close();
        }
        assertEquals(0, cache.openCursors());
        PageCacheStats stats = cache.stats();
        assertEquals(pins.get(), stats.hits() + stats.faults() - before, stats.toString());
        file.close();
        cache.close();
        assertTrue(cache.isMemoryReleased());
    }
}
