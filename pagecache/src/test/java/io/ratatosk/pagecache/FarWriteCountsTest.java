package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write cursor's fault of a page far past the file's end writes that (zero) page at once (FileMapping.FAR_PAGE_DISTANCE),
 * so that a file system that cannot hold a file so large refuses it there: a write to the file like any other, which the
 * write counters missed (no write call, no page, no byte), though the file grew on disk by it.
 */
class FarWriteCountsTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void theZeroPageAFarWriteWritesAtItsFaultIsCounted() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        Path path = dir.resolve("far.db");
        long far = FileMapping.FAR_PAGE_DISTANCE + 10;
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            PageCacheStats before = cache.stats();
            try (PageCursor c = file.io(far, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next(); // the fault writes the page, before anything is written to it
                assertEquals((far + 1) * PAGE, Files.size(path), "the fault wrote the far page");
                PageCacheStats after = cache.stats();
                assertEquals(1, after.io().writeCalls() - before.io().writeCalls(), "write calls");
                assertEquals(1, after.io().pagesWritten() - before.io().pagesWritten(), "pages written");
                assertEquals(PAGE, after.bytesWritten() - before.bytesWritten(), "bytes written");
            }
        }
    }
}
