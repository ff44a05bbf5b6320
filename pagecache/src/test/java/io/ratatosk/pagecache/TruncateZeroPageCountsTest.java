package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncate below pages the cache grew the file by writes not yet flushed writes a zero page at the new last page,
 * which the file does not reach on disk (FileMapping.keepLastPage): a write to the file like any other, counted in
 * every write counter. It counted a write call and a page but no bytes, so bytesWritten fell behind pagesWritten
 * times the page size, which every other write keeps equal.
 */
class TruncateZeroPageCountsTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void theZeroPageATruncateWritesIsCountedInBytesAsInPages() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        Path path = dir.resolve("grown.db");
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            try (PageCursor c = file.io(9, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 99); // the file grows to 10 pages in the cache; on disk it is still empty
            }
            PageCacheStats before = cache.stats();
            file.truncate(5); // page 4, never written and not on disk, is written as zeros
            PageCacheStats after = cache.stats();
            assertEquals(5L * PAGE, Files.size(path), "the file ends at its new last page");
            long pages = after.io().pagesWritten() - before.io().pagesWritten();
            assertEquals(1, pages, "the truncate wrote the zero page, one page");
            assertEquals(pages * PAGE, after.bytesWritten() - before.bytesWritten(),
                "bytes written by the truncate, against its pages written");
        }
    }
}
