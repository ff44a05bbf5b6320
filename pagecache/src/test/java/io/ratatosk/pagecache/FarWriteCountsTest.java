package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write cursor's fault of a page far past the file's end writes the (zero) page to the file at once
 * (FileMapping.FAR_PAGE_DISTANCE), so that a file system that cannot hold the file refuses there: a write to the
 * file's swapper like any other, which IoStats promises to count ("how many pages went to the files' swappers in how
 * many write calls"). It was counted nowhere: the lifecycle model, counting its swappers' writes, found io.pagesWritten
 * below them after far writes.
 */
class FarWriteCountsTest {
    private static final int PAGE = 4096;

    @Test
    void theZeroPageAFarFaultWritesIsCountedInEveryWriteCounter(@TempDir Path dir) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        Path path = dir.resolve("far.db");
        long far = FileMapping.FAR_PAGE_DISTANCE + 10;
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            PageCacheStats before = cache.stats();
            try (PageCursor c = file.io(far, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
            }
            PageCacheStats after = cache.stats();
            assertEquals((far + 1) * PAGE, Files.size(path), "the far fault wrote its page to the file at once");
            assertEquals(1, after.io().pagesWritten() - before.io().pagesWritten(), "pages written by the far fault");
            assertEquals(1, after.io().writeCalls() - before.io().writeCalls(), "write calls of the far fault");
            assertEquals(PAGE, after.bytesWritten() - before.bytesWritten(), "bytes written by the far fault");
        }
    }
}
