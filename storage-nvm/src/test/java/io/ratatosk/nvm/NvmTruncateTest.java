package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PagedFile.truncate with the NVM tier in front of the file: truncated pages leave the tier too, never written back. */
class NvmTruncateTest {
    private static final int PAGE = 4096;
    private static final int FILE_PAGES = 40;
    private static final int KEEP = 10;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void truncatedPagesLeaveFramesTierAndFileAndAreNeverWrittenBack(String writePolicy) throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(8 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.swap", "nvm",
            "pagecache.nvm.capacity", String.valueOf(64 * PAGE),
            "pagecache.nvm.write_policy", writePolicy,
            "pagecache.nvm.inject_latency", "false"));
        Path path = dir.resolve("truncate.db");
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            int fileId = PageCacheInternals.fileId(file);
            for (int round = 1; round <= 2; round++) { // twice: the first round's pages end up in the tier
                try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (int p = 0; p < FILE_PAGES; p++) {
                        assertTrue(w.next());
                        PageContent.write(w, p, round);
                    }
                }
            }
            int inTierBefore = 0;
            for (int p = KEEP; p < FILE_PAGES; p++) {
                inTierBefore += tier.contains(fileId, p) ? 1 : 0;
            }
            assertTrue(inTierBefore > 0, "pages past the new end were in the tier before the truncate");

            file.truncate(KEEP);

            for (int p = KEEP; p < FILE_PAGES; p++) {
                assertFalse(tier.contains(fileId, p), "page " + p + " left the tier");
            }
            assertEquals(KEEP - 1, file.getLastPageId());
            file.flush();
        }
        assertEquals((long) KEEP * PAGE, Files.size(path), "no truncated page was written back by the tier or the cache");
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE)));
        long[] body = new long[PageContent.bodyWords(PAGE)];
        try (PageCache cache = PageCache.open(plain); PagedFile file = cache.map(path, PAGE, false);
             PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < KEEP; p++) {
                assertTrue(r.next());
                assertEquals(2, PageContent.readValidated(r, p, body), "page " + p + " kept its last write");
            }
            assertFalse(r.next());
        }
    }
}
