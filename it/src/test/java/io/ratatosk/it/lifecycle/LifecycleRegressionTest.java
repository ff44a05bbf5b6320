package io.ratatosk.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.ChildJvm;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.Waits;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each lifecycle bug of issue 11 as a short, focused sequence through the public API, so that a
 * regression names itself. The few that race (map against close, a fault against unmap) repeat their
 * race a bounded number of times. A test that hangs (a frame left locked: a fault or a close spins on
 * it forever) fails at the {@link HangLimit}, its stuck thread left behind; tests whose bug
 * would crash the JVM or exhaust its heap run last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(HangLimit.class)
class LifecycleRegressionTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    // ---- path identity ------------------------------------------------------------------------

    @Test
    @Order(1)
    void symlinkedFolderReachesTheSameMapping() throws IOException {
        PathSpellings paths = new PathSpellings(dir);
        Path link = dir.resolve("link").resolve("f");
        if (!Files.isSymbolicLink(dir.resolve("link"))) {
            System.out.println("skipped: " + paths.notes());
            return;
        }
        try (PageCache cache = open(16)) {
            PagedFile viaLink = cache.map(link, PAGE); // creates the file through the link
            PagedFile viaReal = cache.map(paths.real("f"), PAGE);
            try {
                assertSame(viaLink, viaReal, "the file mapped through a symlinked folder and through its real path");
                writePages(viaLink, 7, 0, 4, 1);
                assertPages(viaReal, 7, 0, 4, 1);
            } finally {
                viaReal.close();
                viaLink.close();
            }
        }
        assertOnDisk(paths.real("f"), 7, 4, 1);
    }

    @ParameterizedTest(name = "first mapped by spelling {0}")
    @Order(1)
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void everySpellingOfAPathReachesTheSameMapping(int spelling) throws IOException {
        PathSpellings paths = new PathSpellings(dir);
        List<Path> spellings = paths.spellingsOf("f");
        if (spelling >= spellings.size()) {
            System.out.println("spelling " + spelling + " skipped: " + paths.notes());
            return;
        }
        try (PageCache cache = open(16)) {
            PagedFile first = cache.map(spellings.get(spelling), PAGE); // the file does not exist yet
            List<PagedFile> others = new ArrayList<>();
            try {
                for (Path other : spellings) {
                    PagedFile pf = cache.map(other, PAGE);
                    others.add(pf);
                    assertSame(first, pf, spellings.get(spelling) + " and " + other + " are one file");
                }
                writePages(first, 9, 0, 3, 1);
                for (PagedFile pf : others) {
                    assertPages(pf, 9, 0, 3, 1);
                }
            } finally {
                for (PagedFile pf : others) {
                    pf.close();
                }
                first.close();
            }
            assertThrows(IllegalStateException.class, () -> first.io(0, PagedFile.PF_SHARED_READ_LOCK),
                "every reference closed, so the file is unmapped");
        }
        assertOnDisk(paths.real("f"), 9, 3, 1);
    }

    // ---- closed files and caches ---------------------------------------------------------------

    @Test
    @Order(2)
    void cursorOfClosedFileThrowsOnNextCall() throws IOException {
        Path path = dir.resolve("f");
        try (PageCache cache = open(16)) {
            PagedFile pf = cache.map(path, PAGE);
            writePages(pf, 3, 0, 10, 1);
            PageCursor reader = pf.io(0, PagedFile.PF_SHARED_READ_LOCK);
            PageCursor writer = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
            assertTrue(reader.next(3));
            pf.close();
            assertThrows(IllegalStateException.class, reader::shouldRetry, "shouldRetry() of a read cursor whose page was dropped");
            assertThrows(IllegalStateException.class, reader::next, "next() of a read cursor of an unmapped file");
            assertThrows(IllegalStateException.class, () -> reader.next(5), "next(id) of a read cursor of an unmapped file");
            assertThrows(IllegalStateException.class, () -> reader.next(50), "next(id past the end) of a read cursor of an unmapped file");
            assertThrows(IllegalStateException.class, writer::next, "next() of a write cursor of an unmapped file");
            assertThrows(IllegalStateException.class, () -> writer.next(20), "next(id) of a write cursor of an unmapped file");
            assertThrows(IllegalStateException.class, () -> pf.io(0, PagedFile.PF_SHARED_READ_LOCK), "io() of an unmapped file");
            assertThrows(IllegalStateException.class, pf::flush, "flush() of an unmapped file");
            assertEquals(9, pf.getLastPageId(), "an unmapped file still answers getLastPageId()");
            assertEquals(PAGE, pf.pageSize());
            assertDoesNotThrow(pf::close, "closing an unmapped file again is a no-op");
            assertDoesNotThrow(reader::close);
            assertDoesNotThrow(writer::close);
            try (PagedFile again = cache.map(path, PAGE)) {
                assertPages(again, 3, 0, 10, 1);
            }
        }
    }

    @Test
    @Order(3)
    void closedCacheRefusesMapFlushAndCursorsButAnswersStats() throws IOException {
        Path path = dir.resolve("f");
        PageCache cache = open(16);
        PagedFile pf = cache.map(path, PAGE);
        writePages(pf, 4, 0, 5, 1);
        PageCursor reader = pf.io(0, PagedFile.PF_SHARED_READ_LOCK);
        cache.close();
        assertThrows(IllegalStateException.class, () -> cache.map(path, PAGE), "map() on a closed cache");
        assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("g"), PAGE), "map() of a new file on a closed cache");
        assertThrows(IllegalStateException.class, cache::flushAndForce, "flushAndForce() on a closed cache");
        assertThrows(IllegalStateException.class, () -> pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK), "io() on a file of a closed cache");
        assertThrows(IllegalStateException.class, reader::next, "next() of a cursor opened before the cache closed");
        assertThrows(IllegalStateException.class, () -> reader.next(50), "next(id past the end) of a cursor opened before the cache closed");
        assertDoesNotThrow(reader::close);
        assertDoesNotThrow(pf::close, "closing a file of a closed cache is a no-op");
        assertDoesNotThrow(cache::stats);
        assertDoesNotThrow(cache::close, "close() is idempotent");
        assertOnDisk(path, 4, 5, 1);
    }

    @Test
    @Order(4)
    void cacheCloseIsRefusedWhileAWriteCursorHoldsAPage() throws IOException {
        Path path = dir.resolve("f");
        PageCache cache = open(16);
        PagedFile pf = cache.map(path, PAGE);
        PageCursor writer = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
        assertTrue(writer.next(2));
        PageImage.write(writer, 5, 2, 1);
        assertThrows(IllegalStateException.class, cache::close, "close() while a write cursor holds a page");
        PageImage.write(writer, 5, 2, 2); // still pinned, still mapped
        assertTrue(writer.next(3));
        PageImage.write(writer, 5, 3, 1);
        writer.close();
        try (PagedFile other = cache.map(dir.resolve("g"), PAGE)) {
            writePages(other, 6, 0, 2, 1); // the cache stayed open
        }
        cache.close();
        assertOnDisk(path, 5, 2, 0); // pages 0 and 1: never written
        long[] words = new long[PAGE / 8];
        readFromDisk(path, 2, words);
        assertEquals(2, versionOf(words, 5, 2, "f on disk"), "the write made while close() was refused survives");
        readFromDisk(path, 3, words);
        assertEquals(1, versionOf(words, 5, 3, "f on disk"));
    }

    // ---- page ids -----------------------------------------------------------------------------

    /** Near the end: with the bug back, the OutOfMemoryError may also hit the test runner's own threads. */
    @Test
    @Order(98)
    void farPageIdNeverRunsOutOfMemory() throws IOException {
        Path path = dir.resolve("f");
        long[] far = {1L << 30, 1L << 40, (1L << 48) - 1};
        boolean[] written = new boolean[far.length];
        try (PageCache cache = open(16)) {
            try (PagedFile pf = cache.map(path, PAGE)) {
                try (PageCursor c = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (int i = 0; i < far.length; i++) {
                        try {
                            if (c.next(far[i])) {
                                PageImage.write(c, 8, far[i], 1);
                                written[i] = true;
                            }
                        } catch (IOException | IllegalArgumentException refused) {
                            System.out.println("next(" + far[i] + ") refused: " + refused);
                        } catch (OutOfMemoryError e) {
                            // JUnit treats an OutOfMemoryError as fatal to the whole run: report it as this test's failure
                            throw new AssertionError("a write cursor's next(" + far[i] + ") ran out of memory: " + e.getMessage());
                        }
                    }
                    for (long bad : new long[] {-1, 1L << 48, Long.MAX_VALUE, Long.MAX_VALUE / PAGE + 1}) {
                        assertThrows(IllegalArgumentException.class, () -> c.next(bad), "next(" + bad + ")");
                    }
                }
                for (long bad : new long[] {-1, 1L << 48, Long.MAX_VALUE}) {
                    assertThrows(IllegalArgumentException.class, () -> pf.io(bad, PagedFile.PF_SHARED_WRITE_LOCK), "io(" + bad + ")");
                }
                pf.flush();
                long[] words = new long[PAGE / 8];
                try (PageCursor c = pf.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                    for (int i = 0; i < far.length; i++) {
                        if (written[i]) {
                            assertTrue(c.next(far[i]), "page " + far[i] + " was written");
                            PageImage.readValidated(c, words, null);
                            assertEquals(1, versionOf(words, 8, far[i], "f"), "far page " + far[i]);
                        }
                    }
                }
            }
        }
        long[] words = new long[PAGE / 8];
        for (int i = 0; i < far.length; i++) {
            if (written[i]) {
                readFromDisk(path, far[i], words);
                assertEquals(1, versionOf(words, 8, far[i], "f on disk"), "far page " + far[i] + " on disk");
            }
        }
    }

    // ---- races, bounded -----------------------------------------------------------------------

    @Test
    @Order(6)
    void mapRacingCloseNeverLeavesALiveMapping() throws Exception {
        long until = System.nanoTime() + Duration.ofMillis(1000).toNanos();
        int rounds = 0;
        while (rounds < 20 || (System.nanoTime() < until && rounds < 400)) {
            rounds++;
            PageCache cache = open(16);
            List<PagedFile> mapped = new ArrayList<>();
            AtomicReference<Throwable> mapperFailure = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            int round = rounds;
            Thread mapper = new Thread(() -> {
                started.countDown();
                for (int i = 0; ; i++) {
                    try {
                        PagedFile pf = cache.map(dir.resolve("r" + round + "-" + (i % 8)), PAGE);
                        synchronized (mapped) {
                            mapped.add(pf);
                        }
                    } catch (IllegalStateException closed) {
                        return;
                    } catch (Throwable e) {
                        mapperFailure.set(e);
                        return;
                    }
                }
            });
            mapper.setDaemon(true);
            mapper.start();
            Waits.await(started, "the mapper's start", mapper);
            for (int spin = (round * 7919) % 2000; spin > 0; spin--) {
                Thread.onSpinWait();
            }
            cache.close();
            Waits.join(mapper, "the mapper's end: map() refused on the closed cache");
            if (mapperFailure.get() != null) {
                fail("map() racing close() threw " + mapperFailure.get(), mapperFailure.get());
            }
            synchronized (mapped) {
                for (PagedFile pf : mapped) {
                    PageCursor c = null;
                    try {
                        c = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
                    } catch (IllegalStateException expected) {
                        continue;
                    } finally {
                        if (c != null) {
                            c.close();
                        }
                    }
                    fail("round " + round + ": " + pf + " was mapped while the cache closed and is still writable after close() returned");
                }
            }
        }
    }

    @Test
    @Order(7)
    void unmapRacingAFaultLeavesNoFrameBoundToTheUnmappedFile() throws Exception {
        long until = System.nanoTime() + Duration.ofMillis(1000).toNanos();
        for (int round = 0; round < 10 || (System.nanoTime() < until && round < 100); round++) {
            unmapRacingGrowingWriter(round);
        }
    }

    /**
     * A writer appends pages to A (faulting each in, past the last page the unmap knows of; each read
     * slowed down after it completes, so faults are in flight when the unmap runs) while A is unmapped.
     * Then B takes A's file id, and C's pages evict everything: no page of A may land in B or C, and every
     * page of A the writer got acknowledged must be in A.
     */
    private void unmapRacingGrowingWriter(int round) throws Exception {
        Path a = dir.resolve("a" + round);
        Path b = dir.resolve("b" + round);
        Path c = dir.resolve("c" + round);
        AtomicLong acknowledged = new AtomicLong(-1);
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        ScriptedSwappers swappers = new ScriptedSwappers();
        try (PageCache cache = PageCache.open(config(24), swappers)) {
            PagedFile fileA = cache.map(a, PAGE);
            CountDownLatch running = new CountDownLatch(1);
            swappers.readDelayNanos = 200_000;
            Thread writer = new Thread(() -> {
                try (PageCursor w = fileA.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (long p = 0; ; p++) {
                        if (!w.next(p)) {
                            throw new AssertionError("write cursor next(" + p + ") returned false");
                        }
                        PageImage.write(w, 11, p, 1);
                        acknowledged.set(p - 1); // p - 1 was unpinned by this next()
                        if (p >= 2) {
                            running.countDown();
                        }
                    }
                } catch (IllegalStateException unmapped) {
                    // the file was unmapped: the cursor must stop here
                } catch (IOException e) {
                    writerFailure.set(new AssertionError("a fault racing the unmap went on with the file already closed: " + e, e));
                } catch (Throwable e) {
                    writerFailure.set(e);
                } finally {
                    running.countDown();
                }
            });
            writer.setDaemon(true);
            writer.start();
            Waits.await(running, "the writer's first pages", writer);
            // Refused while the writer holds a page, which its next() lets go of at once: tried again until the bound,
            // past which the writer (whose stack the failure shows) holds its page for good
            Waits.until(() -> {
                try {
                    fileA.close();
                    return true;
                } catch (IllegalStateException pinned) {
                    return false; // the writer holds a page right now; try again
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "the unmap of A, refused while the writer holds a page", writer);
            Waits.join(writer, "the writer's end: its cursor stopped by the unmap");
            swappers.readDelayNanos = 0;
            if (writerFailure.get() != null) {
                throw new AssertionError("the writer racing unmap failed with " + writerFailure.get(), writerFailure.get());
            }
            try (PagedFile fileB = cache.map(b, PAGE)) { // takes the file id A had
                writePages(fileB, 22, 0, 48, 1);
            }
            try (PagedFile fileC = cache.map(c, PAGE)) {
                writePages(fileC, 33, 0, 96, 1);
                assertPages(fileC, 33, 0, 96, 1);
            }
        }
        assertOnlyOwnPages(b, 22, 48, round);
        assertOnlyOwnPages(c, 33, 96, round);
        assertOnDisk(a, 11, acknowledged.get() + 1, 1);
    }

    /** Every page of {@code path} on disk is its own version 1 below {@code written}, never written above. */
    private static void assertOnlyOwnPages(Path path, long tag, long written, int round) throws IOException {
        long[] words = new long[PAGE / 8];
        long pages = Files.size(path) / PAGE;
        for (long p = 0; p < pages; p++) {
            readFromDisk(path, p, words);
            long version;
            try {
                version = PageImage.versionOf(words, tag, p);
            } catch (PageImage.DamagedPage e) {
                throw new AssertionError("round " + round + ": page " + p + " of " + path.getFileName() + ", mapped after"
                    + " the unmap, " + e.getMessage() + " (a frame of the unmapped file was written into it)");
            }
            assertEquals(p < written ? 1 : 0, version, "round " + round + ": page " + p + " of " + path);
        }
    }

    // ---- failures inside the cache --------------------------------------------------------------

    @Test
    @Order(8)
    void swapperCloseFailureInUnmapLeavesNoDeadMapping() throws IOException {
        ScriptedSwappers swappers = new ScriptedSwappers();
        Path path = dir.resolve("f");
        try (PageCache cache = PageCache.open(config(16), swappers)) {
            PagedFile pf = cache.map(path, PAGE);
            writePages(pf, 12, 0, 8, 1);
            swappers.closeFailures.set(1);
            try {
                pf.close();
            } catch (IOException reported) {
                System.out.println("unmap reported: " + reported);
            }
            try (PagedFile again = cache.map(path, PAGE)) {
                PageCursor probe = assertDoesNotThrow(() -> again.io(0, PagedFile.PF_SHARED_WRITE_LOCK),
                    "map() after a failed swapper close must give a live mapping, not the dead one");
                probe.close();
                assertPages(again, 12, 0, 8, 1);
                writePages(again, 12, 0, 8, 2);
            }
        }
        assertOnDisk(path, 12, 8, 2);
    }

    @Test
    @Order(9)
    void errorInsideAFaultLeavesNoFrameLocked() throws IOException {
        ScriptedSwappers swappers = new ScriptedSwappers();
        Path path = dir.resolve("f");
        try (PageCache cache = PageCache.open(config(16), swappers); PagedFile pf = cache.map(path, PAGE)) {
            writePages(pf, 13, 0, 64, 1);
            swappers.readErrors.set(3);
            for (int p = 0; p < 8; p++) {
                long page = p;
                try (PageCursor c = pf.io(page, PagedFile.PF_SHARED_READ_LOCK)) {
                    c.next();
                } catch (Throwable e) {
                    rethrowUnlessInjected(e); // the fault failed; the next one must work
                }
            }
            assertPages(pf, 13, 0, 64, 1); // hangs if a frame stayed locked
            writePages(pf, 13, 0, 64, 2);
        }
        assertOnDisk(path, 13, 64, 2);
    }

    @Test
    @Order(97)
    void errorInsideEvictionLeavesNoFrameLocked() throws IOException {
        ScriptedSwappers swappers = new ScriptedSwappers();
        Path path = dir.resolve("f");
        try (PageCache cache = PageCache.open(config(16), swappers); PagedFile pf = cache.map(path, PAGE)) {
            writePages(pf, 14, 0, 64, 1); // the last 16 pages stay dirty in the cache
            swappers.writeErrors.set(3);
            for (int p = 0; p < 8; p++) {
                try (PageCursor c = pf.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    c.next(); // faults page p in, evicting a dirty page, whose write-out throws
                } catch (Throwable e) {
                    rethrowUnlessInjected(e); // the page that failed to go out stays dirty in the cache
                }
            }
            assertPages(pf, 14, 0, 64, 1); // hangs if a frame stayed locked
            writePages(pf, 14, 0, 64, 2);
        }
        assertOnDisk(path, 14, 64, 2);
    }

    /**
     * In a JVM of its own ({@link StaleReadAfterClose}): with the bug back, reading through the stale cursor
     * reads unmapped memory and that JVM dies of SIGSEGV, which fails this test rather than the test run.
     */
    @Test
    @Order(100)
    void readCursorOpenAcrossCacheCloseNeverTouchesFreedMemory() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "256m", StaleReadAfterClose.class, dir.resolve("f").toString());
        String output = child.output();
        int status = child.status();
        assertEquals(0, status, "the JVM reading through a read cursor after its cache closed "
            + (output.contains("SIGSEGV") ? "crashed (SIGSEGV: the page memory was freed under the cursor)" : "failed")
            + "; its output:\n" + tail(output, 3000));
        assertOnDisk(dir.resolve("f"), 15, 4, 1);
    }

    private static String tail(String text, int chars) {
        return text.length() <= chars ? text : "..." + text.substring(text.length() - chars);
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static void rethrowUnlessInjected(Throwable e) {
        if (!FaultInjector.isInjected(e)) {
            throw new AssertionError("expected the injected failure (or an IOException carrying it), got " + e, e);
        }
    }

    /**
     * Muninn's clock: the scripted faults and evictions above count on a recency policy evicting the pages
     * written first; a scan-resistant one (CLOCK-Pro, best-of's start) keeps some of them, and the injected
     * errors then land elsewhere. LifecycleModelTest runs every policy.
     */
    private static PageCacheConfig config(int frames) {
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", Long.toString((long) frames * PAGE),
            "pagecache.page_size", Integer.toString(PAGE),
            "pagecache.evictor.enabled", "false",
            "pagecache.policy", "muninn"));
    }

    private static PageCache open(int frames) {
        return PageCache.open(config(frames));
    }

    private static void writePages(PagedFile pf, long tag, int from, int to, long version) throws IOException {
        try (PageCursor c = pf.io(from, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (long p = from; p < to; p++) {
                assertTrue(c.next(p));
                PageImage.write(c, tag, p, version);
            }
        }
    }

    private static void assertPages(PagedFile pf, long tag, int from, int to, long version) throws IOException {
        long[] words = new long[pf.pageSize() / 8];
        try (PageCursor c = pf.io(from, PagedFile.PF_SHARED_READ_LOCK)) {
            for (long p = from; p < to; p++) {
                assertTrue(c.next(p), "page " + p + " of " + pf);
                PageImage.readValidated(c, words, null);
                assertEquals(version, versionOf(words, tag, p, pf.toString()), "page " + p + " of " + pf);
            }
        }
    }

    /** Pages {@code 0 .. pages-1} of the file hold {@code version} (0: never written). */
    private static void assertOnDisk(Path path, long tag, long pages, long version) throws IOException {
        long[] words = new long[PAGE / 8];
        for (long p = 0; p < pages; p++) {
            readFromDisk(path, p, words);
            assertEquals(version, versionOf(words, tag, p, path + " on disk"), "page " + p + " of " + path + " on disk");
        }
    }

    private static long versionOf(long[] words, long tag, long pageId, String where) {
        try {
            return PageImage.versionOf(words, tag, pageId);
        } catch (PageImage.DamagedPage e) {
            throw new AssertionError("page " + pageId + " of " + where + " " + e.getMessage());
        }
    }

    private static void readFromDisk(Path path, long pageId, long[] words) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(PAGE);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            while (buf.hasRemaining() && ch.read(buf, pageId * PAGE + buf.position()) >= 0) {
                // read on
            }
        }
        PageImage.fromBytes(buf, words);
    }

    /** The cache's own file swappers, failing on cue: a given number of reads or writes throw an Error, closes throw IOException. */
    private static final class ScriptedSwappers implements PageSwapperFactory {
        private final FileSwapperFactory files = new FileSwapperFactory();
        final AtomicInteger readErrors = new AtomicInteger();
        final AtomicInteger writeErrors = new AtomicInteger();
        final AtomicInteger closeFailures = new AtomicInteger();
        volatile long readDelayNanos;

        private static boolean take(AtomicInteger budget) {
            return budget.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        }

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                @Override
                public int read(long pageId, long address) throws IOException {
                    if (take(readErrors)) {
                        throw new FaultInjector.InjectedError("injected read error: page " + pageId);
                    }
                    int read = super.read(pageId, address);
                    long delay = readDelayNanos;
                    if (delay > 0) {
                        LockSupport.parkNanos(delay); // a slow disk: the fault is in flight a while after the read
                    }
                    return read;
                }

                @Override
                public void write(long pageId, long address) throws IOException {
                    if (take(writeErrors)) {
                        throw new FaultInjector.InjectedError("injected write error: page " + pageId);
                    }
                    super.write(pageId, address);
                }

                /** A file swapper's eviction is its write: failing on the same cue. */
                @Override
                public void evict(long pageId, long address, boolean dirty) throws IOException {
                    if (dirty) {
                        write(pageId, address);
                    }
                }

                @Override
                public void close() throws IOException {
                    super.close();
                    if (take(closeFailures)) {
                        throw new FaultInjector.InjectedIOException("injected close failure: " + file.getFileName());
                    }
                }
            };
        }
    }
}
