package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.warmup.ProfileException;
import io.ratatosk.pagecache.warmup.ResidentProfile;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Warm restarts: the pages resident when a file was unmapped come back after the next map, from its
 * profile, into free frames; a truncated, corrupt or stale profile is ignored with one warning; a profile
 * written while writers run is a valid one; a crash that left a temporary profile behind leaves the old
 * one usable.
 */
class WarmupTest {
    private static final int PAGE = 4096;
    private static final int FILE_PAGES = 600;
    /** Every third page of the file: what the first run reads, so what its profile holds. */
    private static final int PROFILED = FILE_PAGES / 3;

    @TempDir
    Path dir;
    private Path file;
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    private static PageCacheConfig config(boolean warmup, String memory) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", memory, "pagecache.page_size", "4k",
            "pagecache.warmup.enabled", String.valueOf(warmup), "pagecache.jmx.enabled", "false"));
    }

    private PageCache open(String memory) {
        PageCache cache = PageCache.open(config(true, memory));
        cache.warmer().warnings(warnings::add);
        return cache;
    }

    /** A file of FILE_PAGES pages, and a profile of every third page: what a run that read those leaves. */
    @BeforeEach
    void fileAndProfile() throws Exception {
        file = dir.resolve("store.db");
        try (PageCache cache = PageCache.open(config(false, "8m")); PagedFile paged = cache.map(file, PAGE)) {
            for (long p = 0; p < FILE_PAGES; p++) {
                try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(0, p);
                }
            }
        }
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE)) {
            awaitIdle(cache);
            for (long p = 0; p < FILE_PAGES; p += 3) {
                try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                }
            }
        }
        assertEquals(PROFILED, ResidentProfile.readFor(file).size());
        assertEquals(List.of(), warnings);
    }

    private static void awaitIdle(PageCache cache) {
        try {
            Waits.until(() -> cache.warmer().isIdle(), "the warmer's reheats ended", Waits.threadNamed("ratatosk-warmup"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the warmer", e);
        }
    }

    /** Reads the profiled pages; returns the faults that took. */
    private static long readProfiledPages(PageCache cache, PagedFile paged) throws IOException {
        long before = cache.stats().faults();
        for (long p = 0; p < FILE_PAGES; p += 3) {
            try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
                long value;
                do {
                    value = c.getLong(0);
                } while (c.shouldRetry());
                assertEquals(p, value);
            }
        }
        return cache.stats().faults() - before;
    }

    /**
     * An Error from the swapper's read of one profiled page (a plug-in's bug, an InternalError from a damaged mapped
     * buffer) left the reheat's step before it moved past that page: the worker reported it, paused and read the same page
     * again, for as long as the file stayed mapped. The handler heard of it a hundred times a second, the file's profile
     * was never rewritten (its reheat never finished), and every reheat queued behind it waited. Now the Error ends that
     * file's reheat, as an IOException does, and is reported once.
     */
    @Test
    void anErrorFromTheSwapperEndsThatFilesReheatAndIsReportedOnce() throws Exception {
        long failingPage = 30;
        AtomicInteger reported = new AtomicInteger();
        PageSwapperFactory failing = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (pageId == failingPage && Thread.currentThread().getName().equals("ratatosk-warmup")) {
                    throw new InternalError("injected: reading page " + pageId);
                }
                return super.read(pageId, address);
            }
        });
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        // Counts this test's Error only: the handler is the JVM's, and a thread another test left running reports there too.
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (String.valueOf(t.getMessage()).startsWith("injected: reading page")) {
                    reported.incrementAndGet();
                    return;
                }
            }
        });
        try (PageCache cache = PageCache.open(config(true, "8m"), failing)) {
            cache.warmer().warnings(warnings::add);
            try (PagedFile paged = cache.map(file, PAGE, false)) {
                // Generous deadlines on conditions: on a loaded machine the worker may not run for seconds. The Error goes to
                // the handler after the step that ended the reheat, so after the warmer turns idle, not before.
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (!cache.warmer().isIdle() || reported.get() == 0) {
                    if (System.nanoTime() - deadline > 0) {
                        fail("after a minute the warm-up is " + (cache.warmer().isIdle() ? "idle" : "still reheating")
                            + "; the Error was reported " + reported.get() + " times");
                    }
                    Thread.sleep(1);
                }
                assertEquals(failingPage / 3, cache.stats().io().pagesReheated(), "the pages before the failing one");
                assertEquals(1, reported.get(), "the Error is reported once");
                assertEquals(PROFILED, readProfiledPages(cache, paged) + failingPage / 3, "the rest fault in on demand");
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    /**
     * A truncate while the file is being reheated (a store cutting a log's tail after its recovery, at the start): the
     * reheat's next prefetch met the file's gate closed, took the refusal for a full cache or an unmap, and ended the
     * reheat there, so the rest of the profile, every page of it still in the file, faulted in on demand. It takes up the
     * reheat once the truncate is done now. The warmer's read of a profiled page holds on until the truncate has closed
     * the gate, and the truncate's cut holds on until the warmer is idle (it was, at once) or two seconds passed.
     */
    /** Waits until the warmer is idle or two seconds passed, whichever comes first: no failure either way. */
    private static void idleOrTwoSeconds(PageCache cache) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!cache.warmer().isIdle() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void aTruncateDuringTheReheatDoesNotEndIt() throws Exception {
        long heldPage = 30;
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<PageCache> opened = new AtomicReference<>();
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory truncateDuringReheat = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (pageId == heldPage && Thread.currentThread().getName().equals("ratatosk-warmup")) {
                    reading.countDown();
                    try {
                        Waits.until(() -> mapped.get() != null && mapped.get().mapping().isGateClosed(),
                            "the truncate closed the gate");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }

            @Override
            public void truncate(long pageCount) throws IOException {
                idleOrTwoSeconds(opened.get());
                super.truncate(pageCount);
            }
        });
        try (PageCache cache = PageCache.open(config(true, "8m"), truncateDuringReheat)) {
            opened.set(cache);
            cache.warmer().warnings(warnings::add);
            try (PagedFile paged = cache.map(file, PAGE, false)) {
                mapped.set(paged);
                Waits.await(reading, "the warmer's read of page " + heldPage);
                paged.truncate(FILE_PAGES - 1); // cuts the last page, which the profile does not list
                awaitIdle(cache);
                assertEquals(List.of(), warnings);
                assertEquals(PROFILED, cache.stats().io().pagesReheated(), "every profiled page the file still has");
            }
        }
    }

    /**
     * A close refused while the file is being reheated (a write cursor still holds a page): the reheat met the file
     * closed while the unmap ran and ended, so the file stayed mapped with the rest of its profile never reheated, and
     * the periodic write then replaced the whole profile with the pages reheated so far. The reheat waits for the unmap's
     * outcome now, and goes on after a refused one. The warmer's read of a profiled page holds on until the unmap began,
     * and the unmap's write of the held page until the warmer is idle (it was, at once) or two seconds passed.
     */
    @Test
    void aRefusedCloseDuringTheReheatDoesNotEndIt() throws Exception {
        long heldPage = 30;
        long writtenPage = 1; // not profiled
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<PageCache> opened = new AtomicReference<>();
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory closeDuringReheat = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (pageId == heldPage && Thread.currentThread().getName().equals("ratatosk-warmup")) {
                    reading.countDown();
                    try {
                        Waits.until(() -> mapped.get() != null && mapped.get().mapping().isClosed(), "the unmap began");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                if (pageId == writtenPage && mapped.get() != null && mapped.get().mapping().isClosed()) {
                    idleOrTwoSeconds(opened.get());
                }
                super.write(pageId, address);
            }
        });
        try (PageCache cache = PageCache.open(config(true, "8m"), closeDuringReheat)) {
            opened.set(cache);
            cache.warmer().warnings(warnings::add);
            PagedFile paged = cache.map(file, PAGE, false);
            mapped.set(paged);
            Waits.await(reading, "the warmer's read of page " + heldPage);
            try (PageCursor writer = paged.io(writtenPage, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(writer.next());
                writer.putLong(8, 1);
                assertThrows(IllegalStateException.class, paged::close, "a write cursor holds page " + writtenPage);
            }
            assertFalse(paged.mapping().isClosed(), "the refused close left the file mapped");
            awaitIdle(cache);
            assertEquals(List.of(), warnings);
            assertEquals(PROFILED, cache.stats().io().pagesReheated(), "every profiled page");
            paged.close();
        }
    }

    /**
     * A store truncates its file and closes it while the file is being reheated: the close kept the profile being
     * reheated (so that a restart in the middle of a reheat keeps a whole profile), which counted the pages the file had
     * before the truncate, and the next map took it for the profile of a file that shrank since: a warning, and nothing
     * reheated. The profile kept is cut to the file's new length now, with that length. The warmer's read of page 0 holds
     * on until the truncate has closed the gate, and its read of page 30 until the unmap began.
     */
    @Test
    void aTruncateAndACloseDuringTheReheatLeaveAProfileOfTheFileAsItIsNow() throws Exception {
        long cut = FILE_PAGES / 2;
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory holding = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (Thread.currentThread().getName().equals("ratatosk-warmup") && (pageId == 0 || pageId == 30)) {
                    try {
                        Waits.until(() -> mapped.get() != null && (pageId == 0 ? mapped.get().mapping().isGateClosed()
                            : mapped.get().mapping().isClosed()), pageId == 0 ? "the truncate began" : "the unmap began");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }
        });
        try (PageCache cache = PageCache.open(config(true, "8m"), holding)) {
            cache.warmer().warnings(warnings::add);
            PagedFile paged = cache.map(file, PAGE, false);
            mapped.set(paged);
            paged.truncate(cut);
            paged.close();
        }
        assertEquals(List.of(), warnings);
        ResidentProfile profile = ResidentProfile.readFor(file);
        assertEquals(cut, profile.filePages());
        assertEquals(cut / 3, profile.size(), "the profiled pages the file still has");
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            assertEquals(List.of(), warnings);
            assertEquals(cut / 3, cache.stats().io().pagesReheated());
        }
    }

    /**
     * As above, with a profile of more pages than the cache has frames (written by a larger cache): the reheat keeps
     * only the profile's first page ids, one per frame, and the profile rewritten cut to the file's new length was made
     * of those alone, so the pages after them, still in the file, were lost from it for good (a restart with the larger
     * cache reheated a profile of one frame count of pages). The rewrite cuts the whole profile now.
     */
    @Test
    void aTruncateDuringTheReheatOfAProfileLargerThanTheCacheKeepsTheProfilesPagesTheFileHas() throws Exception {
        long cut = FILE_PAGES - 100;
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory holding = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (Thread.currentThread().getName().equals("ratatosk-warmup") && (pageId == 0 || pageId == 30)) {
                    try {
                        Waits.until(() -> mapped.get() != null && (pageId == 0 ? mapped.get().mapping().isGateClosed()
                            : mapped.get().mapping().isClosed()), pageId == 0 ? "the truncate began" : "the unmap began");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }
        });
        long inTheFile = Arrays.stream(ResidentProfile.readFor(file).pages()).filter(p -> p < cut).count();
        try (PageCache cache = PageCache.open(config(true, "256k"), holding)) {
            cache.warmer().warnings(warnings::add);
            Assumptions.assumeTrue(cache.frameCount() < inTheFile, "a profile of more pages than frames");
            PagedFile paged = cache.map(file, PAGE, false);
            mapped.set(paged);
            paged.truncate(cut);
            paged.close();
        }
        assertEquals(List.of(), warnings);
        ResidentProfile profile = ResidentProfile.readFor(file);
        assertEquals(cut, profile.filePages());
        assertEquals(inTheFile, profile.size(), "every profiled page the file still has, not one frame count of them");
    }

    /**
     * As above, with a profile of far more page ids than the cache has frames (1,000,000 for 64): the rewrite at the
     * close read the whole profile back into the heap, 8 bytes an id and again for its cut copy, on the closing thread
     * under the mapping lock (and under the warmer's, which every map and unmap waits for), where the map keeps no more
     * ids than the frames. The cut is streamed from the profile into its new one now: buffers only. The warmer's read of
     * page 0 holds on until the truncate has closed the gate, and its read of page 3 until the unmap began.
     */
    @Test
    void aTruncateDuringTheReheatOfAProfileOfFarMorePagesThanFramesCutsItWithoutReadingItIntoTheHeap() throws Exception {
        int listed = 1_000_000;
        long cut = FILE_PAGES - 100;
        long[] ids = new long[listed];
        Arrays.setAll(ids, i -> i);
        Object key = FileRegistry.identityOf(file.toRealPath());
        new ResidentProfile(PAGE, FILE_PAGES, String.valueOf(key), ids).writeFor(file);
        ids = null;
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory holding = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (Thread.currentThread().getName().equals("ratatosk-warmup") && (pageId == 0 || pageId == 3)) {
                    try {
                        Waits.until(() -> mapped.get() != null && (pageId == 0 ? mapped.get().mapping().isGateClosed()
                            : mapped.get().mapping().isClosed()), pageId == 0 ? "the truncate began" : "the unmap began");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }
        });
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (PageCache cache = PageCache.open(config(true, "256k"), holding)) {
            cache.warmer().warnings(warnings::add);
            PagedFile paged = cache.map(file, PAGE, false);
            mapped.set(paged);
            paged.truncate(cut);
            long before = threads.getCurrentThreadAllocatedBytes();
            paged.close();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < listed, "closing a file whose profile of " + listed + " page ids was cut, for a cache of "
                + cache.frameCount() + " frames, allocated " + allocated + " bytes");
        }
        assertEquals(List.of(), warnings);
        ResidentProfile profile = ResidentProfile.readFor(file);
        assertEquals(cut, profile.filePages());
        assertEquals(cut, profile.size(), "every profiled page the file still has");
        assertEquals(cut - 1, profile.pages()[(int) cut - 1]);
    }

    /**
     * A store truncates its file during the reheat, writes it past the cut again and closes it: the profile rewritten cut
     * at the close was cut at the file's length on disk, which the close's flush had not yet grown (the length the profile
     * records, for a crash), so it lost the profiled pages the store had written again, which the file holds once closed.
     * The page ids are cut at the cache's count now; the length recorded is still the one on disk.
     */
    @Test
    void aTruncateAndAGrowthDuringTheReheatKeepTheProfiledPagesTheClosedFileHas() throws Exception {
        long cut = FILE_PAGES / 2;
        long grown = cut + 150;
        AtomicReference<PagedFile> mapped = new AtomicReference<>();
        PageSwapperFactory holding = SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (Thread.currentThread().getName().equals("ratatosk-warmup") && (pageId == 0 || pageId == 30)) {
                    try {
                        Waits.until(() -> mapped.get() != null && (pageId == 0 ? mapped.get().mapping().isGateClosed()
                            : mapped.get().mapping().isClosed()), pageId == 0 ? "the truncate began" : "the unmap began");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(pageId, address);
            }
        });
        try (PageCache cache = PageCache.open(config(true, "8m"), holding)) {
            cache.warmer().warnings(warnings::add);
            PagedFile paged = cache.map(file, PAGE, false);
            mapped.set(paged);
            paged.truncate(cut);
            for (long p = cut; p < grown; p++) {
                try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(0, p);
                }
            }
            paged.close();
        }
        assertEquals(grown * PAGE, Files.size(file));
        assertEquals(List.of(), warnings);
        ResidentProfile profile = ResidentProfile.readFor(file);
        assertEquals((grown + 2) / 3, profile.size(), "the profiled pages the closed file has");
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            assertEquals(List.of(), warnings);
            assertEquals((grown + 2) / 3, cache.stats().io().pagesReheated());
        }
    }

    @Test
    void aGoodProfileReheatsItsPagesSoTheyHit() throws IOException {
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            assertEquals(PROFILED, cache.stats().io().pagesReheated());
            assertEquals(0, readProfiledPages(cache, paged), "every profiled page was resident");
            assertEquals(0, cache.stats().faults());
        }
        assertEquals(List.of(), warnings);
    }

    @Test
    void theReheatStopsAtTheEvictorsReserveAndNeverEvicts() throws IOException {
        // 64 frames, keep_free 32 at this size: the reheat fills 32 frames and stops.
        try (PageCache cache = open("256k"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            PageCacheStats stats = cache.stats();
            assertEquals(cache.config().frames() - cache.config().keepFree(), stats.io().pagesReheated(), stats.toString());
            assertEquals(0, stats.evictions());
        }
    }

    @Test
    void aTruncatedProfileIsIgnoredWithOneWarning() throws IOException {
        Path profile = ResidentProfile.pathFor(file);
        byte[] bytes = Files.readAllBytes(profile);
        Files.write(profile, Arrays.copyOf(bytes, bytes.length / 2));
        assertIgnoredWithOneWarning("truncated");
    }

    @Test
    void aCorruptProfileIsIgnoredWithOneWarning() throws IOException {
        Path profile = ResidentProfile.pathFor(file);
        byte[] bytes = Files.readAllBytes(profile);
        bytes[bytes.length / 2] ^= 0x5A;
        Files.write(profile, bytes);
        assertIgnoredWithOneWarning("corrupt");
    }

    @Test
    void aStaleProfileOfAReplacedFileIsIgnoredWithOneWarning() throws IOException {
        Path copy = dir.resolve("copy.db");
        Files.copy(file, copy);
        Files.delete(file);
        Files.move(copy, file); // same name and content, another file: its profile is not this file's
        assertIgnoredWithOneWarning("stale");
    }

    @Test
    void aProfileOfAFileThatShrankIsIgnoredWithOneWarning() throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(10L * PAGE);
        }
        assertIgnoredWithOneWarning("stale");
    }

    /**
     * The warnings go to the host's logging, whose handler may throw: that failure came out of the warm-up's calls at the
     * map and the unmap, so a corrupt profile failed the map of its file (IllegalStateException from the handler), and a
     * profile path the unmap could not write failed the file's close, all for a hint. Now the map and the close go on,
     * and the warning goes to standard error.
     */
    @Test
    void aLogHandlerThatThrowsOnAWarningFailsNeitherTheMapNorTheUnmap() throws Exception {
        Path profile = ResidentProfile.pathFor(file);
        byte[] bytes = Files.readAllBytes(profile);
        bytes[bytes.length / 2] ^= 0x5A;
        Files.write(profile, bytes);
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("io.ratatosk.pagecache.warmup");
        java.util.logging.Handler throwing = new ThrowingLogHandler();
        log.addHandler(throwing);
        try (PageCache cache = PageCache.open(config(true, "8m"))) {
            PagedFile paged = cache.map(file, PAGE, false); // warns of the corrupt profile
            assertEquals(PROFILED, readProfiledPages(cache, paged), "no reheat from a corrupt profile: each read faults");
            Files.delete(profile);
            Files.createDirectory(profile); // the unmap cannot write the profile there, and warns
            paged.close();
            assertTrue(paged.mapping().isClosed(), "the file is unmapped");
            Files.delete(profile);
        } finally {
            log.removeHandler(throwing);
        }
    }

    private void assertIgnoredWithOneWarning(String why) throws IOException {
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains(why) && warnings.get(0).contains(file.getFileName().toString()),
                warnings.get(0));
            assertEquals(0, cache.stats().io().pagesReheated());
        }
        assertEquals(1, warnings.size(), "one warning, and the close writes a fresh profile: " + warnings);
    }

    /**
     * A profile that lists far more pages than this cache has frames: one written by a larger cache (the operator
     * lowered pagecache.memory), or a hostile one whose page ids run past the file's end. The map read every page id
     * into the heap, twice over (the profile's array and the reheat's copy), 16 bytes a page for a cache that can reheat
     * at most its frames. It keeps the first frames' worth now, and reheats as before.
     */
    @Test
    void aProfileOfFarMorePagesThanFramesTakesNoMoreHeapThanTheFrames() throws Exception {
        int listed = 1_000_000;
        long[] pages = new long[listed];
        Arrays.setAll(pages, i -> i);
        Object key = FileRegistry.identityOf(file.toRealPath());
        new ResidentProfile(PAGE, FILE_PAGES, String.valueOf(key), pages).writeFor(file);
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (PageCache cache = open("256k")) {
            long before = threads.getCurrentThreadAllocatedBytes();
            try (PagedFile paged = cache.map(file, PAGE, false)) {
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(allocated < listed, "mapping a file whose profile lists " + listed + " pages, for a cache of "
                    + cache.frameCount() + " frames, allocated " + allocated + " bytes");
                awaitIdle(cache);
                assertEquals(List.of(), warnings);
                assertEquals(cache.frameCount() - cache.config().keepFree(), cache.stats().io().pagesReheated());
            }
        }
    }

    /** Pages a store adds past the first run's end: flushed before a crash, then as many again that are not. */
    private static final int GROWN = 100;

    /**
     * A store whose file grows crashes: its last profile was written with pages in the cache past the file's end on
     * disk. The profile recorded the cache's page count, which the file after the crash falls short of, so the next map
     * took the profile for one of a file that had since shrunk and reheated nothing, with a warning that the file has
     * fewer pages than it had. It records the file's own page count now: the pages hot at the crash come back as far as
     * the file holds them (the grown pages that were flushed too), without a warning.
     */
    @Test
    void aCrashWhileTheFileGrowsKeepsTheProfileOfThePagesTheFileHolds() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "64m", GrowThenCrash.class, file.toString());
        assertEquals(0, child.status(), child.output());
        assertTrue(child.output().contains("profiled"), child.output());
        assertEquals((FILE_PAGES + GROWN) * (long) PAGE, Files.size(file), "the flushed pages, and none after them");
        ResidentProfile crashed = ResidentProfile.readFor(file);
        assertEquals(FILE_PAGES + GROWN, crashed.filePages(), "the pages on disk");
        assertEquals(FILE_PAGES + 2 * GROWN - 1, crashed.pages()[crashed.size() - 1],
            "the pages written into the cache alone are listed, past the count");
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            awaitIdle(cache);
            assertEquals(List.of(), warnings);
            assertEquals(PROFILED + GROWN, cache.stats().io().pagesReheated());
            assertEquals(FILE_PAGES + GROWN - 1, paged.getLastPageId(), "the reheat read no page past the end");
            assertEquals(0, readProfiledPages(cache, paged), "every profiled page was resident");
        }
        assertEquals((FILE_PAGES + GROWN) * (long) PAGE, Files.size(file), "the reheat grew the file");
    }

    /**
     * Maps the store, reads the first run's pages (reheated), grows the file by {@link #GROWN} pages and flushes, grows
     * it as much again without a flush, writes the profiles as the periodic write does, and halts: a crash.
     */
    static final class GrowThenCrash {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            PageCache cache = PageCache.open(config(true, "8m"));
            PagedFile paged = cache.map(file, PAGE, false);
            awaitIdle(cache); // a file under reheat is not profiled
            for (long p = FILE_PAGES; p < FILE_PAGES + 2 * GROWN; p++) {
                if (p == FILE_PAGES + GROWN) {
                    paged.flush();
                }
                try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    if (!c.next()) {
                        throw new AssertionError("no page " + p);
                    }
                    c.putLong(0, p);
                }
            }
            cache.warmer().writeProfiles();
            System.out.println("profiled");
            System.out.flush();
            Runtime.getRuntime().halt(0); // no close: nothing more is written
        }
    }

    /**
     * Crashes left writes cut short, never renamed, under the profile's temporary names: the old profile is used, the
     * map removes the leftover of a crash long ago (one stayed beside the store for good), and one of a crash minutes
     * ago, which may as well be another process's write in progress, is left and written around.
     */
    @Test
    void aCrashThatLeftATemporaryProfileLeavesTheOldOneUsable() throws Exception {
        byte[] profile = Files.readAllBytes(ResidentProfile.pathFor(file));
        Path longAgo = Files.write(dir.resolve("store.db.cacheprof.0.tmp"), Arrays.copyOf(profile, 7));
        Files.setLastModifiedTime(longAgo, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
            - TimeUnit.DAYS.toMillis(1)));
        Path recent = Files.write(dir.resolve("store.db.cacheprof.1.tmp"), Arrays.copyOf(profile, 7));
        try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
            assertFalse(Files.exists(longAgo), "the map removed what a crash long ago left");
            awaitIdle(cache);
            assertEquals(PROFILED, cache.stats().io().pagesReheated());
        }
        assertEquals(List.of(), warnings);
        assertEquals(PROFILED, ResidentProfile.readFor(file).size(), "the next profile replaced the old one");
        assertTrue(Files.exists(recent), "a recent one is left");
    }

    /**
     * A store may name a file of its own {@code <other file>.cacheprof} (or {@code .cacheprof.tmp}), mapped beside the
     * other file, whose first bytes are zeros (a fresh or sparse store file's) or which has nothing on disk yet (its pages
     * not flushed): the store's file keeps every page. Where the profile goes it is not written, with a warning; the
     * temporary file of a profile has a name of its own, so a store's file of the old fixed name is never touched (it
     * was: cut to the profile and renamed away, when it began with zeros or was empty).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {".cacheprof", ".cacheprof.tmp", ".cacheprof.tmp unflushed"})
    void aStoresOwnFileWhereTheProfileWouldGoIsNeverReplaced(String variant) throws Exception {
        String suffix = variant.split(" ")[0];
        boolean flushed = !variant.endsWith("unflushed");
        Path own = dir.resolve(file.getFileName() + suffix);
        try (PageCache cache = open("8m")) {
            PagedFile store = cache.map(file, PAGE, false);
            awaitIdle(cache);
            Files.deleteIfExists(own); // the store's profile, read: from here on the store's own file of that name
            PagedFile ownFile = cache.map(own, PAGE);
            for (long p = 0; p < 4; p++) {
                try (PageCursor c = ownFile.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(8, 5000 + p); // the first 8 bytes stay zero, as a store's header may
                }
            }
            if (flushed) {
                ownFile.flush();
            }
            awaitIdle(cache);
            store.close(); // writes the store's profile: not over the file mapped beside it
            if (suffix.equals(ResidentProfile.SUFFIX)) {
                assertEquals(1, warnings.size(), warnings.toString());
                assertTrue(warnings.get(0).contains(own.toString()) && warnings.get(0).contains("not a resident-page profile"),
                    warnings.get(0));
            } else {
                assertEquals(List.of(), warnings);
                assertEquals(PROFILED, ResidentProfile.readFor(file).size(), "the store's profile was written all the same");
            }
            for (long p = 4; p < 8; p++) { // written after the profile: still reach the file
                try (PageCursor c = ownFile.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    c.putLong(8, 5000 + p);
                }
            }
            ownFile.close();
        }
        assertEquals(8L * PAGE, Files.size(own));
        try (PageCache cache = PageCache.open(config(false, "8m")); PagedFile ownFile = cache.map(own, PAGE, false)) {
            for (long p = 0; p < 8; p++) {
                try (PageCursor c = ownFile.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    long head;
                    long value;
                    do {
                        head = c.getLong(0);
                        value = c.getLong(8);
                    } while (c.shouldRetry());
                    assertEquals(0, head, "page " + p);
                    assertEquals(5000 + p, value, "page " + p);
                }
            }
        }
    }

    /**
     * Something at the profile's path that is no regular file: a named pipe (opened to read, it waits for a writer for
     * ever: the map hung, holding the mapping lock, and so did the unmap that wrote the profile), or a sparse file
     * larger than a byte array (its read threw an OutOfMemoryError out of the map, which left the file mapped with a
     * reference nobody held). Each is ignored with one warning, and left as it is.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"named pipe", "huge sparse file", "folder"})
    void aProfilePathThatHoldsNoProfileFileIsIgnoredWithoutHangingOrFailingTheMap(String what) throws Exception {
        Path profile = ResidentProfile.pathFor(file);
        Files.delete(profile);
        switch (what) {
            case "named pipe" -> {
                int status;
                try {
                    status = new ProcessBuilder("mkfifo", profile.toString()).start().waitFor();
                } catch (IOException e) {
                    status = -1;
                }
                Assumptions.assumeTrue(status == 0, "no mkfifo here to make a named pipe");
            }
            case "huge sparse file" -> {
                try (RandomAccessFile sparse = new RandomAccessFile(profile.toFile(), "rw")) {
                    sparse.write("RTSKPROF".getBytes(StandardCharsets.US_ASCII));
                    sparse.setLength(3L << 30);
                }
            }
            default -> Files.createDirectory(profile);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "map-and-close");
            thread.setDaemon(true); // a hung map must not keep the test JVM alive
            return thread;
        });
        try {
            Future<Long> run = executor.submit(() -> {
                try (PageCache cache = open("8m"); PagedFile paged = cache.map(file, PAGE, false)) {
                    awaitIdle(cache);
                    assertEquals(0, cache.stats().io().pagesReheated());
                    return readProfiledPages(cache, paged);
                }
            });
            assertEquals(PROFILED, run.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "every page faulted: nothing was reheated");
        } catch (TimeoutException e) {
            if (what.equals("named pipe")) {
                Files.newOutputStream(profile).close(); // lets the hung open go on
            }
            fail("the map or the close of " + file + " hangs on the " + what + " at " + profile);
        } finally {
            executor.shutdownNow();
        }
        assertTrue(warnings.size() >= 1 && warnings.get(0).contains("ignoring the resident-page profile"), warnings.toString());
        assertTrue(warnings.stream().allMatch(w -> w.contains(file.toString())), warnings.toString());
        assertTrue(Files.exists(profile, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(profile) || what.startsWith("huge"),
            "left as it is");
    }

    /**
     * Two caches that map one file (in two JVMs: one JVM refuses a second cache's map) both write its profile: each
     * through a temporary file of its own, so the profile a restart finds is always one of theirs, whole. With one
     * temporary name for all, one writer cut and rewrote the file the other was about to rename: an empty or torn profile
     * went into place, and the other's rename found no file. The other JVM's warmer is a thread writing the profile as
     * a warmer does ({@link ResidentProfile#writeFor}).
     */
    @Test
    void twoCachesWritingOneFilesProfileNeverLeaveATornOne() throws Exception {
        try (PageCache first = open("8m"); PagedFile one = first.map(file, PAGE, false)) {
            awaitIdle(first);
            ResidentProfile othersProfile = ResidentProfile.readFor(file);
            AtomicBoolean stop = new AtomicBoolean();
            List<String> bad = new CopyOnWriteArrayList<>();
            Thread reader = reporting(bad, () -> {
                while (!stop.get()) {
                    try {
                        ResidentProfile.readFor(file);
                    } catch (ProfileException e) {
                        bad.add(e.getMessage());
                    }
                }
            });
            Thread[] writers = {reporting(bad, () -> writeProfiles(first, 300)), reporting(bad, () -> {
                for (int i = 0; i < 300; i++) {
                    othersProfile.writeFor(file);
                }
            })};
            reader.start();
            try {
                for (Thread writer : writers) {
                    writer.start();
                }
                for (Thread writer : writers) {
                    Waits.join(writer, "a profile writer");
                }
            } finally {
                stop.set(true); // also where a writer hung: the reader read profiles for the rest of the run
            }
            Waits.join(reader, "the profile reader");
            assertEquals(0, bad.size(), "profiles read while two caches wrote them, e.g. " + bad.stream().limit(3).toList());
            assertEquals(List.of(), warnings);
            assertEquals(PROFILED, ResidentProfile.readFor(file).size());
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir, "*" + ".tmp")) {
            assertFalse(left.iterator().hasNext(), "no temporary profile is left behind");
        }
    }

    /** What a thread of a test runs, throwing anything. */
    private interface Body {
        void run() throws Exception;
    }

    /**
     * A thread that runs {@code body} and adds whatever it throws to {@code bad}: a thread's uncaught failure (a read of a
     * torn profile failing other than as a ProfileException, say) went only to stderr, and the test passed.
     */
    private static Thread reporting(List<String> bad, Body body) {
        return new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                bad.add(Thread.currentThread().getName() + " threw " + t);
            }
        });
    }

    private static void writeProfiles(PageCache cache, int times) {
        for (int i = 0; i < times; i++) {
            cache.warmer().writeProfiles();
        }
    }

    /**
     * A store deletes a file it mapped (scratch space), or renames it (writes {@code x.tmp}, renames it to
     * {@code x.db}): no profile is written under the name the file no longer has. One was: litter beside no file, and
     * with write-then-rename a profile of {@code x.tmp} that the next {@code x.tmp}, another file, found stale, with a
     * warning, every cycle.
     */
    @Test
    void aFileDeletedOrRenamedWhileMappedLeavesNoProfileUnderItsOldName() throws Exception {
        Path scratch = dir.resolve("scratch.db");
        Path written = dir.resolve("x.tmp");
        Path renamed = dir.resolve("x.db");
        for (int cycle = 0; cycle < 2; cycle++) {
            try (PageCache cache = open("8m")) {
                for (Path path : List.of(scratch, written)) {
                    try (PagedFile paged = cache.map(path, PAGE); PageCursor c = paged.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(c.next());
                        c.putLong(0, 1);
                        PagedFile again = cache.map(path, PAGE); // held open past the delete and the rename
                        assertEquals(paged, again);
                    }
                }
                Files.delete(scratch);
                Files.move(written, renamed, StandardCopyOption.REPLACE_EXISTING);
                cache.warmer().writeProfiles(); // the periodic write
            } // and the unmap's
            assertFalse(Files.exists(ResidentProfile.pathFor(scratch)), "a profile of a deleted file");
            assertFalse(Files.exists(ResidentProfile.pathFor(written)), "a profile under the name the file had");
        }
        assertEquals(List.of(), warnings);
    }

    @Test
    void aProfileWrittenWhileWritersRunIsValid() throws Exception {
        Map<String, String> flags = new HashMap<>(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k",
            "pagecache.jmx.enabled", "false"));
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags)); PagedFile paged = cache.map(file, PAGE, false)) {
            cache.warmer().warnings(warnings::add);
            awaitIdle(cache);
            Thread[] writers = new Thread[2];
            for (int t = 0; t < writers.length; t++) {
                int seed = t;
                writers[t] = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    try {
                        while (!stop.get()) {
                            long p = random.nextLong(2L * FILE_PAGES); // grows the file too
                            try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                                if (c.next()) {
                                    c.putLong(8, p);
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                writers[t].start();
            }
            try {
                for (int round = 0; round < 30; round++) {
                    cache.warmer().writeProfiles();
                    ResidentProfile profile = ResidentProfile.readFor(file);
                    long[] pages = profile.pages();
                    // Racy by design: a frame evicted and reused during the walk may show twice, so no exact bound.
                    assertTrue(pages.length > 0, "round " + round + ": an empty profile");
                    for (int i = 0; i < pages.length; i++) {
                        assertTrue(pages[i] < profile.filePages() + 2L * FILE_PAGES, "page " + pages[i]);
                        assertTrue(i == 0 || pages[i] > pages[i - 1]);
                    }
                }
            } finally {
                stop.set(true);
                for (Thread writer : writers) {
                    Waits.join(writer, "a page writer");
                }
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(List.of(), warnings);
    }

    @Test
    void withWarmupOffNoProfileIsWrittenOrRead() throws IOException {
        Files.delete(ResidentProfile.pathFor(file));
        try (PageCache cache = PageCache.open(config(false, "8m")); PagedFile paged = cache.map(file, PAGE, false)) {
            readProfiledPages(cache, paged);
        }
        assertTrue(!Files.exists(ResidentProfile.pathFor(file)));
    }

    @Test
    void theWarmupThreadEndsWithTheCacheAndAReheatEndsWithItsFile() throws IOException {
        Set<Thread> before = SwapPluginMisuseTest.threadsNow();
        PageCache cache = open("8m");
        try (PagedFile paged = cache.map(file, PAGE, false)) {
            paged.getLastPageId();
        } // unmapped: a reheat still under way stops at its next page
        assertTrue(warmupThreads(before) > 0);
        cache.close();
        assertEquals(0, warmupThreads(before), "no warm-up thread outlives the cache");
        assertTrue(cache.stats().io().pagesReheated() <= PROFILED);
    }

    /** The warm-up threads alive that were not in {@code before}: this cache's, not a cache's another test left open. */
    private static long warmupThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("ratatosk-warmup") && t.isAlive() && !before.contains(t)).count();
    }
}
