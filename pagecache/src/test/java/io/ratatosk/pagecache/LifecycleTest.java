package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageKey;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle rules of docs/architecture.md, "Lifecycle": one regression test per misuse that once
 * crashed, hung, leaked or aliased. The randomized model test in {@code it} covers their combinations.
 */
class LifecycleTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private static PageCache open(String... flags) {
        Map<String, String> values = new java.util.HashMap<>(Map.of("pagecache.memory", "256k", "pagecache.page_size", "4k"));
        for (int i = 0; i < flags.length; i += 2) {
            values.put(flags[i], flags[i + 1]);
        }
        return PageCache.open(PageCacheConfig.parse(values));
    }

    /** Writes {@code value} as the first long of the page (also for the other lifecycle tests of this package). */
    static void write(PagedFile file, long pageId, long value) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            c.putLong(0, value);
        }
    }

    /** The first long of the page, read optimistically. */
    static long read(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next(), "page " + pageId + " exists");
            long v;
            do {
                v = c.getLong(0);
            } while (c.shouldRetry());
            return v;
        }
    }

    /** Frames still bound to a page of {@code fileId}. */
    private static int framesBoundTo(PageCache cache, int fileId) {
        FrameTable frames = cache.frames();
        int bound = 0;
        for (int f = 0; f < cache.frameCount(); f++) {
            long key = frames.binding(f);
            if (key != PageKey.UNBOUND && PageKey.fileId(key) == fileId) {
                bound++;
            }
        }
        return bound;
    }

    // ---- cache close with cursors open ----------------------------------------------------------

    @Test
    void aReadCursorOpenAcrossCacheCloseKeepsTheMemoryAndThrowsOnItsNextCall() throws Exception {
        PageCache cache = open();
        PagedFile file = cache.map(dir.resolve("a.db"), PAGE);
        write(file, 0, 42);
        PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        assertTrue(reader.next());
        assertEquals(1, cache.openCursors());
        cache.close();
        assertFalse(cache.isMemoryReleased(), "a cursor is still open: the page memory must stay");
        assertEquals(1, cache.openCursors(), "and it is counted after the close too");
        reader.getLong(0); // stale memory, never freed memory: this must not crash the JVM
        assertThrows(IllegalStateException.class, reader::shouldRetry);
        assertThrows(IllegalStateException.class, reader::next);
        reader.close();
        assertEquals(0, cache.openCursors());
        assertTrue(cache.isMemoryReleased(), "the last cursor closed after the cache: the memory goes now");
        assertThrows(IllegalStateException.class, () -> reader.getLong(0));
    }

    @Test
    void aCacheClosedWithCursorsOpenSaysSoInTheLogAndOneClosedWithNoneDoesNot() throws Exception {
        Logger log = Logger.getLogger("io.ratatosk.pagecache");
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel() == Level.WARNING) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try {
            PageCache leaky = open();
            PagedFile file = leaky.map(dir.resolve("leak.db"), PAGE);
            PageCursor first = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            PageCursor second = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            leaky.close();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("2 cursors still open") && warnings.get(0).contains("pagecache.memory="),
                warnings.get(0));
            first.close();
            second.close();

            PageCache tidy = open();
            tidy.map(dir.resolve("tidy.db"), PAGE).io(0, PagedFile.PF_SHARED_READ_LOCK).close();
            tidy.close();
            assertEquals(1, warnings.size(), "no cursor open, no warning: " + warnings);
        } finally {
            log.removeHandler(handler);
        }
    }

    @Test
    void aCacheClosedWithNoCursorOpenFreesItsMemoryAtOnce() throws Exception {
        PageCache cache = open();
        PagedFile file = cache.map(dir.resolve("b.db"), PAGE);
        write(file, 3, 1);
        cache.close();
        assertTrue(cache.isMemoryReleased());
        assertThrows(IllegalStateException.class, () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK));
        assertThrows(IllegalStateException.class, file::flush);
        assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("c.db"), PAGE));
        assertThrows(IllegalStateException.class, cache::flushAndForce);
        file.close(); // harmless
        cache.close(); // harmless
    }

    @Test
    void closingTheCacheWhileAWriteCursorHoldsAPageIsRefusedAndLosesNothing() throws Exception {
        Path path = dir.resolve("w.db");
        PageCache cache = open();
        PagedFile file = cache.map(path, PAGE);
        PageCursor writer = file.io(2, PagedFile.PF_SHARED_WRITE_LOCK);
        assertTrue(writer.next());
        writer.putLong(8, 77);
        IllegalStateException refused = assertThrows(IllegalStateException.class, cache::close);
        assertTrue(refused.getMessage().contains("write cursor"), refused.getMessage());
        assertFalse(cache.isClosed(), "a refused close leaves the cache open");
        writer.putLong(16, 78); // still mapped: the write lands
        writer.close();
        assertSame(file, cache.map(path, PAGE), "the file is still mapped after the refused close");
        cache.close();
        assertTrue(cache.isClosed());
        try (PageCache again = open(); PagedFile f = again.map(path, PAGE); PageCursor c = f.io(2, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            assertEquals(77, c.getLong(8));
            assertEquals(78, c.getLong(16));
        }
    }

    @Test
    void aRefusedCacheCloseLeavesEveryMappingOfTheFileInPlace() throws Exception {
        Path path = dir.resolve("refs.db");
        PageCache cache = open();
        PagedFile first = cache.map(path, PAGE);
        PagedFile second = cache.map(path, PAGE); // two mappings: two users of the file
        PageCursor writer = first.io(1, PagedFile.PF_SHARED_WRITE_LOCK);
        assertTrue(writer.next());
        assertThrows(IllegalStateException.class, cache::close);
        second.close(); // one user lets go: the other still has the file
        writer.putLong(0, 5);
        writer.close();
        assertEquals(5, read(first, 1), "the refused close must not have taken the other mapping away");
        first.close();
        assertThrows(IllegalStateException.class, () -> first.io(0, PagedFile.PF_SHARED_READ_LOCK), "both closed: unmapped");
        cache.close();
    }

    // ---- a closed file's cursors ----------------------------------------------------------------

    @Test
    void aCursorOfAnUnmappedFileThrowsAndLeavesNoFrameBoundToIt() throws Exception {
        try (PageCache cache = open()) {
            PagedFile file = cache.map(dir.resolve("u.db"), PAGE);
            for (int p = 0; p < 8; p++) {
                write(file, p, p);
            }
            PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            assertTrue(reader.next());
            PageCursor writer = file.io(5, PagedFile.PF_SHARED_WRITE_LOCK); // open, not yet on a page
            int fileId = file.fileId();
            file.close();
            assertThrows(IllegalStateException.class, reader::shouldRetry);
            assertThrows(IllegalStateException.class, () -> reader.next(6));
            assertThrows(IllegalStateException.class, writer::next);
            assertThrows(IllegalStateException.class, () -> file.io(1, PagedFile.PF_SHARED_READ_LOCK));
            assertEquals(0, framesBoundTo(cache, fileId), "no frame may stay bound to an unmapped file");
            reader.close();
            writer.close();
        }
    }

    @Test
    void unmappingWhileOtherThreadsFaultLeavesNoFrameBoundToTheFile() throws Exception {
        for (int round = 0; round < 20; round++) {
            try (PageCache cache = open("pagecache.memory", "128k")) {
                Path path = dir.resolve("race-" + round + ".db");
                PagedFile file = cache.map(path, PAGE);
                int fileId = file.fileId();
                CountDownLatch started = new CountDownLatch(3);
                AtomicBoolean stop = new AtomicBoolean();
                ExecutorService pool = Executors.newFixedThreadPool(3);
                List<Future<?>> faulters = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    int thread = t;
                    faulters.add(pool.submit(() -> {
                        started.countDown();
                        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                            for (long p = thread; !stop.get(); p = (p + 3) % 200) {
                                c.next(p);
                                c.putLong(0, p);
                            }
                        } catch (IllegalStateException | IOException expected) {
                            // the file was unmapped under us
                        }
                        return null;
                    }));
                }
                try {
                    Waits.await(started, "the three faulters' start");
                    Thread.sleep(5);
                    // tried until the shared bound, not a count of tries: a writer a loaded machine holds off while it
                    // pins a page refuses as many closes as there are tries meanwhile
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
                    while (true) {
                        try {
                            file.close();
                            break;
                        } catch (IllegalStateException heldByAWriter) {
                            assertTrue(System.nanoTime() - deadline < 0, "the writers never let go within "
                                + Waits.BOUND_SECONDS + " s (ratatosk.test.wait_s): " + heldByAWriter);
                            Thread.yield(); // refused, and the mapping is back: try again
                        }
                    }
                } finally {
                    stop.set(true); // a failed round leaves no writer running through the tests after it
                    pool.shutdown();
                }
                for (Future<?> f : faulters) {
                    f.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                }
                assertEquals(0, framesBoundTo(cache, fileId), "round " + round + ": a fault bound a frame to the unmapped file");
            }
        }
    }

    // ---- one file, one mapping ------------------------------------------------------------------

    @Test
    void everySpellingOfOnePathReachesTheSameMapping() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path sub = Files.createDirectories(real.resolve("sub"));
        Path linkedDir = dir.resolve("linked");
        boolean symlinks = true;
        try {
            Files.createSymbolicLink(linkedDir, real);
        } catch (UnsupportedOperationException | IOException e) {
            symlinks = false;
        }
        try (PageCache cache = open()) {
            PagedFile first = cache.map(real.resolve("f.db"), PAGE);
            List<Path> spellings = new ArrayList<>(List.of(real.resolve("f.db"), real.resolve("./f.db"),
                sub.resolve("../f.db"), dir.resolve("real/sub/../f.db")));
            Path relative = Path.of("").toAbsolutePath().relativize(real.resolve("f.db"));
            spellings.add(relative);
            if (symlinks) {
                spellings.add(linkedDir.resolve("f.db"));
                Path fileLink = Files.createSymbolicLink(dir.resolve("f-link.db"), real.resolve("f.db"));
                spellings.add(fileLink);
            }
            for (Path spelling : spellings) {
                assertSame(first, cache.map(spelling, PAGE), spelling + " is another spelling of the same file");
            }
            write(first, 0, 99);
            PagedFile again = cache.map(spellings.get(spellings.size() - 1), PAGE);
            assertEquals(99, read(again, 0));
            assertThrows(IllegalArgumentException.class, () -> cache.map(real.resolve("./f.db"), PAGE / 2),
                "the same file with another page size");
            for (int i = 0; i <= spellings.size() + 1; i++) {
                first.close();
            }
            assertThrows(IllegalStateException.class, () -> first.io(0, PagedFile.PF_SHARED_READ_LOCK),
                "closed as many times as mapped: unmapped");
        }
    }

    @Test
    void mappingADirectoryOrADanglingLinkIsRefused() throws Exception {
        try (PageCache cache = open()) {
            assertThrows(IOException.class, () -> cache.map(dir, PAGE));
            Path dangling = dir.resolve("dangling.db");
            try {
                Files.createSymbolicLink(dangling, dir.resolve("nowhere/missing.db"));
            } catch (UnsupportedOperationException | IOException e) {
                return;
            }
            assertThrows(IOException.class, () -> cache.map(dangling, PAGE), "its target's folder does not exist");
            Path link = dir.resolve("link-to-new.db");
            Files.createSymbolicLink(link, dir.resolve("new.db"));
            PagedFile viaLink = cache.map(link, PAGE);
            assertTrue(Files.isRegularFile(dir.resolve("new.db")), "mapping a link to a missing file creates its target");
            assertSame(viaLink, cache.map(dir.resolve("new.db"), PAGE));
        }
    }

    // ---- page ids ---------------------------------------------------------------------------------

    @Test
    void aFarPageIdIsSparseOrRefusedOnTheCallNeverOutOfMemory() throws Exception {
        try (PageCache cache = open(); PagedFile file = cache.map(dir.resolve("far.db"), PAGE)) {
            write(file, 0, 1);
            long far = 1L << 40;
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                try {
                    assertTrue(c.next(far));
                    c.putLong(0, 5);
                    assertEquals(far, file.getLastPageId());
                } catch (IOException refusedByTheFileSystem) {
                    assertTrue(refusedByTheFileSystem.getMessage().contains("page " + far), refusedByTheFileSystem.getMessage());
                    assertEquals(0, file.getLastPageId(), "a refused growth does not grow the file");
                }
            }
            assertTrue(file.table().allocatedChunks() <= 2, "the table holds the chunks touched, not all up to the far id");
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertFalse(r.next(Math.max(far, file.getLastPageId()) + 1), "past the end");
            }
            assertThrows(IllegalArgumentException.class, () -> file.io(file.maxPageId() + 1, PagedFile.PF_SHARED_READ_LOCK));
            assertThrows(IllegalArgumentException.class, () -> file.io(Long.MAX_VALUE, PagedFile.PF_SHARED_WRITE_LOCK));
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertThrows(IllegalArgumentException.class, () -> c.next(Long.MAX_VALUE / 2));
            }
            file.flush();
        }
    }

    @Test
    void aWriteFarPastTheEndMakesASparseFileThatReadsBack() throws Exception {
        Path path = dir.resolve("sparse.db");
        long far = 1L << 28; // 1 TiB into the file: every common file system holds that
        try (PageCache cache = open(); PagedFile file = cache.map(path, PAGE)) {
            write(file, far, 1234);
        }
        assertEquals((far + 1) * PAGE, Files.size(path));
        try (PageCache cache = open(); PagedFile file = cache.map(path, PAGE)) {
            assertEquals(far, file.getLastPageId());
            assertEquals(1234, read(file, far));
            assertEquals(0, read(file, far / 2), "a hole reads as zeros");
        }
    }

    // ---- map and close racing ---------------------------------------------------------------------

    @Test
    void aFileMappedWhileTheCacheClosesIsNeverLeftLive() throws Exception {
        for (int round = 0; round < 20; round++) {
            PageCache cache = open();
            int r = round;
            List<PagedFile> mapped = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            Throwable[] mapperFailed = new Throwable[1]; // thrown on the mapper, it only went to the uncaught handler
            Thread mapper = new Thread(() -> {
                try {
                    go.await();
                    for (int i = 0; i < 50; i++) {
                        mapped.add(cache.map(dir.resolve("m-" + r + "-" + i + ".db"), PAGE));
                    }
                } catch (IllegalStateException closed) {
                    // refused: the cache closed first
                } catch (Throwable t) {
                    mapperFailed[0] = t;
                }
            }, "mapper");
            mapper.start();
            go.countDown();
            cache.close();
            Waits.join(mapper, "the mapper"); // a mapper still running had the files it mapped read as it added them
            if (mapperFailed[0] != null) {
                throw new AssertionError("round " + r + ": a map failed other than as refused", mapperFailed[0]);
            }
            for (PagedFile f : mapped) {
                assertThrows(IllegalStateException.class, () -> f.io(0, PagedFile.PF_SHARED_WRITE_LOCK),
                    f + " was mapped while the cache closed and is still live");
            }
        }
    }

    // ---- failures inside the protocols ------------------------------------------------------------

    @Test
    void anErrorThrownWhileEvictingReleasesTheFrameAndIsReported() throws Exception {
        AtomicBoolean fail = new AtomicBoolean();
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "32k", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false")), SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void evict(long pageId, long address, boolean dirty) throws IOException {
                    if (fail.get()) {
                        throw new InternalError("injected: the disk driver fell over");
                    }
                    super.evict(pageId, address, dirty);
                }
            }));
        Path path = dir.resolve("err.db");
        try (cache) {
            PagedFile file = cache.map(path, PAGE);
            for (int p = 0; p < cache.frameCount(); p++) {
                write(file, p, p + 100);
            }
            fail.set(true);
            IOException e = assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS),
                () -> assertThrows(IOException.class, () -> write(file, 50, 1)));
            assertTrue(e.getCause() instanceof InternalError, String.valueOf(e));
            for (int f = 0; f < cache.frameCount(); f++) {
                assertTrue(cache.frames().isUnlocked(f), "frame " + f + " was left locked by the failed eviction");
            }
            fail.set(false);
            write(file, 50, 150);
            for (int p = 0; p < cache.frameCount(); p++) {
                assertEquals(p + 100, read(file, p));
            }
        }
        try (PageCache again = open(); PagedFile file = again.map(path, PAGE)) {
            assertEquals(150, read(file, 50));
            assertEquals(107, read(file, 7));
        }
    }

    @Test
    void aThreadWaitingForAnotherThreadsFaultGetsItsFailure() throws Exception {
        CountDownLatch readStarted = new CountDownLatch(1);
        CountDownLatch failRead = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k")),
                 SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                     @Override
                     public int read(long pageId, long address) throws IOException {
                         if (pageId == 9 && reads.incrementAndGet() == 1) {
                             readStarted.countDown();
                             Waits.awaitQuietly(failRead);
                             throw new IOException("injected: bad sector");
                         }
                         return super.read(pageId, address);
                     }
                 }));
             PagedFile file = cache.map(dir.resolve("wait.db"), PAGE)) {
            write(file, 20, 1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<?> faulter = pool.submit(() -> read(file, 9));
                Waits.await(readStarted, "the fault of page 9 reached its read");
                Future<?> waiter = pool.submit(() -> read(file, 9));
                // Only a thread that waits for the fault learns of its failure; one that came later faults the page itself
                Waits.until(LifecycleTest::aThreadWaitsForAFault, "the second reader waits for the fault of page 9");
                failRead.countDown();
                // Not any Exception: a faulter still running at the bound (TimeoutException, no cause) failed as an NPE below
                Exception first = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> faulter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "the faulter's read failed");
                assertTrue(first.getCause().getMessage().contains("bad sector"), String.valueOf(first.getCause()));
                Exception e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> waiter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "the waiter read page 9 after its fault failed");
                assertTrue(e.getCause().getMessage().contains("another thread failed"), String.valueOf(e.getCause()));
                assertTrue(e.getCause().getCause().getMessage().contains("bad sector"));
            } finally {
                pool.shutdownNow();
            }
            assertEquals(0, read(file, 9), "the page reads once the disk recovers");
        }
    }

    /** Whether a thread waits for a page another thread is faulting in (FileMapping.awaitFault). */
    private static boolean aThreadWaitsForAFault() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> java.util.Arrays.stream(stack)
            .anyMatch(frame -> frame.getClassName().equals(FileMapping.class.getName())
                && frame.getMethodName().equals("awaitFault")));
    }

    @Test
    void aFileWhoseCloseFailedIsNeverHandedOutAgainDead() throws Exception {
        AtomicInteger closeFailures = new AtomicInteger(1);
        Path path = dir.resolve("close.db");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k")),
                 SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                     @Override
                     public void close() throws IOException {
                         if (closeFailures.getAndDecrement() > 0) {
                             throw new IOException("injected: close failed");
                         }
                         super.close();
                     }
                 }))) {
            PagedFile file = cache.map(path, PAGE);
            write(file, 1, 11);
            IOException e = assertThrows(IOException.class, file::close);
            assertTrue(e.getMessage().contains("closing it failed"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> file.io(1, PagedFile.PF_SHARED_READ_LOCK));
            PagedFile again = cache.map(path, PAGE);
            assertNotSame(file, again, "the dead mapping must not be handed out again");
            assertEquals(11, read(again, 1));
            write(again, 2, 22);
            again.close();
        }
        try (PageCache cache = open(); PagedFile file = cache.map(path, PAGE)) {
            assertEquals(22, read(file, 2));
        }
    }

    // ---- leaks ------------------------------------------------------------------------------------

    @Test
    void anUnmappedFileIsCollectableThoughThisThreadUsedItsCursors() throws Exception {
        try (PageCache cache = open()) {
            PagedFile file = cache.map(dir.resolve("gc.db"), PAGE);
            write(file, 0, 1);
            read(file, 0);
            WeakReference<PagedFile> ref = new WeakReference<>(file);
            file.close();
            file = null;
            for (int i = 0; i < 100 && ref.get() != null; i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertNull(ref.get(), "an unmapped file must not be pinned by a cursor pool or the cache");
        }
    }

    @Test
    void failedOpensReleaseWhatTheyTook() throws Exception {
        long before = virtualMemoryKiB();
        assumeTrue(before > 0, "needs /proc/self/status");
        for (int i = 0; i < 16; i++) {
            try {
                PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1t"))).close();
                return; // this machine hands out a terabyte of address space: nothing to test here
            } catch (IllegalStateException cannotAllocate) {
                assertTrue(cannotAllocate.getMessage().contains("pagecache.memory"), cannotAllocate.getMessage());
            }
        }
        long grown = virtualMemoryKiB() - before;
        assertTrue(grown < 1 << 20, "16 failed opens grew the address space by " + grown + " KiB");
    }

    private static long virtualMemoryKiB() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return -1;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmSize:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    @Test
    void aSwapperThatFailsItsReadLeavesNothingLockedOrFaulting() throws Exception {
        AtomicBoolean fail = new AtomicBoolean(true);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k")),
                 SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                     @Override
                     public int read(long pageId, long address) throws IOException {
                         if (fail.get()) {
                             throw new AssertionError("injected: an Error, not an IOException");
                         }
                         return super.read(pageId, address);
                     }
                 }));
             PagedFile file = cache.map(dir.resolve("readerr.db"), PAGE)) {
            assertThrows(AssertionError.class, () -> write(file, 3, 1));
            assertEquals(io.ratatosk.pagecache.internal.TranslationTable.ABSENT, file.table().get(3));
            for (int f = 0; f < cache.frameCount(); f++) {
                assertTrue(cache.frames().isUnlocked(f), "frame " + f);
                assertEquals(PageKey.UNBOUND, cache.frames().binding(f), "frame " + f);
            }
            fail.set(false);
            write(file, 3, 33);
            assertEquals(33, read(file, 3));
        }
    }

    /**
     * An interrupted thread maps a file that does not exist yet, writes it and closes it: all of it works (the map
     * once failed with a bare ClosedByInterruptException, having created the file) and the interrupt is kept; the
     * warm-up profile its close writes is written too.
     */
    @Test
    void anInterruptedThreadMapsANewFileWritesItAndClosesIt() throws Exception {
        Path path = dir.resolve("interrupted.db");
        Thread.currentThread().interrupt();
        try {
            try (PageCache cache = open("pagecache.warmup.enabled", "true")) {
                PagedFile file = cache.map(path, PAGE);
                write(file, 0, 41);
                write(file, 1, 42);
                file.close();
            }
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
        } finally {
            Thread.interrupted();
        }
        assertTrue(Files.exists(io.ratatosk.pagecache.warmup.ResidentProfile.pathFor(path.toRealPath())), "the profile was written");
        try (PageCache cache = open(); PagedFile file = cache.map(path, PAGE, false)) {
            assertEquals(41, read(file, 0));
            assertEquals(42, read(file, 1));
        }
    }
}
