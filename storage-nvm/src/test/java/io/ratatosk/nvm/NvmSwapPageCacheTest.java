package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.NvmCacheStats;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.internal.TranslationTable;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page cache with {@code pagecache.swap=nvm}: pages go from a tiny frame pool into NVM and out of
 * NVM into the file, and whatever the tier does, every byte written through a cursor is in the file
 * after close, as a cache without the tier reads it back.
 */
class NvmSwapPageCacheTest {
    private static final int PAGE = 4096;
    private static final long[] BODY = new long[PageContent.bodyWords(PAGE)];

    @TempDir
    Path dir;

    private static Map<String, String> nvmFlags(int frames, int nvmSlots, String writePolicy) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(frames * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(nvmSlots * PAGE));
        flags.put("pagecache.nvm.write_policy", writePolicy);
        flags.put("pagecache.nvm.inject_latency", "false");
        return flags;
    }

    private static void write(PagedFile file, long pageId, long version) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            PageContent.write(c, pageId, version);
        }
    }

    private static long read(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next(), "page " + pageId + " exists");
            return PageContent.readValidated(c, pageId, BODY);
        }
    }

    /** Opens the file without the tier and checks every page holds its expected version (-1: never written). */
    private void verifyWithoutNvm(Path path, long[] expected) throws IOException {
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.swap", "file"));
        try (PageCache cache = PageCache.open(plain); PagedFile file = cache.map(path, PAGE, false)) {
            assertNull(cache.tier());
            assertEquals(NvmCacheStats.NONE, cache.stats().nvm());
            for (int p = 0; p < expected.length; p++) {
                assertEquals(expected[p], read(file, p), "page " + p + " after reopening without NVM");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void everyByteWrittenThroughFramesAndNvmIsInTheFileAfterClose(String writePolicy) throws IOException {
        int frames = 8;
        int filePages = 64;
        Path path = dir.resolve("durable.db");
        long[] versions = new long[filePages];
        Arrays.fill(versions, -1);
        SplittableRandom random = new SplittableRandom(5);
        PageCacheStats stats;
        NvmTierStats tier;
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(nvmFlags(frames, 16, writePolicy)))) {
            PagedFile file = cache.map(path, PAGE);
            for (int p = 0; p < filePages; p++) {
                write(file, p, versions[p] = 0); // 64 pages through 8 frames and 16 slots: into NVM and out of it
            }
            for (int op = 0; op < 3000; op++) {
                int p = random.nextInt(filePages);
                if (random.nextBoolean()) {
                    write(file, p, ++versions[p]); // re-dirtying a page re-faulted from NVM or from the file
                } else {
                    assertEquals(versions[p], read(file, p), "page " + p + " read back through the tier");
                }
                if (op % 500 == 499) {
                    file.flush();
                }
            }
            stats = cache.stats();
            tier = ((NvmSwapStore) cache.tier()).stats();
            file.close();
        }
        verifyWithoutNvm(path, versions);
        NvmCacheStats nvm = stats.nvm();
        assertTrue(nvm.swapOuts() > 0 && nvm.swapIns() > 0, "pages went into NVM and came back: " + stats);
        assertTrue(tier.nvmEvictions() > 0, "NVM, smaller than the file, evicted pages of its own: " + tier);
        if (writePolicy.equals("write-back")) {
            assertTrue(nvm.dirtySwapOuts() > 0 && nvm.writeBacks() > 0, "dirty pages left NVM for the file: " + stats);
        } else {
            assertEquals(0, nvm.dirtySwapOuts(), "write-through keeps NVM clean");
            assertEquals(0, nvm.writeBacks());
            assertTrue(tier.writeThroughs() > 0, tier.toString());
        }
    }

    @ParameterizedTest(name = "NVM of {0} slots, {1}")
    @CsvSource({"64, write-back", "2, write-back", "64, write-through", "2, write-through"})
    void aPageEvictedDirtyRefaultedDirtiedAndEvictedAgainEndsInTheFileWithItsLastContent(int nvmSlots, String writePolicy)
        throws IOException {
        Map<String, String> flags = nvmFlags(2, nvmSlots, writePolicy);
        flags.put("pagecache.evictor.enabled", "false");
        // The test scripts page 7's eviction by a pass of 30 other pages through the 2 frames: a usage clock
        // evicts it. The default may switch to a frequency-admitting expert within its first window, which
        // rightly keeps a page written every round over pages read once a round.
        flags.put("pagecache.policy", "muninn");
        Path path = dir.resolve("ordering.db");
        long[] versions = new long[40];
        Arrays.fill(versions, -1);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags)); PagedFile file = cache.map(path, PAGE)) {
            for (int round = 0; round < 5; round++) {
                write(file, 7, ++versions[7]);
                for (int other = 10; other < 40; other++) { // 30 other pages through 2 frames: page 7 leaves them
                    if (versions[other] < 0) {
                        write(file, other, versions[other] = 0);
                    } else {
                        assertEquals(versions[other], read(file, other));
                    }
                }
                assertEquals(TranslationTable.ABSENT, PageCacheInternals.tableEntry(file, 7), "page 7 was evicted from the frames");
                if (nvmSlots == 64) {
                    assertTrue(((NvmSwapStore) cache.tier()).contains(PageCacheInternals.fileId(file), 7), "page 7 went to NVM");
                    assertEquals(writePolicy.equals("write-back"), ((NvmSwapStore) cache.tier()).isDirtyInNvm(PageCacheInternals.fileId(file), 7));
                }
                long swapInsBefore = cache.stats().nvm().swapIns();
                assertEquals(versions[7], read(file, 7), "re-faulted, from NVM or from the file");
                if (nvmSlots == 64) {
                    assertEquals(swapInsBefore + 1, cache.stats().nvm().swapIns(), "page 7 came back from NVM");
                }
            }
        }
        verifyWithoutNvm(path, Arrays.copyOf(versions, 40));
    }

    @Test
    void theCountersAgreeWithEachOther() throws IOException {
        Map<String, String> flags = nvmFlags(16, 48, "write-back");
        flags.put("pagecache.nvm.read_latency", "2us");
        flags.put("pagecache.nvm.write_latency", "3us");
        Path path = dir.resolve("counters.db");
        SplittableRandom random = new SplittableRandom(9);
        PageCacheStats stats;
        NvmTierStats tier;
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            PagedFile file = cache.map(path, PAGE);
            long[] versions = new long[160];
            for (int op = 0; op < 4000; op++) {
                int p = random.nextInt(160);
                if (random.nextInt(3) == 0) {
                    write(file, p, ++versions[p]);
                } else if (p <= file.getLastPageId()) {
                    read(file, p);
                }
            }
            // Counters are read one after another, not as one snapshot: read them once the file is closed, when
            // no eviction of its pages can be between the tier's count and the cache's.
            file.close();
            stats = cache.stats();
            tier = ((NvmSwapStore) cache.tier()).stats();
        }
        NvmCacheStats nvm = stats.nvm();
        String all = stats + "\n" + tier;
        assertTrue(nvm.writes() >= nvm.swapOuts(), "every swap-out is an NVM write: " + all);
        assertTrue(nvm.swapOuts() >= nvm.dirtySwapOuts(), all);
        assertTrue(nvm.dirtySwapOuts() > 0 && nvm.writeBacks() > 0, all);
        assertTrue(stats.evictionWrites() >= nvm.dirtySwapOuts(), "a dirty swap-out is a dirty eviction from the frames: " + all);
        assertEquals(stats.evictions(), nvm.swapOuts() + nvm.cleanEvictionsAbsorbed() + tier.bypasses(),
            "every eviction from the frames wrote NVM, cost nothing, or bypassed it: " + all);
        assertEquals(stats.faults(), nvm.swapIns() + tier.fileReads(), "every fault read NVM or the file: " + all);
        assertEquals(nvm.swapIns(), nvm.fileReadsAvoided());
        assertEquals(nvm.writes() * PAGE, nvm.bytesWritten(), all);
        assertEquals(nvm.reads() * PAGE, nvm.bytesRead(), all);
        assertTrue(nvm.reads() >= nvm.swapIns(), "swap-ins, plus the reads of write-backs and slot moves: " + all);
        assertEquals(nvm.reads() * 2_000 + nvm.writes() * 3_000, nvm.modeledDeviceNanos(), "operations x configured latency");
        assertTrue(nvm.wearMax() >= nvm.wearMean() && nvm.wearMean() > 0, all);
        assertTrue(nvm.energyJoules() > 0, all);
        assertEquals(0, nvm.dirtySkips(), "write-aware eviction is off");
    }

    @Test
    void anInjectedDeviceErrorDuringSwapOutKeepsThePageInItsFrameDirtyAndIsReported() throws IOException {
        Map<String, String> flags = nvmFlags(2, 16, "write-back");
        flags.put("pagecache.evictor.enabled", "false");
        Path path = dir.resolve("error.db");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags)); PagedFile file = cache.map(path, PAGE)) {
            NvmSwapStore tier = ((NvmSwapStore) cache.tier());
            write(file, 0, 1);
            write(file, 1, 1); // both frames hold dirty pages
            tier.device().failNextWrites(1);
            IOException e = assertThrows(IOException.class, () -> write(file, 2, 0));
            assertTrue(e.getMessage().contains("failed; the page stays dirty in the cache"), e.getMessage());
            assertEquals(1, cache.stats().evictionErrors());
            assertEquals(1, tier.stats().deviceWriteErrors());
            assertEquals(0, tier.stats().swapOuts());
            for (int p = 0; p < 2; p++) {
                int entry = PageCacheInternals.tableEntry(file, p);
                assertTrue(entry > 0, "page " + p + " is still in a frame");
                assertTrue(PageCacheInternals.frames(cache).isModified(entry - 1), "page " + p + " is still dirty");
                assertFalse(tier.contains(PageCacheInternals.fileId(file), p), "no torn copy of page " + p + " is left in NVM");
            }
            write(file, 2, 0); // the device works again: page 2 faults in
            assertEquals(1, cache.stats().nvm().dirtySwapOuts(), "a dirty page went to NVM this time");
            write(file, 0, 2);
            write(file, 1, 2);
        }
        verifyWithoutNvm(path, new long[] {2, 2, 0});
    }

    /**
     * A file whose close fails closes all the same (as close(2) does) and reports it; the page cache keeps the
     * file registered and closes it again later. Through the tier that second close once forced the closed
     * file, which threw "no IO after close()" at every retry, so the cache could never close.
     */
    @Test
    void aFileWhoseCloseFailedOnceIsClosedAgainAndTheCacheCloses() throws IOException {
        Map<String, String> flags = nvmFlags(4, 16, "write-back");
        Path path = dir.resolve("close-fails.db");
        AtomicInteger closeFailures = new AtomicInteger(1);
        FileSwapperFactory real = new FileSwapperFactory();
        PageSwapperFactory failingClose = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(real.create(file, fileId, filePageSize, create)) {
                    @Override
                    public void close() throws IOException {
                        super.close();
                        if (closeFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            throw new IOException("close failed after closing the file");
                        }
                    }
                };
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        PageCache cache = PageCache.open(PageCacheConfig.parse(flags), failingClose);
        try {
            PagedFile file = cache.map(path, PAGE);
            for (int p = 0; p < 8; p++) {
                write(file, p, p + 1); // more pages than frames: some go into NVM, dirty
            }
            IOException e = assertThrows(IOException.class, file::close);
            assertTrue(e.getMessage().contains("close failed after closing the file"), e.getMessage());
        } finally {
            cache.close();
        }
        verifyWithoutNvm(path, new long[] {1, 2, 3, 4, 5, 6, 7, 8});
    }

    /**
     * A file whose force keeps failing after its unmap wrote it out (the disk went away as it closed) leaves no dirty
     * page in NVM: the cache's close closes its tier all the same, device and file included, and reports the failure.
     * The tier kept its device (the whole capacity, off-heap) and the file open for the life of the JVM, waiting for
     * another close that the closed cache never makes; a RuntimeException from the force did so whatever NVM held.
     */
    @ParameterizedTest(name = "unchecked={0}")
    @ValueSource(booleans = {false, true})
    void aFileThatCannotBeForcedAtCloseDoesNotKeepTheTiersDeviceOrTheFileOpen(boolean unchecked) throws IOException {
        Path path = dir.resolve("force-fails.db");
        AtomicInteger forcesLeft = new AtomicInteger(Integer.MAX_VALUE);
        AtomicInteger fileCloses = new AtomicInteger();
        FileSwapperFactory real = new FileSwapperFactory();
        PageSwapperFactory failingForce = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(real.create(file, fileId, filePageSize, create)) {
                    @Override
                    public void force() throws IOException {
                        if (forcesLeft.getAndDecrement() <= 0) {
                            IOException failure = new IOException("injected force failure");
                            if (unchecked) {
                                throw new UncheckedIOException(failure);
                            }
                            throw failure;
                        }
                        super.force();
                    }

                    @Override
                    public void close() throws IOException {
                        fileCloses.incrementAndGet();
                        super.close();
                    }
                };
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        PageCache cache = PageCache.open(PageCacheConfig.parse(nvmFlags(4, 16, "write-back")), failingForce);
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(path, PAGE);
        for (int p = 0; p < 8; p++) {
            write(file, p, p + 1); // more pages than frames: some go into NVM, dirty
        }
        forcesLeft.set(1); // the unmap's force, which writes NVM's dirty pages back; the tier's own at close fails
        assertThrows(IOException.class, file::close);
        assertEquals(0, tier.stats().dirtyPages(), "the unmap wrote NVM's dirty pages to the file");

        IOException e = assertThrows(IOException.class, cache::close);
        assertTrue(cache.isClosed());
        assertTrue(e.getMessage().contains("injected force failure") || hasCause(e, "injected force failure"), e.toString());
        try (OffHeapPages pages = new OffHeapPages(PAGE)) {
            long buffer = pages.allocate();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> tier.device().read(0, buffer, PAGE));
            assertEquals("NVM device is closed", refused.getMessage(), "the tier's device was freed");
        }
        assertEquals(1, fileCloses.get(), "the file was closed");
        verifyWithoutNvm(path, new long[] {1, 2, 3, 4, 5, 6, 7, 8});
    }

    private static boolean hasCause(Throwable t, String message) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (String.valueOf(c.getMessage()).contains(message)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void startupRefusesBadNvmFlagsNamingTheFlag() {
        Map<String, String> flags = nvmFlags(8, 16, "write-back");
        flags.put("pagecache.nvm.capacity", "2k");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(flags));
        assertEquals("pagecache.nvm.capacity", e.flag());
        assertEquals("pagecache.nvm.capacity=2k holds 0 pages of pagecache.page_size=4096; at least 1 is needed", e.getMessage());

        Map<String, String> devices = nvmFlags(8, 4, "write-back");
        devices.put("pagecache.nvm.devices", "5");
        e = assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(devices));
        assertEquals("pagecache.nvm.devices", e.flag());

        Map<String, String> latency = nvmFlags(8, 4, "write-back");
        latency.put("pagecache.nvm.read_latency", "-5us");
        latency.put("pagecache.nvm.profile", "optane");
        e = assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(latency));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("pagecache.nvm.read_latency=-5us: must be a duration in [0ns, 10s] (negative)"), e.getMessage());
        assertTrue(e.getMessage().contains("pagecache.nvm.profile=optane: must be one of nvme, nvme-fast, pcm, dram"), e.getMessage());
    }

    @Test
    void writeAwareEvictionWrapsThePolicyOnlyWithTheNvmTier() throws IOException {
        Map<String, String> flags = nvmFlags(8, 16, "write-back");
        flags.put("pagecache.nvm.write_aware", "true");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            assertEquals(PolicyRegistry.DEFAULT_POLICY + "+write-aware", cache.stats().policy());
            assertNotNull(cache.tier());
        }
        flags.put("pagecache.swap", "file");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            assertEquals(PolicyRegistry.DEFAULT_POLICY, cache.stats().policy());
            assertNull(cache.tier());
        }
    }
}
