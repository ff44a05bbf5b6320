package io.ratatosk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library as a graph store embeds it, through the public API only: flags from a command line, a
 * file much larger than the cache written and verified from several threads, close, reopen, verify.
 */
class EmbeddedUseTest {
    private static final int PAGE = 8192;
    private static final int PAGES = 2000; // 16 MB file in front of a 1 MB cache
    private static final int THREADS = 4;

    @TempDir
    Path dir;

    @Test
    void aFileTwentyTimesTheCacheRoundTripsThroughWritesCloseAndReopen() throws Exception {
        PageCacheConfig config = PageCacheConfig.fromArgs(
            "--pagecache.memory=1m", "--pagecache.page_size=8k", "--pagecache.policy=global-clock");
        Path path = dir.resolve("graph.store");
        try (PageCache cache = PageCache.open(config)) {
            PagedFile file = cache.map(path, PAGE);
            runOnThreads(t -> {
                try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (int p = t; p < PAGES; p += THREADS) {
                        assertTrue(c.next(p));
                        for (int off = 0; off < PAGE; off += Long.BYTES) {
                            c.putLong(off, value(p, off));
                        }
                    }
                }
            });
            runOnThreads(t -> verify(file, t));
            file.close();
            PageCacheStats stats = cache.stats();
            assertTrue(stats.evictions() > PAGES / 2, stats.toString());
        }
        assertEquals((long) PAGES * PAGE, Files.size(path));
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            assertEquals(PAGES - 1, file.getLastPageId());
            runOnThreads(t -> verify(file, t));
        }
    }

    @Test
    void aMisspeltFlagIsRefusedNamingItAndTheFlagMeant() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
            () -> PageCacheConfig.fromArgs("--pagecache.memory=1m", "--pagecache.polcy=clock"));
        assertTrue(e.getMessage().contains("pagecache.polcy"), e.getMessage());
        assertTrue(e.getMessage().contains("pagecache.policy"), e.getMessage());
    }

    private static long value(long page, int offset) {
        return page * 1_000_003L + offset;
    }

    private static void verify(PagedFile file, int thread) throws IOException {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = thread; p < PAGES; p += THREADS) {
                assertTrue(c.next(p));
                long mismatches;
                do {
                    mismatches = 0;
                    for (int off = 0; off < PAGE; off += Long.BYTES) {
                        if (c.getLong(off) != value(p, off)) {
                            mismatches++;
                        }
                    }
                } while (c.shouldRetry());
                assertEquals(0, mismatches, "words of page " + p + " that differ from what was written");
            }
        }
    }

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    private static void runOnThreads(ThreadBody body) throws Exception {
        TestThreads.run("embedded", THREADS, body::run);
    }
}
