package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swap tier given to {@link PageCache#open(PageCacheConfig, io.ratatosk.core.PageSwapperFactory)} serves that cache
 * alone: the cache closes it, and a tier closes every file it holds (the NVM tier writes back and closes them). Handed
 * to a second cache, its close closed the first cache's files under it: the first could then neither write its dirty
 * pages nor close, and kept its page memory.
 */
class SwapTierOwnershipTest {
    @TempDir
    Path dir;

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "4k",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    @Test
    void aTierServingAnOpenCacheIsRefusedToAnotherAndTheFirstStillClosesWithItsPages() throws IOException {
        BrokenTierProviders.ClosingTier tier = new BrokenTierProviders.ClosingTier(new FileSwapperFactory());
        PageCache first = PageCache.open(config(), tier);
        PagedFile file = first.map(dir.resolve("a"), 4096);
        for (int p = 0; p < 10; p++) {
            try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, 100 + p);
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PageCache.open(config(), tier).close());
        assertTrue(e.getMessage().contains("already serves an open page cache"), e.getMessage());
        first.close(); // with the second cache's close, its file was closed under it and this failed

        try (PageCache again = PageCache.open(config(), new BrokenTierProviders.ClosingTier(new FileSwapperFactory())); PagedFile reopened = again.map(dir.resolve("a"), 4096)) {
            try (PageCursor c = reopened.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = 0; p < 10; p++) {
                    assertTrue(c.next());
                    assertEquals(100 + p, c.getLong(0));
                }
            }
        }
        try (PageCache next = PageCache.open(config(), tier)) {
            assertEquals(0, next.stats().hits(), "a tier whose cache closed may serve another");
        }
    }

    /** A plain factory whose close releases what its swappers share, as a store's own factory may. */
    private static final class ClosingFactory implements PageSwapperFactory {
        private final FileSwapperFactory files = new FileSwapperFactory();
        private volatile boolean closed;

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            if (closed) {
                throw new IOException("factory closed");
            }
            return files.create(file, fileId, filePageSize, create);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /**
     * Each cache closes its factory: one factory given to two open caches was closed under the second by the first's
     * close, and the second's maps failed from then on.
     */
    @Test
    void aPlainFactoryServingAnOpenCacheIsRefusedToAnotherAndFreeAgainOnceItCloses() throws IOException {
        ClosingFactory factory = new ClosingFactory();
        try (PageCache first = PageCache.open(config(), factory)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PageCache.open(config(), factory).close());
            assertTrue(e.getMessage().contains("the swapper factory " + factory + " already serves an open page cache"),
                e.getMessage());
            first.map(dir.resolve("b"), 4096).close();
        }
        ClosingFactory next = new ClosingFactory();
        try (PageCache cache = PageCache.open(config(), next)) {
            cache.map(dir.resolve("b"), 4096).close();
        }
        try (PageCache again = PageCache.open(config(), factory)) {
            assertEquals(0, again.stats().hits(), "a factory whose cache closed may serve another");
        }
    }
}
