package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PagedFile.truncate: pages leave the cache and the file, never to be written back; refusal changes nothing. */
class TruncateTest {
    private static final int PAGE = 4096;
    /** The cache of the tests of a cut whose last page cannot be written: 1m, no evictor to write pages behind them. */
    private static final PageCacheConfig CUT_CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false"));

    @TempDir
    Path dir;
    /** The file the tests truncate. */
    private Path path;
    private PageCache cache;
    /** While set, the swapper of {@link #mapFailingWrites} refuses every write. */
    private final AtomicBoolean failWrites = new AtomicBoolean();

    @BeforeEach
    void namePath() {
        path = dir.resolve("truncate.db");
    }

    @AfterEach
    void close() throws Exception {
        if (cache != null) {
            cache.close();
        }
    }

    private PagedFile open(String memory, boolean evictor) throws IOException {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", memory, "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", String.valueOf(evictor))));
        return cache.map(path, PAGE);
    }

    /** Maps the file in a cache of {@link #CUT_CONFIG} whose writes fail while {@link #failWrites} is set. */
    private PagedFile mapFailingWrites() throws IOException {
        return mapCut(SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void write(long pageId, long address) throws IOException {
                if (failWrites.get()) {
                    throw new IOException("injected: the write failed");
                }
                super.write(pageId, address);
            }
        }));
    }

    /** Maps the file in a cache of {@link #CUT_CONFIG} with {@code swappers}. */
    private PagedFile mapCut(PageSwapperFactory swappers) throws IOException {
        cache = PageCache.open(CUT_CONFIG, swappers);
        return cache.map(path, PAGE);
    }

    private static void writePages(PagedFile file, int from, int to, long value) throws IOException {
        try (PageCursor w = file.io(from, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (int p = from; p < to; p++) {
                assertTrue(w.next());
                w.putLong(0, value + p);
            }
        }
    }

    @Test
    void truncatedPagesLeaveTheCacheAndTheFileAndReadCursorsStopAtTheNewEnd() throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 10, 100);
        file.flush();
        writePages(file, 0, 10, 200); // dirty again: the pages past the end must not be written back
        assertEquals(10, file.numberOfCachedPages());
        file.truncate(4);
        assertEquals(3, file.getLastPageId());
        assertEquals(4, file.numberOfCachedPages());
        assertEquals(4L * PAGE, Files.size(path));
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertFalse(r.next(4));
            assertFalse(r.next(9));
            assertTrue(r.next(3));
            assertEquals(203, readLong(r));
            assertFalse(r.next(), "page 4 is past the end");
        }
        file.flush();
        cache.close();
        assertEquals(4L * PAGE, Files.size(path), "neither flush nor close wrote a dropped page");
        file = open("1m", false);
        assertEquals(3, file.getLastPageId());
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < 4; p++) {
                assertTrue(r.next());
                assertEquals(200 + p, readLong(r), "the pages kept keep their last write");
            }
        }
    }

    /**
     * A write past the file's end on disk, then a cut between that end and the write: the pages left between were
     * holes nothing would write (only the cut page was dirty), so the file stayed at its old end while
     * getLastPageId() said otherwise, and a flush, a close or a map found it shorter.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCutBetweenTheEndOnDiskAndAnUnflushedWriteLeavesTheFileAtTheCut(boolean holeResident) throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 2, 1);
        file.flush(); // the file on disk: 2 pages
        writePages(file, 9, 10, 1); // the cache's: 10, pages 2 to 8 holes
        if (holeResident) {
            try (PageCursor r = file.io(3, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next()); // the last page left, read in (zeros, clean)
            }
        }
        file.truncate(4);
        assertEquals(3, file.getLastPageId());
        file.flush();
        assertEquals(4L * PAGE, Files.size(path));
        cache.close();
        file = open("1m", false);
        assertEquals(3, file.getLastPageId(), "the end the cache reported before the close");
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < 4; p++) {
                assertTrue(r.next());
                assertEquals(p < 2 ? 1 + p : 0, readLong(r));
            }
            assertFalse(r.next());
        }
    }

    /**
     * The cut's last page is dirty in a frame, past the file's end on disk, and an eviction (the background evictor's,
     * or a fault's of another file: evictions do not wait for the file's gate) writes it out just as the truncate looks
     * at the file's length. The truncate read the length first (too short), then found the page's entry gone, and
     * wrote a zero page over the page the eviction had just written: the page's data was lost. Here the eviction runs
     * inside the truncate's first look at the length, after the length was taken.
     */
    @Test
    void anEvictionWritingTheCutsLastPageAsTheTruncateLooksAtTheFileLosesNothing() throws Exception {
        Path path = dir.resolve("evicted-last.db");
        AtomicBoolean evictAtNextLength = new AtomicBoolean();
        PagedFile[] mapped = new PagedFile[1];
        Throwable[] evictionFailed = new Throwable[1];
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", String.valueOf(PAGE),
                "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public long pageCount() throws IOException {
                    long pages = super.pageCount();
                    if (evictAtNextLength.compareAndSet(true, false)) {
                        evictionFailed[0] = Evictions.evictPageOnAnotherThread(mapped[0], 4);
                    }
                    return pages; // as it was before the eviction wrote the page
                }
            }));
        PagedFile file = cache.map(path, PAGE);
        mapped[0] = file;
        writePages(file, 0, 2, 100);
        file.flush(); // the file on disk: 2 pages
        writePages(file, 4, 5, 100); // dirty in a frame, past the end on disk
        writePages(file, 9, 10, 100); // the cache's end: 10 pages
        evictAtNextLength.set(true);
        file.truncate(5);
        assertFalse(evictAtNextLength.get(), "the truncate looked at the file's length");
        if (evictionFailed[0] != null) {
            throw new AssertionError("the eviction failed", evictionFailed[0]);
        }
        assertEquals(TranslationTable.ABSENT, file.table().get(4), "page 4 was evicted");
        try (PageCursor r = file.io(4, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertEquals(104, readLong(r), "page 4 as written before the cut, which kept it");
        }
        file.flush();
        assertEquals(5L * PAGE, Files.size(path));
    }

    @Test
    void aWriteCursorCanGrowTheFileAgainAndReadsZerosWhereTruncatedPagesWere() throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 6, 1);
        file.truncate(2);
        try (PageCursor w = file.io(5, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            assertEquals(0, w.getLong(0), "a new page where a truncated one was");
        }
        assertEquals(5, file.getLastPageId());
        try (PageCursor r = file.io(3, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertEquals(0, readLong(r));
        }
    }

    @Test
    void truncateIsRefusedWhileAWriteCursorHoldsAPageAtOrPastTheNewEndAndThenChangesNothing() throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 8, 10);
        try (PageCursor w = file.io(6, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> file.truncate(3));
            assertTrue(e.getMessage().contains("page 6") && e.getMessage().contains("write cursor"), e.getMessage());
            assertEquals(7, file.getLastPageId());
            assertEquals(8, file.numberOfCachedPages());
            file.truncate(7); // a write cursor before the new end does not stop it
            assertEquals(6, file.getLastPageId());
        }
        try (PageCursor r = file.io(5, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertEquals(15, readLong(r), "pages before the refused end kept their content");
        }
    }

    /**
     * A truncate whose cut of the file fails leaves the cache as it was. It once dropped the pages past the cut first
     * (dirty ones unwritten) and lowered the end: the file on disk still held their older bytes there, and a write
     * cursor growing the file again read those back (page 6's first version, its second lost), a read cursor found
     * nothing. Now the end and every page stay, dirty ones are written by the next flush, and the cut can be retried.
     */
    @Test
    void aTruncateWhoseCutOfTheFileFailsLeavesTheCacheAsItWas() throws Exception {
        AtomicBoolean failCut = new AtomicBoolean(true);
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void truncate(long pageCount) throws IOException {
                    if (failCut.get()) {
                        throw new IOException("injected: the cut failed");
                    }
                    super.truncate(pageCount);
                }
            }));
        PagedFile file = cache.map(path, PAGE);
        writePages(file, 0, 8, 100);
        file.flush(); // the file on disk holds the first version of every page
        writePages(file, 4, 8, 200); // pages 4 to 7 dirty with a second
        IOException e = assertThrows(IOException.class, () -> file.truncate(2));
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next(6));
            assertEquals(206, w.getLong(0), "the page's last write, neither the file's older bytes nor zeros");
        }
        assertEquals(7, file.getLastPageId(), "the end is where it was");
        for (int p = 4; p < 8; p++) {
            assertTrue(file.table().get(p) > 0, "dirty page " + p + " is still in the cache");
        }
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next(2));
            assertEquals(102, readLong(r), "a clean page past the cut, read back from the file");
        }
        assertTrue(e.getMessage().contains("truncate.db") && e.getMessage().contains("nothing changed"), e.getMessage());
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next(5));
            assertEquals(205, readLong(r));
        }
        file.flush();
        assertEquals(8L * PAGE, Files.size(path));
        failCut.set(false);
        file.truncate(2); // retried, it cuts
        assertEquals(1, file.getLastPageId());
        assertEquals(2L * PAGE, Files.size(path));
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next(6));
            assertEquals(0, w.getLong(0), "a new page where a truncated one was");
        }
    }

    /**
     * A cut below the cache's end, past the file's end on disk, whose write of the new last page (a zero page: nothing
     * else would write it) fails: the truncate throws, saying the file may end before that page until a flush or the
     * close writes it. The cache's end is the cut's for the rest of the mapping, and every flush writes the page first:
     * while it cannot, the flush fails saying so; once it can, the file ends there, as the cache said. (A flush once
     * returned normally with the file still shorter, and mapped again the file ended at its last page written before
     * the cut. The lifecycle model test once took such a cut's end for the file's floor across a close, and failed on a
     * file mapped again as empty: CI at c8da2d6, master seed -1234018449097678014, scenario 3.)
     */
    @Test
    void aCutWhoseNewLastPageCannotBeWrittenIsWrittenByTheNextFlushWhichFailsWhileItCannot() throws Exception {
        PagedFile file = mapFailingWrites();
        cutWhoseLastPageCannotBeWritten(file);
        IOException e = assertThrows(IOException.class, file::flush, "a flush while the page cannot be written");
        assertTrue(e.getMessage().contains("truncate.db") && e.getMessage().contains("last page 20"), e.getMessage());
        failWrites.set(false);
        file.flush();
        assertEquals(21L * PAGE, Files.size(path), "the file ends at the cut, as the cache says, once a flush returned");
        cache.close();
        assertFileIsTheCut();
    }

    /**
     * As above, then a truncate to no page at all, which cuts the unwritten page off, and a write growing the file past
     * it again: a flush while writes fail reported 'a truncate left its last page 20 unwritten' (the cut to 0 pages had
     * not cleared it), blaming a truncate whose page no longer mattered; it must name the flush's own failure.
     */
    @Test
    void aCutToNoPageForgetsTheLastPageAnEarlierCutLeftUnwritten() throws Exception {
        PagedFile file = mapFailingWrites();
        cutWhoseLastPageCannotBeWritten(file);
        file.truncate(0); // nothing to write: a cut to 0 pages keeps no page
        assertEquals(-1, file.getLastPageId());
        writePages(file, 30, 31, 7);
        IOException e = assertThrows(IOException.class, file::flush, "a flush while writes fail");
        assertFalse(e.getMessage().contains("last page 20"), e.getMessage());
        failWrites.set(false);
        file.flush();
        assertEquals(31L * PAGE, Files.size(path));
    }

    /**
     * As above, where only the cut's last page cannot be written (a bad block): a flush first tried that page and, when
     * it failed, wrote none of the file's dirty pages, although they do not wait on it. Now it writes them, then fails
     * for the page, which the next flush tries again.
     */
    @Test
    void aFlushThatCannotWriteTheCutsLastPageStillWritesTheDirtyPages() throws Exception {
        long badPage = 20;
        AtomicBoolean badBlock = new AtomicBoolean();
        PagedFile file = mapCut(SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void write(long pageId, long address) throws IOException {
                if (badBlock.get() && pageId == badPage) {
                    throw new IOException("injected: a bad block at page " + pageId);
                }
                super.write(pageId, address);
            }
        }));
        writePages(file, 0, 2, 1);
        file.flush(); // the file on disk: 2 pages
        writePages(file, 22, 27, 1);
        badBlock.set(true);
        assertThrows(IOException.class, () -> file.truncate(21));
        writePages(file, 5, 6, 500); // dirty, and no neighbour of the bad page
        IOException e = assertThrows(IOException.class, file::flush, "a flush while the cut's last page cannot be written");
        assertTrue(e.getMessage().contains("last page 20"), e.getMessage());
        ByteBuffer buf = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.read(buf, 5L * PAGE);
        }
        assertEquals(505, buf.getLong(0), "page 5, dirty, was written by the flush that could not write page 20");
        badBlock.set(false);
        file.flush();
        assertEquals(21L * PAGE, Files.size(path));
    }

    /** As above, with no flush: the close writes the page the truncate could not. */
    @Test
    void aCutWhoseNewLastPageCannotBeWrittenIsWrittenByTheClose() throws Exception {
        PagedFile file = mapFailingWrites();
        cutWhoseLastPageCannotBeWritten(file);
        assertThrows(IOException.class, file::close, "a close while the page cannot be written");
        failWrites.set(false);
        file.close();
        cache.close();
        assertFileIsTheCut();
    }

    /**
     * As above, where keeping the new last page fails with an Error (the zero page's native memory could not be
     * allocated, a swapper's AssertionError): the truncate left no page to write, so the next flush, with writes working,
     * returned normally with the file 2 pages long, shorter than the cut's 21, and mapped again it ended at page 1.
     */
    @Test
    void aCutWhoseNewLastPageFailsWithAnErrorIsWrittenByTheNextFlush() throws Exception {
        PagedFile file = mapCut(SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void write(long pageId, long address) throws IOException {
                if (failWrites.get()) {
                    throw new OutOfMemoryError("injected: no native memory for the write");
                }
                super.write(pageId, address);
            }
        }));
        writePages(file, 0, 2, 1);
        file.flush(); // the file on disk: 2 pages
        writePages(file, 22, 27, 1);
        failWrites.set(true);
        assertThrows(OutOfMemoryError.class, () -> file.truncate(21));
        assertEquals(20, file.getLastPageId(), "the cut's end, for the rest of the mapping");
        failWrites.set(false);
        file.flush();
        assertEquals(21L * PAGE, Files.size(path), "the file ends at the cut, as the cache says, once a flush returned");
        cache.close();
        assertFileIsTheCut();
    }

    /**
     * The flush that writes the page a failed truncate left unwritten races a write cursor's write and flush of that
     * page: the zero page never goes over the write. A flush claims the absent page as a fault does (its entry
     * FAULTING), so the write cursor's fault waits for it, and it writes nothing over a page resident or written.
     */
    @Test
    void theLastPageAFlushWritesForAFailedTruncateNeverGoesOverAWriteOfIt() throws Exception {
        PagedFile file = mapFailingWrites();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (java.nio.channels.FileChannel disk = java.nio.channels.FileChannel.open(path)) {
            for (int round = 0; round < 100; round++) {
                file.truncate(2); // the disk: 2 pages
                writePages(file, 22, 27, 1);
                failWrites.set(true);
                assertThrows(IOException.class, () -> file.truncate(21));
                failWrites.set(false);
                long value = 1000 + round;
                CountDownLatch start = new CountDownLatch(1);
                Future<?> flusher = pool.submit(() -> {
                    start.await();
                    file.flush();
                    return null;
                });
                Future<?> writer = pool.submit(() -> {
                    start.await();
                    writePages(file, 20, 21, value - 20);
                    file.flush();
                    return null;
                });
                start.countDown();
                flusher.get(1, TimeUnit.MINUTES);
                writer.get(1, TimeUnit.MINUTES);
                java.nio.ByteBuffer page = java.nio.ByteBuffer.allocate(Long.BYTES).order(java.nio.ByteOrder.nativeOrder());
                disk.read(page, 20L * PAGE);
                assertEquals(value, page.getLong(0), "page 20 on disk, round " + round);
                assertEquals(21L * PAGE, disk.size(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Pages 0 and 1 on disk, 22 to 26 dirty in the cache, then a cut to 21 pages whose page 20 cannot be written. */
    private void cutWhoseLastPageCannotBeWritten(PagedFile file) throws IOException {
        writePages(file, 0, 2, 1);
        file.flush(); // the file on disk: 2 pages
        writePages(file, 22, 27, 1); // the cache's: 27, pages 2 to 21 holes, 22 to 26 dirty
        failWrites.set(true);
        IOException e = assertThrows(IOException.class, () -> file.truncate(21));
        assertTrue(e.getMessage().contains("truncate.db") && e.getMessage().contains("may end before page 20"), e.getMessage());
        assertEquals(20, file.getLastPageId(), "the cut's end, for the rest of the mapping");
    }

    /** Mapped again, the file ends at page 20: pages 0 and 1 as written, zeros after. */
    private void assertFileIsTheCut() throws IOException {
        cache = PageCache.open(CUT_CONFIG);
        PagedFile again = cache.map(path, PAGE);
        assertEquals(20, again.getLastPageId(), "the cut's end; the cut pages were never written");
        try (PageCursor r = again.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < 21; p++) {
                assertTrue(r.next());
                assertEquals(p < 2 ? 1 + p : 0, readLong(r), "page " + p);
            }
            assertFalse(r.next());
        }
    }

    /**
     * While a truncate cuts the file, only the dirty pages past the cut are held in their frames: the clean ones are
     * dropped first (the file holds their content, should the cut fail). Every page past the cut once stayed locked
     * for the whole cut, so in a cache full of them a fault of another file found every frame pinned and waited, for
     * as long as the cut took (NoEvictableFrameException after 2 s).
     */
    @Test
    void aTruncateFreesTheFramesOfCleanPagesWhileItCutsTheFile() throws Exception {
        int frames = 16;
        CountDownLatch cutting = new CountDownLatch(1);
        CountDownLatch letCut = new CountDownLatch(1);
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(frames * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void truncate(long pageCount) throws IOException {
                    cutting.countDown();
                    try {
                        assertTrue(letCut.await(1, TimeUnit.MINUTES));
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    super.truncate(pageCount);
                }
            }));
        PagedFile file = cache.map(path, PAGE);
        PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
        writePages(file, 0, frames, 100);
        file.flush(); // every frame holds a clean page of the file
        assertEquals(frames, file.numberOfCachedPages());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> truncate = pool.submit(() -> {
                file.truncate(0);
                return null;
            });
            assertTrue(cutting.await(1, TimeUnit.MINUTES));
            writePages(other, 0, 1, 7); // a fault while the cut runs: a frame is free
            letCut.countDown();
            truncate.get(1, TimeUnit.MINUTES);
        } finally {
            letCut.countDown();
            pool.shutdown();
        }
        assertEquals(-1, file.getLastPageId());
        assertEquals(0, file.numberOfCachedPages());
    }

    @Test
    void truncateValidatesItsArgumentAndRefusesAnUnmappedFile() throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 3, 0);
        assertThrows(IllegalArgumentException.class, () -> file.truncate(-1));
        file.truncate(10);
        assertEquals(2, file.getLastPageId(), "a count past the end changes nothing");
        file.truncate(0);
        assertEquals(-1, file.getLastPageId());
        assertEquals(0, file.numberOfCachedPages());
        file.close();
        assertThrows(IllegalStateException.class, () -> file.truncate(0));
    }

    /**
     * A prefetch (the warm-up's reheat, the NVM tier's prefetcher) of a page a truncate cut off binds nothing: a
     * reheat queued at the map and run after a truncate once made the cut pages resident, and next(id) past the
     * new end returned true.
     */
    @Test
    void aPrefetchPastTheEndAfterATruncateBindsNothing() throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 10, 400);
        file.flush();
        file.truncate(2);
        for (long p = 2; p < 12; p++) {
            assertFalse(file.mapping().prefetch(p), "prefetch of page " + p + " past the end");
        }
        assertEquals(2, file.numberOfCachedPages());
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertFalse(r.next(5));
        }
    }

    /** Counts whose bytes pass a long: past every page a file can have, so they change nothing (they once wrapped round). */
    @ParameterizedTest(name = "pageCount {0}")
    @ValueSource(longs = {(1L << 52) + 1, Long.MAX_VALUE / PAGE + 1, Long.MAX_VALUE}) // the first wraps to one page
    void aCountWhoseBytesPassALongCutsNothing(long pageCount) throws Exception {
        PagedFile file = open("1m", false);
        writePages(file, 0, 10, 300);
        file.flush();
        file.truncate(pageCount);
        assertEquals(9, file.getLastPageId());
        assertEquals(10L * PAGE, Files.size(path));
        file.close();
        PagedFile reopened = cache.map(path, PAGE, false);
        assertEquals(9, reopened.getLastPageId());
        try (PageCursor r = reopened.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < 10; p++) {
                assertTrue(r.next(p));
                long v;
                do {
                    v = r.getLong(0);
                } while (r.shouldRetry());
                assertEquals(300 + p, v, "page " + p);
            }
        }
    }

    /** Truncate and grow again and again while readers read and the cache evicts (with and without the evictor). */
    @ParameterizedTest(name = "background evictor {0}")
    @ValueSource(booleans = {true, false})
    void truncateRacingReadersWritersAndTheEvictorNeverLetsAReaderAcceptAWrongPage(boolean evictor) throws Exception {
        PagedFile file = open("128k", evictor); // 32 frames, 64 pages: the cache evicts all the time
        int pages = 64;
        writePages(file, 0, pages, 0);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Future<?>> futures = new ArrayList<>();
            futures.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(1);
                try {
                    for (int round = 0; round < 200; round++) {
                        file.truncate(random.nextInt(pages));
                        // Grow back: each page holds its own id, so a reader can tell a misplaced page.
                        writePages(file, (int) file.getLastPageId() + 1, pages, 0);
                    }
                } finally {
                    stop.set(true); // also where a truncate threw: the flusher and the readers would loop for good
                }
                return null;
            }));
            futures.add(pool.submit(() -> {
                while (!stop.get()) {
                    file.flush(); // a flush never writes a page that was truncated away: the file size below says so
                }
                return null;
            }));
            for (int t = 0; t < 3; t++) {
                long seed = 10 + t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                        while (!stop.get()) {
                            int p = random.nextInt(pages);
                            if (!r.next(p)) {
                                continue; // truncated away for now
                            }
                            long v;
                            do {
                                v = r.getLong(0);
                            } while (r.shouldRetry());
                            boolean gone = r.checkAndClearBoundsFlag();
                            try {
                                r.checkAndClearCursorException();
                            } catch (CursorException e) {
                                assertTrue(gone, "a page truncated under the reader reads out of bounds");
                                continue;
                            }
                            if (v != p) {
                                throw new AssertionError("page " + p + " read " + v);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true); // an interrupt stops none of the loops
            pool.shutdownNow();
        }
        file.flush();
        long last = file.getLastPageId();
        assertEquals((last + 1) * PAGE, Files.size(path));
    }

    @Test
    void truncateRacingTheFilesCloseEitherCompletesOrFindsTheFileUnmapped() throws Exception {
        PagedFile file = open("1m", true);
        writePages(file, 0, 50, 0);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> truncates = pool.submit(() -> {
                int done = 0;
                for (int pages = 49; pages > 0; pages--) {
                    try {
                        file.truncate(pages);
                        done++;
                    } catch (IllegalStateException e) {
                        assertTrue(e.getMessage().contains("not mapped"), e.getMessage());
                        return done;
                    }
                }
                return done;
            });
            file.close();
            int done = truncates.get(60, TimeUnit.SECONDS);
            long size = Files.size(path);
            assertTrue(size <= 50L * PAGE && size % PAGE == 0, "size " + size + " after " + done + " truncates");
        } finally {
            pool.shutdownNow();
        }
        assertThrows(IllegalStateException.class, () -> file.truncate(0));
    }

    /**
     * A PF_NO_GROW write cursor whose next(id) looked at the file's end before a truncate cut the page off, and
     * faulted it in after, got the page past the new end and grew the file back to it: a write cursor's fault
     * never asked whether the page was still in the file. Here a read held up inside the file's gate keeps the
     * truncate waiting with the gate closed while the cursor looks at the end, then waits for the gate.
     */
    @Test
    void aNoGrowWriteCursorThatLookedAtTheEndBeforeATruncateNeitherPinsACutPageNorGrowsTheFile() throws Exception {
        Path path = dir.resolve("nogrow.db");
        CountDownLatch readHeld = new CountDownLatch(1);
        CountDownLatch releaseRead = new CountDownLatch(1);
        AtomicBoolean holdNextRead = new AtomicBoolean();
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", String.valueOf(PAGE),
                "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public int read(long pageId, long address) throws IOException {
                    if (holdNextRead.compareAndSet(true, false)) {
                        readHeld.countDown();
                        Waits.awaitQuietly(releaseRead); // the bound, keeping an interrupt
                    }
                    return super.read(pageId, address);
                }
            }));
        PagedFile file = cache.map(path, PAGE);
        writePages(file, 0, 100, 0);
        file.close(); // every page out of the cache: the cursor below faults page 50
        PagedFile mapped = cache.map(path, PAGE, false);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            holdNextRead.set(true);
            Future<Boolean> read = pool.submit(() -> {
                try (PageCursor r = mapped.io(3, PagedFile.PF_SHARED_READ_LOCK)) {
                    return r.next();
                }
            });
            Waits.await(readHeld, "the read of page 3 held in the swapper");
            Future<?> truncate = pool.submit(() -> {
                mapped.truncate(10);
                return null;
            });
            // closed and waiting for the read to leave: the end is not lowered yet
            Waits.until(() -> {
                assertFalse(truncate.isDone(), "the truncate ended (returned or threw) without waiting for the read to leave");
                return mapped.mapping().isGateClosed();
            }, "the truncate closed the file's gate");
            boolean[] moved = new boolean[1];
            Throwable[] failed = new Throwable[1];
            Thread writer = new Thread(() -> {
                try (PageCursor w = mapped.io(50, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW)) {
                    moved[0] = w.next();
                    if (moved[0]) {
                        w.putLong(0, -1);
                    }
                } catch (Throwable t) {
                    failed[0] = t;
                }
            });
            writer.start();
            // past its look at the end (page 50 of 100 is there), waiting to fault it in
            Waits.until(() -> {
                assertTrue(writer.isAlive(), "the cursor ended without waiting at the closed gate");
                return Arrays.stream(writer.getStackTrace()).anyMatch(f -> f.getMethodName().equals("enterGate"));
            }, "the cursor waits at the closed gate", writer);
            releaseRead.countDown();
            assertTrue(read.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS));
            truncate.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            Waits.join(writer, "the cursor waiting at the gate, once the truncate is done");
            if (failed[0] != null) {
                throw new AssertionError("the cursor failed", failed[0]);
            }
            assertFalse(moved[0], "next(50) of a PF_NO_GROW cursor after the file was cut to 10 pages");
            assertEquals(9, mapped.getLastPageId(), "a PF_NO_GROW cursor grew the file");
            assertEquals(-1, mapped.table().nextPresent(10), "no page past the end is in the cache");
            mapped.flush();
            assertEquals(10L * PAGE, Files.size(path));
        } finally {
            releaseRead.countDown();
            pool.shutdownNow();
        }
    }

    private static long readLong(PageCursor r) throws IOException {
        long v;
        do {
            v = r.getLong(0);
        } while (r.shouldRetry());
        return v;
    }
}
