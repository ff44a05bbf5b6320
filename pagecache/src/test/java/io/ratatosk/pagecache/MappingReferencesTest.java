package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file stays mapped until every map of it was closed, however many maps there were. */
class MappingReferencesTest {
    @TempDir
    Path dir;

    /**
     * 2^32 + 2 maps and two closes leave the file mapped. The count of maps was an int: at 2^32 + 2 it read 2, so two
     * closes unmapped the file under every other holder, whose cursors were then refused ("not mapped").
     */
    @Test
    void moreMapsThanAnIntCountsAreAllCounted() throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
        Path path = dir.resolve("a");
        try (PageCache cache = PageCache.open(config)) {
            PagedFile file = cache.map(path, 4096);
            FileMapping mapping = file.mapping();
            long moreMaps = 1L << 32;
            // 2^32 more maps of the mapped file, each a retain(), set at once: the count is the same, and the loop of
            // retains took 20 s of a loaded CI machine. An int count (the defect) keeps 1 of the 2^32 + 1 and fails below
            long held = mapping.releaseAllReferences();
            mapping.restoreReferences(held + moreMaps);
            PagedFile again = cache.map(path, 4096);
            assertSame(file, again);
            again.close();
            file.close();
            assertEquals(1, cache.fileRegistry().mapped().size(), "closed twice of " + (moreMaps + 2) + " maps: still mapped");
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
            }
        }
    }
}
