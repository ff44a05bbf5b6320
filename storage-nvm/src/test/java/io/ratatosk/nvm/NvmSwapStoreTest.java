package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NvmSwapStoreTest {
    private static final int PAGE = 512;
    private static final Path FILE_A = Path.of("a.db");
    private static final Path FILE_B = Path.of("b.db");

    private final OffHeapPages pages = new OffHeapPages(PAGE);
    private final InMemoryFiles files = new InMemoryFiles();

    @AfterEach
    void freePages() {
        pages.close();
    }

    /** No latency injection, start-gap moving every 3 writes so remapping is exercised everywhere. */
    private static NvmDeviceConfig.Builder tiny(int slots) {
        return NvmDeviceConfig.builder(PAGE).slots(slots).injectLatency(false).gapInterval(3);
    }

    private long page(long version) {
        long address = pages.allocate();
        pages.fill(address, version);
        return address;
    }

    private long[] fileContent(Path path, long pageId) {
        byte[] bytes = files.file(path).pages.get(pageId);
        if (bytes == null) {
            return null;
        }
        long[] words = new long[PAGE / Long.BYTES];
        for (int i = 0; i < words.length; i++) {
            words[i] = OffHeapPages.UNSAFE.getLong(bytes, (long) sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET + i * 8L);
        }
        return words;
    }

    private void assertFileHolds(Path path, long pageId, long version) {
        long[] expected = new long[PAGE / Long.BYTES];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = OffHeapPages.word(version, i * Long.BYTES);
        }
        assertArrayEquals(expected, fileContent(path, pageId), path + " page " + pageId + " version " + version);
    }

    /**
     * Waits for the workers even when the test failed: they write into off-heap pages and the
     * device, which the test frees afterwards; freeing under a running worker corrupts the heap.
     * Workers still running at Waits' bound fail the test, unless it failed already ({@code failed}, from the
     * caller's catch): then they are that failure's suppressed, not the failure reported in its place.
     */
    static void stop(ExecutorService pool, Throwable failed) throws InterruptedException {
        pool.shutdownNow();
        if (!pool.awaitTermination(Waits.BOUND_SECONDS, TimeUnit.SECONDS)) {
            AssertionError running = new AssertionError("workers did not stop within " + Waits.BOUND_SECONDS
                + " s (ratatosk.test.wait_s)");
            if (failed == null) {
                throw running;
            }
            failed.addSuppressed(running);
        }
    }

    // ---- durability ---------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(WritePolicy.class)
    void everyByteReachesTheFileThroughATinyNvm(WritePolicy policy, @TempDir Path dir) throws IOException {
        Path path = dir.resolve("store.db");
        NvmSwapStore store = new NvmSwapStore(tiny(8).writePolicy(policy).build(), new FileChannelFiles());
        PageSwapper swapper = store.create(path, 3, PAGE, true);
        FrameSimulation frames = new FrameSimulation(swapper, pages, 6, 11);
        long[] pageIds = new long[64];
        for (int i = 0; i < pageIds.length; i++) {
            pageIds[i] = i;
        }
        for (int step = 0; step < 4_000; step++) {
            frames.step(pageIds);
        }
        frames.evictAll();
        NvmTierStats stats = store.stats();
        store.checkInvariants();
        assertTrue(stats.swapIns() > 100, "faults served from NVM: " + stats.swapIns());
        assertTrue(stats.nvmEvictions() > 100, "slots reclaimed: " + stats.nvmEvictions());
        assertTrue(stats.device().remapMoves() > 0);
        store.close(); // closes the file too: makes everything durable

        try (PageSwapper check = new FileChannelFiles().create(path, 0, PAGE, false)) {
            long buffer = pages.allocate();
            for (long pageId : pageIds) {
                check.read(pageId, buffer);
                frames.verify(pageId, buffer, "file after close");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WritePolicy.class)
    void concurrentFaultsAndEvictionsOfDifferentPagesLoseNothing(WritePolicy policy) throws Exception {
        int threads = 4;
        NvmSwapStore store = new NvmSwapStore(tiny(8).writePolicy(policy).devices(2).build(), files);
        PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
        List<FrameSimulation> sims = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Throwable failed = null;
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                // the page cache never works on one page from two threads at once: give each thread its own pages
                long[] own = new long[24];
                for (int i = 0; i < own.length; i++) {
                    own[i] = t + (long) i * threads;
                }
                FrameSimulation sim = new FrameSimulation(swapper, pages, 3, 100 + t);
                sims.add(sim);
                done.add(pool.submit(() -> {
                    for (int step = 0; step < 3_000; step++) {
                        sim.step(own);
                    }
                    sim.evictAll();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
        } catch (Throwable t) {
            failed = t;
            throw t;
        } finally {
            stop(pool, failed);
        }
        store.checkInvariants();
        assertEquals(1, files.file(FILE_A).maxInFlight.get(), "never two writes of one page in flight");
        swapper.close();
        for (FrameSimulation sim : sims) {
            for (Map.Entry<Long, Long> e : sim.expected().entrySet()) {
                assertFileHolds(FILE_A, e.getKey(), e.getValue());
            }
        }
        store.close();
    }

    // ---- ordering -----------------------------------------------------------------------------

    /**
     * The tier's close whose file cannot be forced, over a file factory whose close throws a RuntimeException (a plug-in's
     * bug): the force's failure, which says a file may not be durable, is what the close throws, the factory's suppressed
     * in it. The factory's exception was thrown alone, and the force's failure lost.
     */
    @Test
    void aFactoryWhoseCloseThrowsDoesNotHideAFileTheTierCouldNotForce() throws IOException {
        PageSwapperFactory failing = files.wrapped((path, file) -> new ForwardingPageSwapper(file) {
            @Override
            public void force() throws IOException {
                throw new IOException("injected force failure");
            }
        }, () -> {
            throw new IllegalStateException("injected factory close failure");
        });
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), failing);
        store.create(FILE_A, 0, PAGE, true).evict(0, page(1), false); // a clean copy: nothing dirty held back
        IOException e = assertThrows(IOException.class, store::close);
        assertEquals("injected force failure", e.getMessage());
        assertEquals(1, e.getSuppressed().length, java.util.Arrays.toString(e.getSuppressed()));
        assertEquals("injected factory close failure", e.getSuppressed()[0].getMessage());
        store.close(); // closed: nothing more to do
    }

    /**
     * The tier's close where one file's force throws an Error (a plug-in's assertion): the files after it are still
     * made durable and closed, and the device freed. The Error ended the close's loop: the next file's dirty copy was
     * never written, and the device kept.
     */
    @Test
    void anErrorClosingOneFileDoesNotLeaveTheNextFilesDirtyPagesUnwritten() throws IOException {
        PageSwapperFactory failing = files.wrapped((path, file) -> !path.equals(FILE_A) ? file
            : new ForwardingPageSwapper(file) {
                @Override
                public void force() {
                    throw new AssertionError("injected force error of " + FILE_A);
                }
            }, () -> { });
        long liveBefore = NvmDevice.liveBytes();
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), failing);
        store.create(FILE_A, 0, PAGE, true).evict(0, page(1), false);
        store.create(FILE_B, 1, PAGE, true).evict(0, page(2), true); // dirty: only NVM has it
        AssertionError e = assertThrows(AssertionError.class, store::close);
        assertEquals("injected force error of " + FILE_A, e.getMessage());
        assertFileHolds(FILE_B, 0, 2);
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device was freed");
        store.close(); // closed: nothing more to do
    }

    /**
     * The tier's close where a file's close throws a RuntimeException that cannot be named (its message cannot be made:
     * the heap full, here an OutOfMemoryError from its getMessage): the files after it are still made durable and closed,
     * the device freed, and the file's failure thrown as it is. Naming it threw out of the close's loop: the next file's
     * dirty copy was never written, and the device kept.
     */
    @Test
    void aFilesFailureThatCannotBeNamedDoesNotEndTheClose() throws IOException {
        RuntimeException unnameable = new IllegalStateException() {
            @Override
            public String getMessage() {
                throw new OutOfMemoryError("injected: no heap left to name the failure");
            }
        };
        PageSwapperFactory failing = files.wrapped((path, file) -> !path.equals(FILE_A) ? file
            : new ForwardingPageSwapper(file) {
                @Override
                public void close() {
                    throw unnameable;
                }
            }, () -> { });
        long liveBefore = NvmDevice.liveBytes();
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), failing);
        store.create(FILE_A, 0, PAGE, true).evict(0, page(1), false);
        store.create(FILE_B, 1, PAGE, true).evict(0, page(2), true); // dirty: only NVM has it
        Throwable thrown = null;
        try {
            store.close();
        } catch (Throwable t) {
            thrown = t; // an OutOfMemoryError reaching JUnit would end the test JVM, and its message cannot be made
        }
        assertTrue(thrown == unnameable, "the close threw " + (thrown == null ? "nothing" : thrown.getClass().getName())
            + ", not the file's own failure as it is");
        assertFileHolds(FILE_B, 0, 2);
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device was freed");
        store.close(); // closed: nothing more to do
    }

    /**
     * The tier's close where a file cannot be made durable (its force fails) and the factory's close then throws an
     * Error: the Error came out bare, and the file's failure, the one the close was for, was lost with it.
     */
    @Test
    void anErrorClosingTheFactoryKeepsTheFileThatCouldNotBeMadeDurableInTheReport() throws IOException {
        PageSwapperFactory failing = files.wrapped((path, file) -> new ForwardingPageSwapper(file) {
            @Override
            public void force() throws IOException {
                throw new IOException("injected force failure of " + path);
            }
        }, () -> {
            throw new AssertionError("injected factory close error");
        });
        long liveBefore = NvmDevice.liveBytes();
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), failing);
        store.create(FILE_A, 0, PAGE, true).evict(0, page(1), false);
        AssertionError e = assertThrows(AssertionError.class, store::close);
        assertEquals("injected factory close error", e.getMessage());
        assertEquals(1, e.getSuppressed().length, "the file's failure is reported with it");
        assertEquals("injected force failure of " + FILE_A, e.getSuppressed()[0].getMessage());
        assertEquals(liveBefore, NvmDevice.liveBytes(), "the device was freed");
    }

    /** A slot out of range is named with the range; it got the JDK's "Index 4 out of bounds for length 4". */
    @Test
    void keyInSlotOutOfRangeNamesTheSlotAndTheRange() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            assertEquals(0, store.keyInSlot(3), "the last slot is in range, and empty");
            for (int bad : new int[] {-1, 4, Integer.MIN_VALUE}) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> store.keyInSlot(bad));
                assertEquals("NVM slot must be in [0, " + store.slots() + "): slot=" + bad, e.getMessage());
            }
        }
    }

    @Test
    void pageEvictedDirtyRefaultedDirtiedAndEvictedAgainReachesTheFileWithItsLastContent() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(2).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            swapper.evict(7, frame, true);                // v1 dirty in NVM
            assertTrue(store.isDirtyInNvm(0, 7));
            swapper.read(7, frame);                       // re-fault from NVM
            assertEquals(-1, pages.firstMismatch(frame, 1));
            pages.fill(frame, 2);
            swapper.evict(7, frame, true);                // v2 replaces v1 in NVM; the file still has nothing
            assertEquals(0, files.file(FILE_A).writes.get());
            swapper.read(7, frame);
            pages.fill(frame, 3);
            // the older copy leaves NVM while v3 is in the frame: v2 is written back ...
            swapper.evict(100, page(100), true);
            swapper.evict(101, page(101), true);
            swapper.evict(102, page(102), true);
            assertFalse(store.contains(0, 7));
            assertFileHolds(FILE_A, 7, 2);
            swapper.evict(7, frame, true);                // ... and v3 follows it
            swapper.force();
            assertFileHolds(FILE_A, 7, 3);
            List<String> log = files.file(FILE_A).writeLog;
            assertEquals(List.of("7:" + OffHeapPages.word(2, 0), "7:" + OffHeapPages.word(3, 0)),
                log.stream().filter(s -> s.startsWith("7:")).toList());
            store.checkInvariants();
        }
    }

    @Test
    void flushOfAPageRefaultedFromADirtyNvmCopySupersedesThatCopy() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            swapper.evict(5, frame, true);
            swapper.read(5, frame);
            pages.fill(frame, 2);
            swapper.write(5, frame);                      // flush v2 from the frame
            assertFalse(store.contains(0, 5), "the dirty v1 copy is older than the file now");
            swapper.force();
            swapper.close();
            assertFileHolds(FILE_A, 5, 2);
            assertEquals(1, files.file(FILE_A).writes.get(), "v1 never reaches the file");
        }
    }

    @Test
    void neverTwoWriteBacksOfOnePageInFlight() throws Exception {
        // Slow file writes of page 0 widen every window in which a write-back of page 0 (the clock
        // reclaiming its slot) and a flush of page 0 (a newer version) could overlap.
        files.hook = (file, pageId) -> {
            if (pageId == 0) {
                try {
                    Thread.sleep(3);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (NvmSwapStore store = new NvmSwapStore(tiny(2).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            long last = 0;
            Throwable failed = null;
            try {
                long frame = pages.allocate();
                long other = pages.allocate();
                for (int round = 1; round <= 30; round++) {
                    long v1 = round * 10L + 1;
                    long v2 = round * 10L + 2;
                    pages.fill(frame, v1);
                    swapper.evict(0, frame, true);            // v1 dirty in NVM
                    int r = round;
                    Future<?> churn = pool.submit(() -> {     // pushes page 0 out of NVM: write-back of v1
                        for (int i = 1; i <= 3; i++) {
                            pages.fill(other, r * 1000L + i);
                            swapper.evict(r * 10L + i, other, true);
                        }
                        return null;
                    });
                    Future<?> flush = pool.submit(() -> {     // faults v1 in, makes v2, flushes it
                        swapper.read(0, frame);
                        pages.fill(frame, v2);
                        swapper.write(0, frame);
                        return null;
                    });
                    churn.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                    flush.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                    last = v2;
                    assertFileHolds(FILE_A, 0, last);
                }
            } catch (Throwable t) {
                failed = t;
                throw t;
            } finally {
                stop(pool, failed);
            }
            assertEquals(1, files.file(FILE_A).maxInFlight.get());
            swapper.close();
            assertFileHolds(FILE_A, 0, last);
        }
    }

    // ---- costs --------------------------------------------------------------------------------

    @Test
    void knownSequenceGivesExactlyTheExpectedNvmReadsWritesAndWear() throws IOException {
        NvmDeviceConfig config = tiny(4).remapping(Remapping.NONE).build();
        try (NvmSwapStore store = new NvmSwapStore(config, files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = pages.allocate();
            for (int p = 0; p < 4; p++) {                 // 4 writes into the free slots 0..3, in clock order
                pages.fill(frame, p);
                swapper.evict(p, frame, true);
            }
            swapper.read(0, frame);                       // read 1
            swapper.evict(0, frame, false);               // clean, copy unchanged: no write
            swapper.read(1, frame);                       // read 2
            pages.fill(frame, 11);
            swapper.evict(1, frame, true);                // overwrite slot 1: write 5
            pages.fill(frame, 4);
            swapper.evict(4, frame, true);                // clock: a pass clears every reference bit, then
                                                          // reclaims slot 0 (read 3, page 0 to file), write 6
            NvmStats device = store.device().stats();
            assertEquals(3, device.reads());
            assertEquals(6, device.writes());
            assertEquals(2, store.device().wear(0));
            assertEquals(2, store.device().wear(1));
            assertEquals(1, store.device().wear(2));
            assertEquals(1, store.device().wear(3));
            assertEquals(config.readLatencyNanos() * 3 + config.writeLatencyNanos() * 6, device.modeledDeviceNanos());
            assertEquals(List.of("0:" + OffHeapPages.word(0, 0)), files.file(FILE_A).writeLog);
            NvmTierStats tier = store.stats();
            assertEquals(2, tier.swapIns());
            assertEquals(6, tier.swapOuts());
            assertEquals(1, tier.cleanEvictionsAbsorbed());
            assertEquals(6, tier.dirtyEvictionsAbsorbed());
            assertEquals(1, tier.writeBacks());
            assertEquals(1, tier.nvmEvictions());
            assertEquals(4, tier.dirtyPages());
            assertEquals(5, tier.fileWritesAvoided());
            assertTrue(store.contains(0, 4) && !store.contains(0, 0));
            store.checkInvariants();
        }
    }

    @ParameterizedTest
    @EnumSource(WritePolicy.class)
    void cleanEvictionOfAnUnchangedCopyCostsNoNvmWrite(WritePolicy policy) throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).writePolicy(policy).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(9);
            swapper.evict(3, frame, false);
            assertEquals(1, store.device().stats().writes(), "first clean eviction stores a copy");
            for (int i = 0; i < 5; i++) {
                swapper.read(3, frame);
                swapper.evict(3, frame, false);
            }
            assertEquals(1, store.device().stats().writes());
            assertEquals(5, store.stats().cleanEvictionsAbsorbed());
            assertEquals(0, files.file(FILE_A).reads.get(), "every fault came from NVM");
        }
    }

    @Test
    void writeThroughWritesTheFileAtEvictionAndKeepsOnlyCleanCopies() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).writePolicy(WritePolicy.WRITE_THROUGH).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            swapper.evict(2, frame, true);
            assertFileHolds(FILE_A, 2, 1);
            assertTrue(store.contains(0, 2));
            assertFalse(store.isDirtyInNvm(0, 2));
            swapper.read(2, frame);
            pages.fill(frame, 2);
            swapper.evict(2, frame, true);
            assertFileHolds(FILE_A, 2, 2);
            assertEquals(2, store.stats().writeThroughs());
            assertEquals(0, store.stats().dirtyPages());
            store.checkInvariants();
        }
    }

    @Test
    void forceWritesTheDirtyNvmPagesOfThatFileOnly() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(8).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            a.evict(0, page(10), true);
            a.evict(1, page(11), true);
            b.evict(0, page(20), true);
            a.force();
            assertFileHolds(FILE_A, 0, 10);
            assertFileHolds(FILE_A, 1, 11);
            assertEquals(1, files.file(FILE_A).forces.get());
            assertEquals(0, files.file(FILE_B).writes.get());
            assertTrue(store.isDirtyInNvm(1, 0));
            assertFalse(store.isDirtyInNvm(0, 0));
            assertTrue(store.contains(0, 0), "forced pages stay in NVM, clean");
            store.checkInvariants();
        }
        assertFileHolds(FILE_B, 0, 20); // closing the store closed b durably
    }

    // ---- errors -------------------------------------------------------------------------------

    @Test
    void injectedDeviceErrorDuringDirtyEvictionThrowsAndLosesNothing() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            // a page with no copy in NVM
            long frame = page(1);
            store.device().failNextWrites(1);
            assertThrows(IOException.class, () -> swapper.evict(1, frame, true));
            assertFalse(store.contains(0, 1));
            swapper.evict(1, frame, true);                // the caller kept it dirty and tries again later
            // a page whose older dirty copy is in NVM
            long other = page(20);
            swapper.evict(2, other, true);
            swapper.read(2, other);
            pages.fill(other, 21);
            store.device().failNextWrites(1);
            assertThrows(IOException.class, () -> swapper.evict(2, other, true));
            assertFalse(store.contains(0, 2), "the torn slot is dropped, never read or written back");
            assertFileHolds(FILE_A, 2, 21); // the dropped copy was dirty: the frame's newer version is in the file at once
            swapper.write(2, other);                      // the frame, still dirty, is flushed later
            // a clean page: the error costs only the copy
            store.device().failNextWrites(1);
            swapper.evict(3, page(30), false);
            assertFalse(store.contains(0, 3));
            store.checkInvariants();
            swapper.close();
            assertFileHolds(FILE_A, 1, 1);
            assertFileHolds(FILE_A, 2, 21);
            assertEquals(3, store.stats().deviceWriteErrors());
            assertEquals(3, store.device().stats().failedWrites());
        }
    }

    /**
     * A dirty copy torn by a failed NVM write whose frame's newer version could not be written to the file either: the
     * copy, the only holder of a version the file never got, is dropped, and a flush under way that counted on it must
     * not return as if the file had it. Its force succeeded, the file without the page.
     */
    @Test
    void aTornDirtyCopyWhoseRescueFailedFailsTheNextForce() throws IOException {
        tornDirtyCopyWhoseRescueThrows(new IOException("injected: a.db's disk fails"));
    }

    /**
     * As above, the file refusing the frame's version with a RuntimeException (a plug-in's bug) or an Error (an
     * OutOfMemoryError writing) rather than an IOException: that failure passed out of the eviction with nothing
     * recorded, and the next force succeeded with page 2 in neither NVM nor the file.
     */
    @Test
    void aTornDirtyCopyWhoseRescueFailsUncheckedFailsTheNextForce() throws IOException {
        for (RuntimeException unchecked : List.of(new UncheckedIOException(new IOException("injected: a.db's plug-in")),
            new IllegalStateException("injected: a.db's plug-in"))) {
            tornDirtyCopyWhoseRescueThrows(unchecked);
        }
        tornDirtyCopyWhoseRescueThrows(new OutOfMemoryError("injected: Java heap space writing a.db"));
    }

    private void tornDirtyCopyWhoseRescueThrows(Throwable refusal) throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = frameOverADirtyCopyTheNextEvictionTears(store, swapper);
            files.hook = (file, pageId) -> {
                if (refusal instanceof IOException e) {
                    throw e;
                }
                if (refusal instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) refusal;
            };
            Throwable evicting = assertThrows(Throwable.class, () -> swapper.evict(2, frame, true));
            if (refusal instanceof Error) {
                assertSame(refusal, evicting, "an Error passes as itself");
            } else {
                assertInstanceOf(IOException.class, evicting, "the eviction fails with the torn write: " + evicting);
            }
            files.hook = (file, pageId) -> {
            };
            assertFalse(store.contains(0, 2), "the torn slot is dropped");
            IOException lost = assertThrows(IOException.class, swapper::force, "a flush under way did not get page 2: "
                + refusal);
            assertTrue(lost.getMessage().contains("page 2 of a.db"), lost.getMessage());
            swapper.write(2, frame);                      // the frame, still dirty, is flushed later
            swapper.force();                              // reported once
            assertFileHolds(FILE_A, 2, 21);
            store.checkInvariants();
            swapper.close();
        }
    }

    /**
     * A force that runs while a torn dirty copy's rescue (the frame's newer version written to the file) is under way:
     * the tier dropped the copy before the rescue, so the force's scan passed over its slot without waiting, forced the
     * file and returned normally before the rescue's write had reached the file (a flush under way counting on the copy
     * told its page was durable), or before the rescue's failure was recorded for it (never reported to that flush).
     * The copy is now dropped once the rescue is over, so the force waits for it, then reports its failure or forces
     * its write.
     */
    @Test
    void aForceDuringATornDirtyCopysRescueWaitsForItsOutcome() throws Exception {
        forceDuringTheRescueOfATornDirtyCopy(true);
        forceDuringTheRescueOfATornDirtyCopy(false);
    }

    private void forceDuringTheRescueOfATornDirtyCopy(boolean rescueFails) throws Exception {
        CountDownLatch rescueEntered = new CountDownLatch(1);
        CountDownLatch rescueMayEnd = new CountDownLatch(1);
        Path path = rescueFails ? FILE_A : FILE_B; // a file of its own for each
        AtomicLong pageWritesAtTheForce = new AtomicLong(-1);
        PageSwapperFactory watchingForces = files.wrapped((file, swapper) -> new ForwardingPageSwapper(swapper) {
            @Override
            public void force() throws IOException {
                pageWritesAtTheForce.compareAndSet(-1, files.file(file).writesOf(2));
                super.force();
            }
        }, () -> { });
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), watchingForces);
        try {
            PageSwapper swapper = store.create(path, 0, PAGE, true);
            long frame = frameOverADirtyCopyTheNextEvictionTears(store, swapper);
            files.hook = (file, pageId) -> {
                rescueEntered.countDown();
                Waits.awaitQuietly(rescueMayEnd);
                if (rescueFails) {
                    throw new IOException("injected: a.db refuses page " + pageId);
                }
            };
            Thread evictor = daemon(() -> {
                try {
                    swapper.evict(2, frame, true);        // tears the copy: the frame's version 21 goes to the file
                } catch (IOException expected) {
                    // the torn write: the frame stays dirty
                }
            });
            evictor.start();
            Waits.await(rescueEntered, "the rescue began", evictor);
            AtomicReference<Throwable> forceOutcome = new AtomicReference<>();
            Thread forcing = daemon(swapper::force, forceOutcome);
            forcing.start();
            awaitEndedOrParked(forcing);
            rescueMayEnd.countDown();
            Waits.join(evictor, "the torn eviction ended");
            Waits.join(forcing, "the force ended");
            files.hook = (file, pageId) -> {
            };

            if (rescueFails) {
                Throwable lost = forceOutcome.get();
                assertInstanceOf(IOException.class, lost, "the force returned normally during the rescue that failed");
                assertTrue(lost.getMessage().contains("page 2 of " + path), lost.getMessage());
                swapper.write(2, frame);                  // the frame, still dirty, is flushed later
            } else {
                assertEquals(null, forceOutcome.get());
                assertEquals(1, pageWritesAtTheForce.get(), "the force ran before the rescue had written the page");
            }
            swapper.force();
            assertFileHolds(path, 2, 21);
            store.checkInvariants();
            swapper.close();
        } finally {
            rescueMayEnd.countDown(); // before the close, which waits for the eviction's latch
            files.hook = (file, pageId) -> {
            };
            store.close();
        }
    }

    /**
     * Page 2's version 20 dirty in NVM only, read back into a frame that now holds version 21, and the device's next write
     * failing: the frame's eviction tears the dirty copy. Returns the frame.
     */
    private long frameOverADirtyCopyTheNextEvictionTears(NvmSwapStore store, PageSwapper swapper) throws IOException {
        long frame = page(20);
        swapper.evict(2, frame, true);
        swapper.read(2, frame);
        pages.fill(frame, 21);
        store.device().failNextWrites(1);
        return frame;
    }

    /** Until the thread has ended, or parks on a page latch (waiting for the eviction that holds it). */
    private static void awaitEndedOrParked(Thread thread) throws InterruptedException {
        Waits.until(() -> {
            Thread.State state = thread.getState();
            return state == Thread.State.TERMINATED || (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                && java.util.Arrays.stream(thread.getStackTrace())
                .anyMatch(frame -> frame.getClassName().equals(PageLatch.class.getName()));
        }, thread + " ended or waited on a page latch", thread);
    }

    @Test
    void aVictimWhoseFileWriteFailsStaysDirtyInNvmAndTheEvictionBypassesToTheFile() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(1).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            a.evict(0, page(1), true);
            files.hook = (file, pageId) -> {
                if (file.equals(FILE_A)) {
                    throw new IOException("disk A failed");
                }
            };
            b.evict(0, page(2), true);                    // cannot reclaim A's page: goes straight to B's file
            assertFileHolds(FILE_B, 0, 2);
            assertTrue(store.isDirtyInNvm(0, 0));
            assertTrue(store.stats().writeBackErrors() >= 1);
            assertEquals(1, store.stats().bypasses());
            assertThrows(IOException.class, a::force, "the failure surfaces at A's flush");
            files.hook = (file, pageId) -> {
            };
            a.force();
            assertFileHolds(FILE_A, 0, 1);
            store.checkInvariants();
        }
    }

    /**
     * A tier full of one file's dirty pages while that file's disk fails: an eviction of another file's page tried the
     * write-back of every dirty copy, twice (the sweeps after the one clearing reference bits), each a device read and a
     * failing file write, before it bypassed; on nvme, 64 slots cost about 6 ms of device time per eviction, a tier of
     * the default 256m seconds. Now it tries one and passes over that file's dirty copies for the rest of its claim.
     */
    @Test
    void anEvictionIntoATierFullOfAFailingFilesDirtyPagesTriesOneWriteBack() throws IOException {
        int slots = 64;
        try (NvmSwapStore store = new NvmSwapStore(tiny(slots).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            for (long pageId = 0; pageId < slots; pageId++) {
                a.evict(pageId, page(pageId), true);
            }
            AtomicInteger failedWrites = new AtomicInteger();
            files.hook = (file, pageId) -> {
                if (file.equals(FILE_A)) {
                    failedWrites.incrementAndGet();
                    throw new IOException("disk A failed");
                }
            };
            b.evict(0, page(100), true);
            assertEquals(1, failedWrites.get(), "write-backs of the failing file tried by one eviction");
            assertEquals(1, store.stats().bypasses());
            assertFileHolds(FILE_B, 0, 100);
            assertEquals(slots, store.stats().dirtyPages(), "nothing of A was dropped");
            files.hook = (file, pageId) -> {
            };
            a.force();
            for (long pageId = 0; pageId < slots; pageId++) {
                assertFileHolds(FILE_A, pageId, pageId);
            }
            store.checkInvariants();
        }
    }

    /**
     * As above with two files on the failed disk, their dirty copies side by side in the slots: the claim passed over
     * only the file whose write-back failed last, so each failure of one file had it try the other's next copy again,
     * and the eviction tried every slot's write-back twice, as before the fix above, whenever more than one file failed.
     */
    @Test
    void anEvictionIntoATierFullOfTwoFailingFilesDirtyPagesTriesOneWriteBackOfEach() throws IOException {
        int slots = 64;
        Path fileC = Path.of("c.db");
        try (NvmSwapStore store = new NvmSwapStore(tiny(slots).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            PageSwapper c = store.create(fileC, 2, PAGE, true);
            for (long pageId = 0; pageId < slots; pageId++) {
                (pageId % 2 == 0 ? a : b).evict(pageId, page(pageId), true);
            }
            AtomicInteger failedWrites = new AtomicInteger();
            files.hook = (file, pageId) -> {
                if (!file.equals(fileC)) {
                    failedWrites.incrementAndGet();
                    throw new IOException("the disk of " + file + " failed");
                }
            };
            try {
                c.evict(0, page(100), true);
                assertEquals(2, failedWrites.get(), "write-backs of the failing files tried by one eviction");
                assertEquals(1, store.stats().bypasses());
                assertFileHolds(fileC, 0, 100);
                assertEquals(slots, store.stats().dirtyPages(), "nothing of A or B was dropped");
            } finally {
                files.hook = (file, pageId) -> { };
            }
            store.checkInvariants();
        }
    }

    @Test
    void aVictimWhoseFileWriteThrowsAnUncheckedErrorIsCountedStaysDirtyAndTheErrorReachesTheEvictor()
        throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(1).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            a.evict(0, page(1), true);
            files.hook = (file, pageId) -> {
                if (file.equals(FILE_A)) {
                    throw new IllegalStateException("driver bug in A's file system");
                }
            };
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> b.evict(0, page(2), true));
            assertEquals("driver bug in A's file system", thrown.getMessage());
            assertEquals(1, store.stats().writeBackErrors(), "an unchecked failure counts like an IOException");
            assertTrue(store.isDirtyInNvm(0, 0), "A's page was not written anywhere, so it stays dirty in NVM");
            assertEquals(1, store.stats().dirtyPages());
            store.checkInvariants();
            files.hook = (file, pageId) -> {
            };
            a.force();
            assertFileHolds(FILE_A, 0, 1);
            assertEquals(0, store.stats().dirtyPages());
            store.checkInvariants();
        }
    }

    @Test
    void statsCountResidentAndDirtyPagesAsTheSlotsHoldThem() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            a.evict(0, page(1), true);
            a.evict(1, page(2), false);
            b.evict(0, page(3), true);
            assertEquals(3, store.stats().residentPages());
            assertEquals(2, store.stats().dirtyPages());
            a.force();
            assertEquals(3, store.stats().residentPages());
            assertEquals(1, store.stats().dirtyPages());
            b.close();
            assertEquals(2, store.stats().residentPages());
            assertEquals(0, store.stats().dirtyPages());
            store.checkInvariants();
        }
    }

    /**
     * A fault whose file read fails read nothing: fileReads counted it before the read, so a read that failed and was
     * tried again counted two file reads for the one fault the page cache counts, and faults = swapIns + fileReads
     * (docs/nvm.md) no longer held.
     */
    @Test
    void aFileReadThatFailsIsNotCountedAsOne() throws IOException {
        AtomicInteger readsToFail = new AtomicInteger(1);
        PageSwapperFactory failingOnce = files.wrapped((path, file) -> new ForwardingPageSwapper(file) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (readsToFail.getAndDecrement() > 0) {
                    throw new IOException("injected read failure");
                }
                return super.read(pageId, address);
            }
        }, () -> { });
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), failingOnce)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            assertThrows(IOException.class, () -> swapper.read(3, frame));
            assertEquals(0, store.stats().fileReads(), "the failed read read nothing");
            swapper.read(3, frame);
            assertEquals(1, store.stats().fileReads(), "one fault, one file read");
        }
    }

    /**
     * A dirty page that bypasses a full tier and whose file write fails did not go to the file: bypasses counted it
     * before the write, so an eviction that failed so and was tried again counted two bypasses for one eviction.
     */
    @Test
    void aBypassWhoseFileWriteFailsIsNotCountedAsOne() throws IOException {
        AtomicInteger writesOfAToFail = new AtomicInteger(1);
        files.hook = (path, pageId) -> {
            if (path.equals(FILE_B) || writesOfAToFail.getAndDecrement() > 0) {
                throw new IOException("injected write failure of " + path);
            }
        };
        try (NvmSwapStore store = new NvmSwapStore(tiny(1).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            PageSwapper b = store.create(FILE_B, 1, PAGE, true);
            try {
                b.evict(0, page(1), true); // the one slot holds a dirty copy its file refuses: every claim passes it over
                assertThrows(IOException.class, () -> a.evict(5, page(2), true));
                assertEquals(0, store.stats().bypasses(), "the bypass wrote nothing");
                a.evict(5, page(2), true);
                assertEquals(1, store.stats().bypasses(), "one eviction, one bypass");
                assertFileHolds(FILE_A, 5, 2);
            } finally {
                files.hook = (path, pageId) -> { }; // b's copy goes to its file at the close
            }
        }
    }

    /**
     * A dirty copy torn by a failed NVM write has the frame's newer version written to the file in its place: a file
     * write the tier made for an absorbed dirty eviction, which no write counter recorded, so fileWritesAvoided
     * (dirtyEvictionsAbsorbed - writeBacks) counted one file write saved that was made.
     */
    @Test
    void aTornDirtyCopysRescueIsCountedAsTheWriteBackItIs() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = frameOverADirtyCopyTheNextEvictionTears(store, swapper);
            assertThrows(IOException.class, () -> swapper.evict(2, frame, true));
            assertEquals(1, files.file(FILE_A).writes.get(), "the rescue wrote the file");
            assertEquals(1, store.stats().writeBacks(), "the absorbed dirty copy reached the file, as its frame's version");
            assertEquals(0, store.stats().fileWritesAvoided(), "one dirty eviction absorbed, one file write made");
            swapper.evict(2, frame, true);               // tried again: absorbed
            swapper.force();                             // and written back
            assertEquals(2, files.file(FILE_A).writes.get());
            assertEquals(2, store.stats().writeBacks());
            assertEquals(0, store.stats().fileWritesAvoided(), "two absorbed, two written: none saved");
        }
    }

    /**
     * swapOuts >= dirtySwapOuts (dirtyEvictionsAbsorbed) always holds (docs/nvm.md), in a snapshot taken while pages are
     * evicted too: an eviction counted its absorption before its swap-out, and stats() read swapOuts before it, so a
     * snapshot between the two showed more dirty swap-outs than swap-outs.
     */
    @Test
    void aSnapshotDuringEvictionsNeverShowsMoreDirtySwapOutsThanSwapOuts() throws Exception {
        try (NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(4).injectLatency(false).build(),
            files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            swapper.evict(0, frame, true);
            AtomicLong seen = new AtomicLong(-1);
            AtomicInteger snapshots = new AtomicInteger();
            Thread reader = new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < deadline && seen.get() < 0) {
                    NvmTierStats stats = store.stats();
                    snapshots.incrementAndGet();
                    if (stats.dirtyEvictionsAbsorbed() > stats.swapOuts()) {
                        seen.set(stats.dirtyEvictionsAbsorbed() - stats.swapOuts());
                    }
                }
            });
            reader.start();
            while (reader.isAlive()) {
                for (int i = 0; i < 1000; i++) {
                    swapper.evict(0, frame, true); // over its own dirty copy: a device write, no file write
                }
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            assertEquals(-1, seen.get(), "a snapshot of " + snapshots.get() + " showed more dirty swap-outs than swap-outs");
        }
    }

    /**
     * writeBacks + dirtyCopiesGivenUp <= dirtyEvictionsAbsorbed in a snapshot taken while dirty copies are absorbed and
     * written back: each write-back (or copy given up) is counted after the absorption that made the copy dirty, but
     * stats() read the absorptions first, so a snapshot whose reader paused between the two reads counted write-backs
     * of absorptions it had not counted, and fileWritesAvoided (their difference, clamped at 0) dropped below what the
     * tier had saved, to 0 here, where every absorption is written back at once.
     */
    @Test
    void aSnapshotDuringWriteBacksNeverShowsMoreWriteBacksThanDirtyCopiesAbsorbed() throws Exception {
        try (NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(4).injectLatency(false).build(),
            files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long frame = page(1);
            swapper.evict(0, frame, true); // one absorption never written back: fileWritesAvoided is 1 from here on
            swapper.evict(1, frame, true);
            swapper.force(); // both written back, then page 0 absorbed again, not written back
            swapper.evict(0, frame, true);
            AtomicReference<String> seen = new AtomicReference<>();
            AtomicInteger snapshots = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        swapper.evict(1, frame, true); // absorbed, dirty
                        swapper.force(); // written back: page 1's copy, page 0's is written back too, then dirtied again
                        swapper.evict(0, frame, true);
                    }
                } catch (IOException e) {
                    seen.compareAndSet(null, e.toString());
                }
            });
            writer.start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < deadline && seen.get() == null) {
                    NvmTierStats stats = store.stats();
                    snapshots.incrementAndGet();
                    if (stats.writeBacks() + stats.dirtyCopiesGivenUp() > stats.dirtyEvictionsAbsorbed()) {
                        seen.compareAndSet(null, stats.toString());
                    }
                }
            } finally {
                stop.set(true);
                Waits.join(writer, "the writer");
            }
            assertNull(seen.get(), "a snapshot of " + snapshots.get() + " counted more write-backs than absorptions");
        }
    }

    // ---- file operations ------------------------------------------------------------------------

    @Test
    void vectoredFlushWritesEveryPageAndDropsTheirCopies() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(8).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            long[] frames = new long[5];
            for (int i = 0; i < frames.length; i++) {
                frames[i] = page(40 + i);
                swapper.evict(10 + i, frames[i], true);
                swapper.read(10 + i, frames[i]);
                pages.fill(frames[i], 50 + i);
            }
            swapper.write(10, frames, frames.length);
            for (int i = 0; i < frames.length; i++) {
                assertFileHolds(FILE_A, 10 + i, 50 + i);
                assertFalse(store.contains(0, 10 + i));
            }
            store.checkInvariants();
        }
    }

    @Test
    void pageCountCountsPagesThatOnlyNvmHoldsAndTruncateDropsCopiesPastTheEnd() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(8).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            swapper.write(0, page(1));
            swapper.evict(5, page(5), true);
            swapper.evict(2, page(2), false);
            assertEquals(6, swapper.pageCount(), "page 5 exists only in NVM so far");
            swapper.truncate(3);
            assertFalse(store.contains(0, 5));
            assertTrue(store.contains(0, 2));
            assertEquals(1, swapper.pageCount());
            assertEquals(3, files.file(FILE_A).truncatedTo);
            long frame = pages.allocate();
            swapper.read(5, frame);
            assertEquals(0L, OffHeapPages.UNSAFE.getLong(frame), "a truncated page reads as zeros");
            store.checkInvariants();
        }
    }

    @Test
    void aNegativeTruncateIsRefusedNamingItAndDropsNoDirtyCopy() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(8).build(), files)) {
            PageSwapper swapper = store.create(FILE_A, 0, PAGE, true);
            swapper.evict(3, page(3), true); // only NVM has it
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> swapper.truncate(-1));
            assertTrue(e.getMessage().contains("pageCount=-1") && e.getMessage().contains(FILE_A.toString()), e.getMessage());
            assertTrue(store.isDirtyInNvm(0, 3), "the refused truncate dropped nothing");
            assertEquals(4, swapper.pageCount());
            store.checkInvariants();
            swapper.close();
            assertFileHolds(FILE_A, 3, 3);
        }
    }

    @Test
    void closingAFileForgetsItsCopiesSoAReusedFileIdSeesNoStalePage() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            a.evict(0, page(1), true);
            a.evict(1, page(2), false);
            a.close();
            assertFileHolds(FILE_A, 0, 1);
            assertEquals(0, store.stats().residentPages());
            PageSwapper b = store.create(FILE_B, 0, PAGE, true);
            long frame = pages.allocate();
            assertEquals(0, b.read(0, frame));
            assertEquals(0L, OffHeapPages.UNSAFE.getLong(frame));
            store.checkInvariants();
        }
    }

    /**
     * An eviction whose copy the device refuses outright (here a null frame address, refused before anything is copied)
     * gives its claimed slot back: it stayed RESERVED, out of the clock's reach for good, and a tier of one slot then
     * bypassed every later eviction.
     */
    @Test
    void anEvictionTheDeviceRefusesGivesItsSlotBack() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(1).build(), files)) {
            PageSwapper a = store.create(FILE_A, 0, PAGE, true);
            assertThrows(IllegalArgumentException.class, () -> a.evict(0, 0L, false));
            store.checkInvariants();
            a.evict(1, page(1), false);
            assertTrue(store.contains(0, 1), "the one slot took the next eviction");
            assertEquals(0, store.stats().bypasses());
            a.close();
        }
    }

    @Test
    void filePageSizeLargerThanTheSlotIsRefused() {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> store.create(FILE_A, 0, PAGE * 2, true));
            assertTrue(e.getMessage().contains("pagecache.page_size"), e.getMessage());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aFileIdOutsideTheKeysRangeIsRefusedNamingItBeforeTheFileIsOpened() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            for (int fileId : new int[] {-1, PageKey.MAX_FILE_ID + 1, Integer.MAX_VALUE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.create(FILE_A, fileId, PAGE, true));
                assertTrue(e.getMessage().contains("fileId=" + fileId), e.getMessage());
            }
            assertTrue(files.files.isEmpty(), "no file was opened (and left open) for a refused file id");
            store.create(FILE_B, PageKey.MAX_FILE_ID, PAGE, true).close();
        }
    }

    /**
     * A file id the tier has mapped already is refused before the file is opened, naming the file under it: refused
     * after, the file was opened (created, with {@code create}) and closed again, and a failure of that close was thrown
     * in place of the refusal.
     */
    @Test
    void aFileIdAlreadyMappedIsRefusedNamingItsFileBeforeTheNewFileIsOpened() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            store.create(FILE_A, 3, PAGE, true);

            IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> store.create(FILE_B, 3, PAGE, true));

            assertTrue(refused.getMessage().contains("file id 3") && refused.getMessage().contains(FILE_A.toString()),
                refused.getMessage());
            assertFalse(files.files.containsKey(FILE_B), "b.db was not opened, nor created");
            store.create(FILE_B, 4, PAGE, true).close();
        }
    }

    /**
     * A tier needs its settings and the files behind it: built with no file factory it opened (its device's memory
     * taken), failed each map with a bare NullPointerException from inside, and its close with one, after freeing.
     */
    @Test
    void aNullConfigOrFileFactoryIsRefusedNamingItBeforeTheDeviceIsTaken() {
        long liveBefore = NvmDevice.liveBytes();
        NullPointerException noFiles = assertThrows(NullPointerException.class,
            () -> new NvmSwapStore(tiny(4).build(), null));
        assertTrue(noFiles.getMessage().contains("files"), noFiles.getMessage());
        NullPointerException noConfig = assertThrows(NullPointerException.class, () -> new NvmSwapStore(null, files));
        assertTrue(noConfig.getMessage().contains("config"), noConfig.getMessage());
        assertEquals(liveBefore, NvmDevice.liveBytes(), "no device memory kept");
    }

    /** A null file is refused naming it, before the file factory is asked: it got the null, and failed as it could. */
    @Test
    void aNullFileIsRefusedNamingItBeforeTheFileFactoryIsAsked() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            NullPointerException refused = assertThrows(NullPointerException.class, () -> store.create(null, 0, PAGE, true));
            assertTrue(String.valueOf(refused.getMessage()).contains("file"), "names the argument: " + refused.getMessage());
            store.create(FILE_A, 0, PAGE, true).close(); // the id stays free
        }
    }

    @Test
    void everySwapInIsReportedToTheListener() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            List<String> heard = new ArrayList<>();
            store.swapInListener((fileId, pageId, slot) -> heard.add(fileId + "/" + pageId + "@" + slot));
            PageSwapper swapper = store.create(FILE_A, 2, PAGE, true);
            long frame = page(1);
            swapper.evict(8, frame, true);
            swapper.read(8, frame);
            swapper.read(9, frame);                       // from the file: not a swap-in
            assertEquals(List.of("2/8@" + store.slotOf(2, 8)), heard);
        }
    }

    @Test
    void aPrefetcherSeesWhichPageEachSlotHoldsAndTheReadsInProgress() throws IOException {
        try (NvmSwapStore store = new NvmSwapStore(tiny(4).build(), files)) {
            assertEquals(4, store.slots());
            PageSwapper swapper = store.create(FILE_A, 2, PAGE, true);
            long frame = page(1);
            swapper.evict(8, frame, true);
            int slot = store.slotOf(2, 8);
            assertEquals(io.ratatosk.core.PageKey.of(2, 8), store.keyInSlot(slot));
            for (int other = 0; other < 4; other++) {
                if (other != slot) {
                    assertEquals(0, store.keyInSlot(other), "slot " + other + " is free");
                }
            }
            int[] inFlight = new int[1];
            store.swapInListener((fileId, pageId, s) -> inFlight[0] = store.readsInFlight());
            swapper.read(8, frame);
            assertEquals(0, inFlight[0], "the swap-in is over when the listener hears of it");
            assertEquals(0, store.readsInFlight());
        }
    }

    /**
     * While a close makes a file durable (its force held up here), a second close and a create wait for it: the second
     * close ran the whole close beside the first and returned while the first was still closing (both then freed the
     * scratch buffers, a double free), and the create, behind the first close's sweep of the files, handed out a file
     * left open on the closed device.
     */
    @Test
    void aSecondCloseAndACreateWaitForACloseUnderWay() throws Exception {
        CountDownLatch forceEntered = new CountDownLatch(1);
        CountDownLatch letForceGo = new CountDownLatch(1);
        AtomicInteger factoryCloses = new AtomicInteger();
        PageSwapperFactory slowForce = files.wrapped((path, file) -> new ForwardingPageSwapper(file) {
            @Override
            public void force() throws IOException {
                if (forceEntered.getCount() > 0) {
                    forceEntered.countDown();
                    Waits.awaitQuietly(letForceGo);
                }
                super.force();
            }
        }, factoryCloses::incrementAndGet);
        NvmSwapStore store = new NvmSwapStore(tiny(4).build(), slowForce);
        store.create(FILE_A, 1, PAGE, true).evict(0, page(1), true);
        AtomicReference<Throwable> firstFailed = new AtomicReference<>();
        Thread first = daemon(store::close, firstFailed);
        first.start();
        Waits.await(forceEntered, "the first close forces the file", first);
        AtomicReference<Throwable> secondFailed = new AtomicReference<>();
        Thread second = daemon(store::close, secondFailed);
        AtomicReference<Object> created = new AtomicReference<>();
        Thread creator = daemon(() -> {
            try {
                created.set(store.create(FILE_B, 0, PAGE, true)); // file id 0: behind the first close's sweep
            } catch (Throwable t) {
                created.set(t);
            }
        });
        second.start();
        creator.start();
        // The first close stays held (a daemon thread) if the others do not wait: releasing it would free twice.
        awaitBlockedOrEnded(second);
        assertTrue(second.isAlive(), "the second close returned while the first was still closing");
        awaitBlockedOrEnded(creator);
        assertTrue(creator.isAlive(), "a create during the close returned " + created.get());

        letForceGo.countDown();
        Waits.join(first, "the first close ended");
        Waits.join(second, "the second close ended");
        Waits.join(creator, "the create ended");
        assertEquals(null, firstFailed.get());
        assertEquals(null, secondFailed.get());
        assertTrue(created.get() instanceof IllegalStateException, "refused: " + created.get());
        assertEquals("NVM swap store is closed", ((Throwable) created.get()).getMessage());
        assertFileHolds(FILE_A, 0, 1);
        assertEquals(1, factoryCloses.get(), "the file factory closed once");
    }

    /** A daemon thread running {@code body}, what it throws set in {@code outcome}. */
    private static Thread daemon(Step body, AtomicReference<Throwable> outcome) {
        return daemon(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
    }

    /** A call that may throw. */
    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private static Thread daemon(Runnable body) {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        return thread;
    }

    private static void awaitBlockedOrEnded(Thread thread) throws InterruptedException {
        Waits.until(() -> thread.getState() == Thread.State.BLOCKED || thread.getState() == Thread.State.TERMINATED,
            thread + " waited (BLOCKED) or ended", thread);
    }
}
