package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flushes racing writers on the same pages. {@value #WRITERS} writer threads keep rewriting a hot set of
 * {@value #HOT_PAGES} pages, each write stamping the page with its id, a new version and a body derived
 * from both ({@link PageContent}), while one thread calls {@link PagedFile#flush} and another
 * {@link PageCache#flushAndForce} in a loop. A flush that writes a page out while a writer changes it
 * must leave the page dirty; if it marked it clean, the torn or stale copy on disk would be the last.
 * Each page has one writing thread, so its last version is known exactly; at the end of a round the cache
 * is closed (which flushes), a new one opened, and every page must hold exactly its last version, intact.
 * A flush that wrongly marks a page clean loses a write only if no later write dirties the page again,
 * so the test runs several short rounds on the same file, each ending in a close and a check.
 *
 * <p>Two sizes: a cache that holds the hot set, so that only flushes write, and one that does not, so
 * that evictions write pages out too (and fault them back in under the writers).
 */
class FlushWhileWritingStressTest {
    private static final int PAGE_SIZE = 4096;
    private static final int WRITERS = 3;
    private static final int HOT_PAGES = 24;
    /** Far more than the hot set, with room for the background evictor's free frames: nothing is evicted. */
    private static final int FRAMES_HOLDING_THE_HOT_SET = 128;
    /** Less than half the hot set: most writes fault, and evictions write pages out. */
    private static final int FRAMES_TOO_FEW = 10;
    private static final int ROUNDS = 10;
    private static final long ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Progress every thread must have made before a round stops, so that flushes did overlap writes. */
    private static final long MIN_WRITES_PER_WRITER = 50;
    private static final long MIN_FLUSHES_PER_FLUSHER = 3;

    @TempDir
    Path dir;

    @Test
    void flushesRacingWritersLoseNoWriteWhenOnlyFlushesWrite() throws Exception {
        RoundTotals totals = runAndVerify(FRAMES_HOLDING_THE_HOT_SET);
        assertEquals(0, totals.evictions(), "the cache holds the hot set, so nothing should be evicted: " + totals);
        assertTrue(totals.flushedPages() > 0, "the flushers should have written pages: " + totals);
    }

    @Test
    void flushesRacingWritersLoseNoWriteWhenEvictionsWriteToo() throws Exception {
        RoundTotals totals = runAndVerify(FRAMES_TOO_FEW);
        assertTrue(totals.evictionWrites() > 0, "the hot set is larger than the cache, so evictions should write pages: " + totals);
        assertTrue(totals.flushedPages() > 0, "the flushers should have written pages: " + totals);
    }

    /**
     * Runs {@value #ROUNDS} rounds of writers and flushers on a cache of {@code frames}, each closing the
     * cache and checking every page in a new one; returns the rounds' stats added up.
     */
    private RoundTotals runAndVerify(int frames) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf((long) frames * PAGE_SIZE),
            "pagecache.page_size", String.valueOf(PAGE_SIZE)));
        Path path = dir.resolve("hot.db");
        AtomicLongArray committed = new AtomicLongArray(HOT_PAGES);
        for (int p = 0; p < HOT_PAGES; p++) {
            committed.set(p, -1);
        }
        long evictions = 0;
        long evictionWrites = 0;
        long flushedPages = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try (PageCache cache = PageCache.open(config)) {
                PagedFile file = cache.map(path, PAGE_SIZE);
                runWritersAndFlushers(cache, file, committed);
                PageCacheStats stats = cache.stats();
                evictions += stats.evictions();
                evictionWrites += stats.evictionWrites();
                flushedPages += stats.flushedPages();
                // The file stays mapped: closing the cache must flush what the racing flushes left dirty.
            }
            try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE_SIZE, false)) {
                verify(file, committed, round);
            }
        }
        return new RoundTotals(evictions, evictionWrites, flushedPages);
    }

    /** What the assertions need of the rounds' stats, added up. */
    private record RoundTotals(long evictions, long evictionWrites, long flushedPages) {
    }

    private static void runWritersAndFlushers(PageCache cache, PagedFile file, AtomicLongArray committed) throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder[] writes = new LongAdder[WRITERS];
        LongAdder fileFlushes = new LongAdder();
        LongAdder cacheFlushes = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writes[w] = new LongAdder();
            threads.add(new Thread(reportingFailures(failures, stop, () -> write(file, writer, committed, stop, writes[writer])),
                "writer-" + w));
        }
        threads.add(new Thread(reportingFailures(failures, stop, () -> {
            while (!stop.get()) {
                file.flush();
                fileFlushes.increment();
            }
        }), "file-flusher"));
        threads.add(new Thread(reportingFailures(failures, stop, () -> {
            while (!stop.get()) {
                cache.flushAndForce();
                cacheFlushes.increment();
            }
        }), "cache-flusher"));

        threads.forEach(t -> t.setDaemon(true)); // one stuck in the cache must not keep the test JVM alive
        threads.forEach(Thread::start);
        long start = System.nanoTime();
        long giveUp = start + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
        try {
            while (failures.isEmpty() && System.nanoTime() < giveUp
                && (System.nanoTime() - start < ROUND_NANOS || !enoughProgress(writes, fileFlushes, cacheFlushes))) {
                Thread.sleep(20);
            }
        } finally {
            stop.set(true);
            for (Thread thread : threads) {
                Waits.join(thread, thread.getName() + " stopped"); // stuck in the cache: fail, not hang
            }
        }
        assertEquals(List.of(), new ArrayList<>(failures));
        assertTrue(enoughProgress(writes, fileFlushes, cacheFlushes), "too little progress for flushes to have raced writes: writes "
            + List.of(writes) + ", file flushes " + fileFlushes + ", cache flushes " + cacheFlushes);
    }

    private static boolean enoughProgress(LongAdder[] writes, LongAdder fileFlushes, LongAdder cacheFlushes) {
        for (LongAdder w : writes) {
            if (w.sum() < MIN_WRITES_PER_WRITER) {
                return false;
            }
        }
        return fileFlushes.sum() >= MIN_FLUSHES_PER_FLUSHER && cacheFlushes.sum() >= MIN_FLUSHES_PER_FLUSHER;
    }

    /**
     * Rewrites random pages the writer owns (those with {@code page % WRITERS == writer}) until stopped.
     * Before each write it checks, under the write lock, that the page still holds the version it last
     * wrote: an eviction or a fault that lost or tore it shows here already.
     */
    private static void write(PagedFile file, int writer, AtomicLongArray committed, AtomicBoolean stop, LongAdder writes)
        throws IOException {
        SplittableRandom random = new SplittableRandom(writer * 131L + 17);
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        int ownedPages = HOT_PAGES / WRITERS;
        while (!stop.get()) {
            long pageId = (long) random.nextInt(ownedPages) * WRITERS + writer;
            long last = committed.get((int) pageId);
            try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                if (!c.next()) {
                    throw new AssertionError("a write cursor could not move to page " + pageId);
                }
                long seen = PageContent.check(pageId, c.getLong(PageContent.PAGE_ID_OFFSET), c.getLong(PageContent.VERSION_OFFSET),
                    readBody(c, body));
                if (seen != last) {
                    throw new AssertionError("page " + pageId + " holds version " + seen + " but version " + last + " was written last");
                }
                PageContent.write(c, pageId, last + 1);
            }
            committed.set((int) pageId, last + 1);
            writes.increment();
        }
    }

    private static long[] readBody(PageCursor c, long[] body) {
        for (int i = 0; i < body.length; i++) {
            body[i] = c.getLong(PageContent.BODY_OFFSET + i * Long.BYTES);
        }
        return body;
    }

    /** Every hot page holds exactly its last written version, intact. */
    private static void verify(PagedFile file, AtomicLongArray committed, int round) throws IOException {
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < HOT_PAGES; p++) {
                long expected = committed.get(p);
                if (p > file.getLastPageId()) {
                    assertEquals(-1, expected, "page " + p + " was written but is past the end of the file after round " + round);
                    continue;
                }
                assertTrue(c.next(p));
                assertEquals(expected, PageContent.readValidated(c, p, body), "version of page " + p + " after round " + round);
            }
        }
    }

    /** Something a thread does; it may throw anything. */
    private interface Work {
        void run() throws Exception;
    }

    /** The work, with anything it throws added to {@code failures} and every other thread told to stop. */
    private static Runnable reportingFailures(Queue<String> failures, AtomicBoolean stop, Work work) {
        return () -> {
            try {
                work.run();
            } catch (Throwable t) {
                StringWriter trace = new StringWriter();
                t.printStackTrace(new PrintWriter(trace));
                failures.add(Thread.currentThread().getName() + " failed: " + trace);
                stop.set(true);
            }
        };
    }
}
