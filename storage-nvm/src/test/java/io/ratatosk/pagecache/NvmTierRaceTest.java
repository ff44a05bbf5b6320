package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.nvm.NvmSwapStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Races between the page cache's file operations and the NVM tier's own work (its clock writing a dirty copy back to
 * make room for another file's eviction), each forced at one point through the file swapper behind the tier. In this
 * package for the engine's single-page eviction, which makes the tier's content deterministic.
 */
class NvmTierRaceTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aTruncateKeepsTheLastPageTheTiersClockWritesBackAsItLooksAtTheFile() throws Exception {
        AtomicBoolean reclaimAtNextLength = new AtomicBoolean();
        PagedFile[] other = new PagedFile[1];
        Throwable[] evictionFailed = new Throwable[1];
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false", "pagecache.swap", "nvm",
            "pagecache.nvm.capacity", String.valueOf(PAGE), // one slot: any eviction into the tier reclaims it
            "pagecache.nvm.inject_latency", "false"));
        Path path = dir.resolve("kept-last.db");
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public long pageCount() throws IOException {
                long pages = super.pageCount();
                if (reclaimAtNextLength.compareAndSet(true, false)) {
                    // Another file's eviction needs the tier's one slot: its clock writes the copy there to its file.
                    evictionFailed[0] = Evictions.evictPageOnAnotherThread(other[0], 0);
                }
                return pages; // as it was before the write-back
            }
        }))) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            PagedFile file = cache.map(path, PAGE);
            int fileId = PageCacheInternals.fileId(file);
            writePages(file, 0, 2, 100);
            file.flush(); // the file on disk: 2 pages
            writePages(file, 2, 3, 100);
            writePages(file, 4, 5, 100); // the cache's end: 5 pages
            Evictions.evictPage(file, 2);
            assertTrue(tier.isDirtyInNvm(fileId, 2), "page 2 is dirty in the tier only, past the end on disk");
            other[0] = cache.map(dir.resolve("other.db"), PAGE);
            writePages(other[0], 0, 1, 7);

            reclaimAtNextLength.set(true);
            file.truncate(3); // cuts page 4 and keeps page 2, which the tier writes back as the truncate looks

            assertFalse(reclaimAtNextLength.get(), "the truncate looked at the file's length");
            if (evictionFailed[0] != null) {
                throw new AssertionError("the other file's eviction failed", evictionFailed[0]);
            }
            assertFalse(tier.contains(fileId, 2), "the tier's clock wrote page 2 back and gave its slot away");
            try (PageCursor r = file.io(2, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next());
                assertEquals(102, readLong(r), "page 2 as written before the cut, which kept it");
            }
            file.close();
            other[0].close();
        }
        assertEquals(3L * PAGE, Files.size(path));
    }

    private static void writePages(PagedFile file, int from, int to, long value) throws IOException {
        try (PageCursor w = file.io(from, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (int p = from; p < to; p++) {
                assertTrue(w.next());
                w.putLong(0, value + p);
            }
        }
    }

    private static long readLong(PageCursor r) throws IOException {
        long v;
        do {
            v = r.getLong(0);
        } while (r.shouldRetry());
        return v;
    }
}
