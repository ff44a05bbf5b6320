package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swapper that throws on write while the background evictor evicts dirty pages: the pages stay dirty
 * and resident, the error reaches the next map, fault or flush, the evictor keeps running, and once
 * the disk recovers a flush writes every byte.
 */
class EvictionWriteFailureTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 64;

    @TempDir
    Path dir;

    @Test
    void failedBackgroundEvictionKeepsPagesDirtyReportsTheErrorAndRecovers() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.policy", "global-clock",
            "pagecache.evictor.keep_free", "16"));
        Path path = dir.resolve("faulty.db");
        int dirtyPages = FRAMES - 16; // fill the frames that are not kept free with dirty pages
        try (PageCache cache = PageCache.open(config, swappers)) {
            PagedFile file = cache.map(path, PAGE);
            swappers.failWrites = true;
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < dirtyPages; p++) {
                    assertTrue(w.next());
                    PageContent.write(w, p, 1);
                }
            }
            // Fault more pages in: the free pool drops below keep_free, the evictor wakes and tries to
            // write the dirty pages out, and the disk refuses.
            IOException reported = faultUntilAnErrorIsReported(file, dirtyPages);
            assertTrue(reported.getMessage().contains("stays dirty"), reported.getMessage());
            // The evictor may not have run yet if a fault met the failure first (a loaded machine): it runs
            // every 10 ms with fewer than keep_free frames free, so it meets the failure soon.
            long evictorDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (swappers.failedWritesOnEvictorThread.get() == 0 && System.nanoTime() < evictorDeadline) {
                Thread.sleep(5);
            }
            assertTrue(swappers.failedWritesOnEvictorThread.get() > 0, "the background evictor met the failure");
            assertTrue(cache.stats().evictionErrors() > 0, cache.stats().toString());

            // Every page written is still in the cache, intact, although none reached the file.
            assertEquals(0, pagesOnDisk(path), "nothing could be written");
            long[] body = new long[PageContent.bodyWords(PAGE)];
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = 0; p < dirtyPages; p++) {
                    assertTrue(r.next(p));
                    assertEquals(1, PageContent.readValidated(r, p, body), "page " + p);
                }
            }

            swappers.failWrites = false;
            // The evictor is still alive: with the disk back it refills the free pool by itself.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            long before = cache.stats().backgroundEvictions();
            while (cache.stats().backgroundEvictions() == before && System.nanoTime() < deadline) {
                try {
                    faultOne(file, dirtyPages + 100 + (int) (System.nanoTime() % 50));
                } catch (IOException queuedFromTheFailingPeriod) {
                    // Evictions that failed before the disk came back are reported once, to the next fault.
                    assertTrue(queuedFromTheFailingPeriod.getMessage().contains("stays dirty"),
                        queuedFromTheFailingPeriod.getMessage());
                }
            }
            assertTrue(cache.stats().backgroundEvictions() > before, "the evictor evicts again once writes succeed");
            // A pending error may still be queued from the failing period: it is reported once, then flush works.
            try {
                file.flush();
            } catch (IOException stillPending) {
                assertTrue(stillPending.getMessage().contains("stays dirty"), stillPending.getMessage());
                file.flush();
            }
            file.close();
        }
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE, false)) {
            long[] body = new long[PageContent.bodyWords(PAGE)];
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = 0; p < dirtyPages; p++) {
                    assertTrue(r.next(p));
                    assertEquals(1, PageContent.readValidated(r, p, body), "page " + p + " after recovery and reopen");
                }
            }
        }
    }

    private static IOException faultUntilAnErrorIsReported(PagedFile file, int firstPage) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        int page = firstPage;
        while (System.nanoTime() < deadline) {
            try {
                faultOne(file, page++);
            } catch (IOException e) {
                return e;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no fault reported the failed evictions within a minute");
    }

    private static void faultOne(PagedFile file, int pageId) throws IOException {
        try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            if (w.next()) {
                w.putLong(0, 0); // keeps the page, so later reads see a real page
            }
        }
    }

    private static long pagesOnDisk(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path)) {
            ByteBuffer b = ByteBuffer.allocate(8);
            long pages = 0;
            for (long off = 0; off < ch.size(); off += PAGE) {
                b.clear();
                ch.read(b, off + PageContent.VERSION_OFFSET);
                if (b.getLong(0) != 0) {
                    pages++;
                }
            }
            return pages;
        }
    }

    @Test
    void flushReportsAWriteFailureAndLeavesThePageDirtyForTheNextFlush() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.evictor.enabled", "false"));
        Path path = dir.resolve("flush.db");
        try (PageCache cache = PageCache.open(config, swappers); PagedFile file = cache.map(path, 8192)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, 77);
            }
            swappers.failWrites = true;
            IOException e = assertThrows(IOException.class, file::flush);
            assertTrue(e.getMessage().contains("injected"), e.getMessage());
            assertTrue(e.getMessage().contains(path.toString()), "names the file: " + e.getMessage());
            IOException onClose = assertThrows(IOException.class, file::close);
            assertTrue(onClose.getMessage().contains(path.toString()), "names the file: " + onClose.getMessage());
            swappers.failWrites = false;
            file.flush();
            assertEquals(1, cache.stats().flushedPages());
        }
        try (FileChannel ch = FileChannel.open(path)) {
            ByteBuffer b = ByteBuffer.allocate(8);
            ch.read(b, 0);
            assertEquals(77, b.order(java.nio.ByteOrder.nativeOrder()).getLong(0));
        }
    }

    /**
     * A force that fails comes after the flush wrote the pages and marked them clean: they are not dirty in the cache any
     * more, and the next flush does not write them again. The message said "its dirty pages stay in the cache", which a
     * store could take for a promise that a retried flush makes them durable; it now says what is so. (The next flush
     * and the close throw too: a failed force sticks, see StickyForceFailureTest.)
     */
    @Test
    void aFailedForceSaysItsPagesAreNoLongerDirtyInsteadOfThatTheyStay() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false"));
        Path path = dir.resolve("force.db");
        try (PageCache cache = PageCache.open(config, swappers)) {
            PagedFile file = cache.map(path, 8192);
            for (int p = 0; p < 4; p++) {
                try (PageCursor w = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(w.next());
                    w.putLong(0, 77 + p);
                }
            }
            swappers.failForces = true;
            IOException e = assertThrows(IOException.class, file::flush);
            String message = e.getMessage();
            assertTrue(message.contains("forcing " + path) && message.contains("injected force failure"), message);
            assertTrue(message.contains("no longer dirty") && !message.contains("stay in the cache"), message);
            for (int p = 0; p < 4; p++) {
                int frame = PageCacheInternals.tableEntry(file, p) - 1;
                assertFalse(PageCacheInternals.frames(cache).isModified(frame), "page " + p + " was written, so clean");
            }
            swappers.failForces = false;
            long flushed = cache.stats().flushedPages();
            assertThrows(IOException.class, file::flush);
            assertEquals(flushed, cache.stats().flushedPages(), "as the message says, the next flush writes none of them");
            assertThrows(IOException.class, file::close);
        }
    }

    /**
     * A disk that keeps refusing while no fault or flush comes to take the pending error: the background evictor tries
     * again every millisecond or so and each failure was added to the pending error as a suppressed exception, without
     * bound (thousands a second, each with its cause and stack trace: an idle cache with a dead disk ran out of heap).
     * Now a bounded number are kept, and the error says how many more there were.
     */
    @Test
    void theEvictorsFailuresOnADiskThatKeepsRefusingAreKeptBounded() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.policy", "global-clock",
            "pagecache.evictor.keep_free", "16",
            "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config, swappers); PagedFile file = cache.map(dir.resolve("dead-disk.db"), PAGE)) {
            swappers.failWrites = true;
            // Dirty pages until a write's fault finds every frame dirty and its eviction fails: from then on every
            // eviction the evictor tries fails.
            assertThrows(IOException.class, () -> {
                for (int p = 0; ; p++) {
                    faultOne(file, p);
                }
            });
            long enough = cache.stats().evictionErrors() + 4L * EvictionEngine.MAX_KEPT_PENDING_ERRORS;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (cache.stats().evictionErrors() < enough && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(cache.stats().evictionErrors() >= enough, cache.stats().toString());
            IOException pending = assertThrows(IOException.class, file::flush);
            assertTrue(pending.getMessage().contains("stays dirty"), pending.getMessage());
            Throwable[] kept = pending.getSuppressed();
            assertTrue(kept.length <= EvictionEngine.MAX_KEPT_PENDING_ERRORS + 1, kept.length + " failures kept");
            assertTrue(kept[kept.length - 1].getMessage().contains("more failures"), kept[kept.length - 1].getMessage());
            swappers.failWrites = false;
            swappers.retryFailuresOfTheFailingPeriod(file::flush);
        }
    }

    /**
     * A background sweep's failed write-out is pending when flushAndForce begins: it was thrown by the flush of whichever
     * file came first, before that file was flushed, so one file's dirty pages were left unwritten and unforced while the
     * error spoke of another file's eviction. Now it is taken once for the whole call, every file is flushed, and then it
     * is thrown.
     */
    @Test
    void flushAndForceFlushesEveryFileThoughAnEvictionErrorIsPending() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false"));
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        int bPages = 4;
        try (FileChannel ch = FileChannel.open(b, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1), (long) FRAMES * PAGE - 1); // pages on disk past the dirty ones, to read ahead
        }
        try (PageCache cache = PageCache.open(config, swappers); PagedFile fa = cache.map(a, PAGE); PagedFile fb = cache.map(b, PAGE)) {
            // Every frame dirty: a's pages and b's first pages.
            writePages(fa, FRAMES - bPages);
            writePages(fb, bPages);
            swappers.failWrites = true;
            // A read-ahead past b's dirty pages needs frames: its background sweep fails to write one out, and leaves the
            // error pending, thrown to no one.
            try (PageCursor r = fb.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (cache.stats().evictionErrors() == 0 && System.nanoTime() < deadline) {
                    for (int p = 0; p < bPages; p++) {
                        assertTrue(r.next(p));
                    }
                    Thread.sleep(1);
                }
            }
            assertTrue(cache.stats().evictionErrors() > 0, cache.stats().toString());
            swappers.failWrites = false;
            IOException pending = assertThrows(IOException.class, cache::flushAndForce);
            assertTrue(pending.getMessage().contains("stays dirty"), pending.getMessage());
            assertEquals(FRAMES - bPages, pagesOnDisk(a), "every dirty page of a was flushed: " + pending);
            assertEquals(bPages, pagesOnDisk(b), "every dirty page of b was flushed: " + pending);
        }
    }

    private static void writePages(PagedFile file, int pages) throws IOException {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (int p = 0; p < pages; p++) {
                assertTrue(w.next(p));
                PageContent.write(w, p, 1);
            }
        }
    }
}
