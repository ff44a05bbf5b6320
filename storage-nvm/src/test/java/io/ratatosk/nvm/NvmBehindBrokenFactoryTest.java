package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swapper factory behind the NVM tier that hands out what the page cache refuses from a factory in front of it: null,
 * a swapper of another page size, another mapped file's swapper. The tier wraps whatever it gets, so the page cache's
 * own checks saw only the tier's swapper, which said the page size asked for: the tier refuses these itself now.
 */
class NvmBehindBrokenFactoryTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * 8192), "pagecache.page_size", "8192",
            "pagecache.swap", "nvm", "pagecache.nvm.capacity", String.valueOf(8 * 8192), "pagecache.nvm.inject_latency",
            "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    /** Plain file swappers, with the page size, the swapper or null as {@link #mode} says; records every one it made. */
    private static final class BrokenFactory implements PageSwapperFactory {
        final FileSwapperFactory files = new FileSwapperFactory();
        final List<PageSwapper> made = new ArrayList<>();
        volatile String mode = "";

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            if (mode.equals("null")) {
                return null;
            }
            if (mode.equals("first") && !made.isEmpty()) {
                return made.get(0);
            }
            PageSwapper swapper = files.create(file, fileId, mode.equals("8192") ? 8192 : filePageSize, create);
            made.add(swapper);
            return swapper;
        }

        @Override
        public void close() throws IOException {
            files.close();
        }

        @Override
        public String toString() {
            return "BrokenFactory";
        }
    }

    private static void write(PagedFile file, long pageId, long value) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            c.putLong(0, value);
        }
    }

    /**
     * A swapper of 8192-byte pages for a file mapped with 4096: mapped through the tier, it would read 8192 bytes into a
     * frame of 4096 (into the next frame, or past the page memory's end) and write pages at twice their offsets.
     */
    @Test
    void aSwapperOfAnotherPageSizeIsRefusedAndClosed() throws IOException {
        BrokenFactory factory = new BrokenFactory();
        factory.mode = "8192";
        try (PageCache cache = PageCache.open(config(), factory)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("a.db"), PAGE));
            assertTrue(e.getMessage().contains("page size " + PAGE) && e.getMessage().contains("page size 8192")
                && e.getMessage().contains("BrokenFactory"), e.getMessage());
            assertThrows(IOException.class, () -> factory.made.get(0).pageCount(), "the refused swapper was closed");
            factory.mode = "";
            try (PagedFile file = cache.map(dir.resolve("a.db"), PAGE)) { // the file maps once the factory behaves
                write(file, 0, 1);
            }
        }
    }

    @Test
    void aNullSwapperIsRefusedNamingTheFactory() throws IOException {
        BrokenFactory factory = new BrokenFactory();
        factory.mode = "null";
        try (PageCache cache = PageCache.open(config(), factory)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("a.db"), PAGE));
            assertTrue(e.getMessage().contains("BrokenFactory") && e.getMessage().contains("returned null"), e.getMessage());
            factory.mode = "";
            try (PagedFile file = cache.map(dir.resolve("a.db"), PAGE)) {
                write(file, 0, 1);
            }
        }
    }

    /** Another mapped file's swapper: through it the second file's pages would go into the first file. */
    @Test
    void anotherMappedFilesSwapperIsRefusedAndLeftOpen() throws IOException {
        BrokenFactory factory = new BrokenFactory();
        try (PageCache cache = PageCache.open(config(), factory); PagedFile a = cache.map(dir.resolve("a.db"), PAGE)) {
            write(a, 0, 1);
            factory.mode = "first";
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("b.db"), PAGE));
            assertTrue(e.getMessage().contains("a.db") && e.getMessage().contains("BrokenFactory"), e.getMessage());
            a.flush(); // the first file's swapper still works
            assertEquals(1, factory.made.get(0).pageCount());
        }
    }
}
