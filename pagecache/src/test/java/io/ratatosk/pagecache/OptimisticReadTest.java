package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an optimistic read guarantees: whatever happens to the page under it (a writer, an eviction, its frame reused
 * for another file's page), the reads stay inside the page's part of the frame and {@code shouldRetry()} says the
 * read was torn; no torn read ever validates.
 */
class OptimisticReadTest {
    private static final int FRAME = 8192;

    @TempDir
    Path dir;
    private PageCache cache;

    @AfterEach
    void close() throws Exception {
        if (cache != null) {
            cache.close();
        }
    }

    /**
     * A reader of a 4 KiB page whose frame, mid-read, is evicted and refilled with another file's 8 KiB page: its reads
     * see the other page's bytes but never past its own page's 4 KiB (the bounds check holds on the stale frame), and
     * its {@code shouldRetry()} says so and brings its page back.
     */
    @Test
    void aReadWhoseFrameIsReusedForALargerPageStaysInItsPageAndIsRetried() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size",
            String.valueOf(FRAME), "pagecache.evictor.enabled", "false")));
        int small = FRAME / 2;
        PagedFile smallFile = cache.map(dir.resolve("small.db"), small);
        PagedFile largeFile = cache.map(dir.resolve("large.db"), FRAME);
        byte[] largePage = new byte[FRAME];
        Arrays.fill(largePage, (byte) 0x7F);
        try (PageCursor w = largeFile.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putBytes(0, largePage, 0, FRAME);
        }
        Evictions.evictPage(largeFile, 0);
        try (PageCursor w = smallFile.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            for (int i = 0; i < small / Long.BYTES; i++) {
                w.putLong(i + 1L);
            }
        }
        try (PageCursor r = smallFile.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertEquals(1, r.getLong(0));
            int frameEntry = PageCacheInternals.tableEntry(smallFile, 0);

            Evictions.evictPage(smallFile, 0);
            try (PageCursor other = largeFile.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(other.next()); // faulted into the frame just freed
            }
            assertEquals(frameEntry, PageCacheInternals.tableEntry(largeFile, 0), "the reader's frame holds the other page");

            assertEquals(0x7F7F7F7F7F7F7F7FL, r.getLong(small - Long.BYTES), "the other page's bytes, to its own page's end");
            assertFalse(r.checkAndClearBoundsFlag());
            assertEquals(0, r.getLong(small - Long.BYTES + 1), "past its own page, though the frame goes on");
            assertTrue(r.checkAndClearBoundsFlag());
            byte[] seen = new byte[small];
            r.getBytes(0, seen, 0, small);
            assertArrayEquals(Arrays.copyOf(largePage, small), seen);
            r.getBytes(1, seen, 0, small);
            assertTrue(r.checkAndClearBoundsFlag(), "a bulk read one byte past its page copies nothing");

            assertTrue(r.shouldRetry(), "the page was evicted under the read");
            assertEquals(1, r.getLong(0));
            assertEquals(small / Long.BYTES, r.getLong(small - Long.BYTES));
            assertFalse(r.shouldRetry());
        }
    }

    /**
     * Writers rewrite whole pages (a page id, a version, and a body derived from both) while readers read them with
     * relative reads and no {@code setOffset} of their own in the retry loop, and the file is four times the cache, so
     * frames are evicted and reused under the reads all along: every read that validates holds one whole version of
     * its own page.
     */
    @Test
    void noTornOrMisplacedReadEverValidatesUnderWritersAndEvictions() throws Exception {
        int frames = 16;
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(frames * FRAME),
            "pagecache.page_size", String.valueOf(FRAME))));
        PagedFile file = cache.map(dir.resolve("torn.db"), FRAME);
        int pages = frames * 4;
        for (int p = 0; p < pages; p++) {
            writePage(file, p, 0);
        }
        int writers = 2;
        int readers = 2;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong validated = new AtomicLong();
        AtomicLong retried = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                runs.add(pool.submit(() -> {
                    long version = 0;
                    while (!stop.get()) {
                        // each writer owns the pages of its residue: writers of one page are the caller's to coordinate
                        int p = ThreadLocalRandom.current().nextInt(pages / writers) * writers + writer;
                        writePage(file, p, ++version);
                    }
                    return null;
                }));
            }
            for (int r = 0; r < readers; r++) {
                runs.add(pool.submit(() -> {
                    long[] body = new long[FRAME / Long.BYTES - 2];
                    try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                        while (!stop.get()) {
                            int p = ThreadLocalRandom.current().nextInt(pages);
                            assertTrue(c.next(p));
                            long id;
                            long version;
                            int attempts = 0;
                            do {
                                attempts++;
                                id = c.getLong();
                                version = c.getLong();
                                for (int i = 0; i < body.length; i++) {
                                    body[i] = c.getLong();
                                }
                            } while (c.shouldRetry());
                            assertFalse(c.checkAndClearBoundsFlag());
                            assertEquals(p, id, "a validated read of page " + p);
                            for (int i = 0; i < body.length; i++) {
                                assertEquals(bodyWord(id, version, i), body[i], "word " + i + " of page " + p + " version " + version);
                            }
                            validated.incrementAndGet();
                            retried.addAndGet(attempts - 1);
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep(2_000); // how long they race at least
            // and on until a read validated under an eviction, however slow the machine (or until a run ended: failed)
            Waits.until(() -> validated.get() > 0 && cache.stats().evictions() > 0
                || runs.stream().anyMatch(Future::isDone), "a validated read, and an eviction under the reads");
            stop.set(true);
            for (Future<?> run : runs) {
                run.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertTrue(validated.get() > 0, "no read validated");
        assertTrue(cache.stats().evictions() > 0, "nothing was evicted under the reads");
    }

    private static long bodyWord(long pageId, long version, int i) {
        return (pageId * 0x9E3779B97F4A7C15L) ^ (version * 31 + i);
    }

    private static void writePage(PagedFile file, long pageId, long version) throws Exception {
        try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putLong(pageId);
            w.putLong(version);
            for (int i = 0; i < FRAME / Long.BYTES - 2; i++) {
                w.putLong(bodyWord(pageId, version, i));
            }
        }
    }
}
