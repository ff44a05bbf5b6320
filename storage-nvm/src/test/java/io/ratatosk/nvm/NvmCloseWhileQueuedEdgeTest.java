package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.Waits;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache closes while threads queue for the one NVM device (a swap-in each, 2 ms of injected latency): every
 * thread gets its page or a refusal (IllegalStateException, or the IOException of a page the close took away),
 * nothing else; the close returns once those in the queue are served; the device's memory is freed and every byte
 * written before is in the file.
 */
class NvmCloseWhileQueuedEdgeTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 4;
    private static final int PAGES = 32;
    private static final int THREADS = 8;

    @TempDir
    Path dir;

    @Test
    void closingWhileSwapInsQueueForTheDeviceEndsEveryOneCleanly() {
        // above the bound of its waits (Waits), however far ratatosk.test.wait_s is raised
        assertTimeoutPreemptively(Duration.ofSeconds(5 * Waits.BOUND_SECONDS), this::closeWhileQueued);
    }

    private void closeWhileQueued() throws Exception {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(FRAMES * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(2 * PAGES * PAGE));
        flags.put("pagecache.nvm.read_latency", "2ms");
        flags.put("pagecache.nvm.write_latency", "0");
        flags.put("pagecache.warmup.enabled", "false");
        Path path = dir.resolve("queued.db");
        long liveBefore = NvmDevice.liveBytes();
        PageCache cache = PageCache.open(PageCacheConfig.parse(flags));
        PagedFile file = cache.map(path, PAGE);
        for (int page = 0; page < PAGES; page++) {
            try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, page + 1);
            }
        }
        CountDownLatch started = new CountDownLatch(THREADS);
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            Thread reader = new Thread(() -> {
                started.countDown();
                try {
                    for (int i = 0; ; i++) {
                        long page = (first + 3L * i) % PAGES;
                        try (PageCursor r = file.io(page, PagedFile.PF_SHARED_READ_LOCK)) {
                            if (r.next()) {
                                long value;
                                do {
                                    value = r.getLong(0);
                                } while (r.shouldRetry());
                                assertEquals(page + 1, value, "page " + page);
                            }
                        }
                    }
                } catch (IllegalStateException | IOException refusedByTheClose) {
                    // the file was unmapped or the cache closed: the documented refusals
                } catch (Throwable t2) {
                    unexpected.set(t2);
                }
            }, "nvm-reader-" + t);
            reader.start();
            readers.add(reader);
        }
        try {
            Waits.await(started, "the readers started");
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            // readers queue for the device, each swap-in holding it 2 ms
            Waits.until(() -> tier.stats().swapIns() >= THREADS, "the readers swapped " + THREADS + " pages in");
            cache.close();
            for (Thread reader : readers) {
                Waits.join(reader, reader.getName() + " ended after the close");
            }
        } finally {
            // Where the test failed before its close, or was stopped by its timeout, the readers ran on for the rest of
            // the module's tests (spinning over the cache, the device's memory counted by those that check it freed).
            cache.close();
        }
        if (unexpected.get() != null) {
            throw new AssertionError("a reader got something other than its page or a refusal", unexpected.get());
        }
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device's memory is freed");
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.swap", "file", "pagecache.warmup.enabled", "false"));
        try (PageCache check = PageCache.open(plain); PagedFile reopened = check.map(path, PAGE, false);
             PageCursor r = reopened.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int page = 0; page < PAGES; page++) {
                assertTrue(r.next(page));
                assertEquals(page + 1, r.getLong(0), "page " + page + " in the file");
            }
        }
    }
}
