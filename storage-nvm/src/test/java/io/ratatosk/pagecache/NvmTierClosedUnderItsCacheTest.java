package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that closes the NVM tier of an open page cache ({@code cache.tier().close()}) is refused: the tier's close
 * released every file's swapper under the cache, whose every later close then failed writing its dirty frames, so the
 * cache kept its memory and threads for the JVM's life and those pages never reached the file. Once the cache is
 * closed, the tier's close is the no-op it was. In this package for {@link LifecycleTest}'s read and write.
 */
class NvmTierClosedUnderItsCacheTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void theTiersCloseIsRefusedWhileItsCacheIsOpen() throws IOException {
        PageCacheConfig config = NvmTruncateFailureTest.sixteenFramesBeforeAWriteBackTier();
        Path path = dir.resolve("a.db");
        PageCache cache = PageCache.open(config);
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(path, PAGE);
        write(file, 0, 7); // dirty in its frame: only the cache's close can write it

        IllegalStateException refused = assertThrows(IllegalStateException.class, tier::close,
            "the tier serves an open cache, which closes it with itself");
        assertTrue(refused.getMessage().contains("PageCache.close"), refused.getMessage());
        assertEquals(7, read(file, 0), "the file still works through the tier");

        closeFileAndCache(file, cache);
        tier.close(); // closed with the cache: nothing more to do
        assertFileHolds(path, 7);
    }

    /**
     * The tier's device ({@code tier.device()}, public for its counters and tests' error injection) is the tier's to
     * close: a host's close of it freed the tier's slots under the open cache, its dirty copies with them, and every
     * later close of the cache failed writing them back, keeping its memory and threads for the JVM's life.
     */
    @Test
    void theTiersDeviceIsRefusedItsCloseWhileTheTierIsOpen() throws IOException {
        PageCacheConfig config = NvmTruncateFailureTest.sixteenFramesBeforeAWriteBackTier();
        Path path = dir.resolve("c.db");
        PageCache cache = PageCache.open(config);
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(path, PAGE);
        int fileId = file.fileId();
        for (int p = 0; p < 40; p++) {
            write(file, p, 100 + p); // more pages than frames: the first ones go dirty into the tier
        }
        assertTrue(tier.isDirtyInNvm(fileId, 0), "page 0 is dirty in the tier: " + tier.stats());

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> tier.device().close(),
            "the device is the tier's, which holds dirty copies in it");
        assertTrue(refused.getMessage().contains("NvmSwapStore"), refused.getMessage());
        assertEquals(100, read(file, 0), "the tier still serves its copy");

        closeFileAndCache(file, cache);
        tier.device().close(); // closed with the tier: nothing more to do
        assertFileHolds(path, LongStream.range(0, 40).map(p -> 100 + p).toArray());
    }

    /** Closes {@code file} and {@code cache}, which must close and free its memory: the refusal left nothing in the way. */
    private static void closeFileAndCache(PagedFile file, PageCache cache) throws IOException {
        file.close();
        cache.close();
        assertTrue(cache.isClosed(), "the cache closed");
        assertTrue(cache.isMemoryReleased(), "and freed its memory");
    }

    /** Reads {@code path} back through a cache with no tier: page p must hold {@code pages[p]}, as written through the tier. */
    private static void assertFileHolds(Path path, long... pages) throws IOException {
        try (PageCache plain = PageCache.open(PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(16 * PAGE), "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")));
             PagedFile again = plain.map(path, PAGE)) {
            for (int p = 0; p < pages.length; p++) {
                assertEquals(pages[p], read(again, p), "page " + p + " written through the cache reached the file");
            }
        }
    }

    @Test
    void aTierHandedToACacheIsRefusedItsCloseUntilThatCacheClosed() throws IOException {
        PageCacheConfig config = NvmTruncateFailureTest.sixteenFramesBeforeAWriteBackTier();
        NvmSwapStore tier = new NvmSwapStore(NvmDeviceConfig.from(config), new FileSwapperFactory());
        PageCache cache = PageCache.open(config, tier);
        try (PagedFile file = cache.map(dir.resolve("b.db"), PAGE)) {
            write(file, 3, 9);
            assertThrows(IllegalStateException.class, tier::close, "the cache it serves is open");
        }
        assertThrows(IllegalStateException.class, tier::close, "still open with no file mapped");
        assertFalse(cache.isClosed());
        cache.close();
        assertTrue(cache.isClosed());
        tier.close();
    }
}
