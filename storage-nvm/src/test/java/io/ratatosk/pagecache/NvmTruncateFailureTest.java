package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncate whose cut of the file fails leaves the cache as it was, the NVM tier included: the tier's dirty copies of
 * the pages past the cut, newer than the file, are still there after the failure, and read back. In this package for
 * {@link LifecycleTest}'s read and write.
 */
class NvmTruncateFailureTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 8;
    private static final int KEEP = 2;

    @TempDir
    Path dir;

    /** The cache's own file swappers, whose truncate fails while {@link #failTruncates} is set. */
    private static final class FailingTruncates implements PageSwapperFactory {
        private final FileSwapperFactory files = new FileSwapperFactory();
        volatile boolean failTruncates;

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                @Override
                public void truncate(long pageCount) throws IOException {
                    if (failTruncates) {
                        throw new IOException("injected truncate failure");
                    }
                    super.truncate(pageCount);
                }
            };
        }
    }

    /**
     * 16 frames of 4 KiB, no evictor, no warm-up, before a write-back NVM tier of 64 pages without modeled latency: a
     * file of a few dozen pages goes out of the frames into the tier, dirty, at the test's own pace.
     */
    static PageCacheConfig sixteenFramesBeforeAWriteBackTier() {
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", "false",
            "pagecache.policy", "clock", // a plain second chance: another file's pages push every page out
            "pagecache.warmup.enabled", "false",
            "pagecache.swap", "nvm",
            "pagecache.nvm.capacity", String.valueOf(64 * PAGE),
            "pagecache.nvm.write_policy", "write-back",
            "pagecache.nvm.inject_latency", "false"));
    }

    @Test
    void aFailedCutKeepsTheTiersDirtyCopiesPastIt() throws IOException {
        PageCacheConfig config = sixteenFramesBeforeAWriteBackTier();
        FailingTruncates swappers = new FailingTruncates();
        try (PageCache cache = PageCache.open(config, swappers);
             PagedFile file = cache.map(dir.resolve("cut.db"), PAGE);
             PagedFile other = cache.map(dir.resolve("other.db"), PAGE)) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            int fileId = file.fileId();
            for (int p = 0; p < PAGES; p++) {
                write(file, p, 100 + p);
            }
            file.flush(); // the file holds the first versions
            for (int p = 0; p < PAGES; p++) {
                write(file, p, 200 + p);
            }
            for (int p = 0; p < 40; p++) { // the second versions go out of the frames, into the tier, dirty
                write(other, p, p);
            }
            int dirtyInTier = 0;
            for (int p = KEEP; p < PAGES; p++) {
                dirtyInTier += tier.contains(fileId, p) ? 1 : 0;
            }
            assertTrue(dirtyInTier > 0, "pages past the cut were in the tier before the truncate");

            swappers.failTruncates = true;
            IOException e = assertThrows(IOException.class, () -> file.truncate(KEEP));
            assertTrue(e.getMessage().contains("injected truncate failure")
                || String.valueOf(e.getCause()).contains("injected truncate failure"), e.toString());
            swappers.failTruncates = false;

            assertEquals(PAGES - 1, file.getLastPageId(), "nothing changed in the cache");
            for (int p = 0; p < PAGES; p++) {
                assertEquals(200 + p, read(file, p), "page " + p + " keeps its last write");
            }
            file.truncate(KEEP); // a retried truncate cuts
            assertEquals(KEEP - 1, file.getLastPageId());
            for (int p = KEEP; p < PAGES; p++) {
                assertTrue(!tier.contains(fileId, p), "page " + p + " left the tier");
            }
        }
    }
}
