package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.EvictionPolicies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many threads read and write random pages of a file ten times the cache, every page carrying its id,
 * a version and a body derived from both. Readers check every validated read (no torn or misplaced
 * page, never older than the version known to be committed before the read began); at the end the
 * cache is closed, reopened, and every page must hold exactly its last committed version. Runs for
 * every policy, with the background evictor on and off.
 */
class PageCacheStressTest {
    private static final int PAGE_SIZE = 4096;
    private static final int FRAMES = 48;
    private static final int FILE_PAGES = FRAMES * 10;
    private static final int THREADS = 8;
    private static final int OPS_PER_THREAD = 3000;

    @TempDir
    Path dir;

    static Stream<Arguments> policiesAndEvictor() {
        List<Arguments> args = new ArrayList<>();
        for (String policy : EvictionPolicies.NAMES) {
            args.add(Arguments.of(policy, true));
            args.add(Arguments.of(policy, false));
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, background evictor {1}")
    @MethodSource("policiesAndEvictor")
    void concurrentReadsAndWritesNeverTearLoseOrMisplaceAPage(String policy, boolean evictor) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE_SIZE),
            "pagecache.page_size", String.valueOf(PAGE_SIZE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", String.valueOf(evictor)));
        Path path = dir.resolve("stress.db");
        // committed[p]: the last version of page p whose write cursor has been closed. Each page has one
        // writing thread (p % THREADS), so versions of a page are written in order.
        AtomicLongArray committed = new AtomicLongArray(FILE_PAGES);
        for (int p = 0; p < FILE_PAGES; p++) {
            committed.set(p, -1);
        }
        PageCacheStats stats;
        try (PageCache cache = PageCache.open(config)) {
            PagedFile file = cache.map(path, PAGE_SIZE);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        work(file, thread, committed);
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            file.close();
            stats = cache.stats();
        }
        assertTrue(stats.evictions() > 0, "the file is ten times the cache, so pages must have been evicted: " + stats);
        if (!evictor) {
            assertEquals(0, stats.backgroundEvictions(), "no background evictions with the evictor off: " + stats);
        }
        verifyAfterReopen(config, path, committed);
    }

    private static void work(PagedFile file, int thread, AtomicLongArray committed) throws Exception {
        SplittableRandom random = new SplittableRandom(thread * 31L + 7);
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        // One reusable read cursor per thread, moved with next(pageId), as a database would use it.
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int op = 0; op < OPS_PER_THREAD; op++) {
                long pageId = random.nextInt(FILE_PAGES);
                if (random.nextInt(4) == 0 && pageId % THREADS != thread) {
                    pageId = pageId - pageId % THREADS + thread; // write only the pages this thread owns
                }
                if (pageId % THREADS == thread && pageId < FILE_PAGES && random.nextInt(3) == 0) {
                    long version = committed.get((int) pageId) + 1;
                    try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next());
                        PageContent.write(w, pageId, version);
                    }
                    committed.set((int) pageId, version);
                } else if (pageId < FILE_PAGES) {
                    long before = committed.get((int) pageId);
                    if (reader.next(pageId)) {
                        long seen = PageContent.readValidated(reader, pageId, body);
                        if (seen < before) {
                            throw new AssertionError("lost write: page " + pageId + " read version " + seen
                                + " after version " + before + " was committed");
                        }
                    } else if (before >= 0) {
                        throw new AssertionError("page " + pageId + " was written but next() says it does not exist");
                    }
                }
            }
        }
    }

    private static void verifyAfterReopen(PageCacheConfig config, Path path, AtomicLongArray committed) throws Exception {
        long[] body = new long[PageContent.bodyWords(PAGE_SIZE)];
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE_SIZE, false)) {
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = 0; p < FILE_PAGES; p++) {
                    long expected = committed.get(p);
                    if (p > file.getLastPageId()) {
                        assertEquals(-1, expected, "page " + p + " was written but is past the end of the reopened file");
                        continue;
                    }
                    assertTrue(c.next(p));
                    assertEquals(expected, PageContent.readValidated(c, p, body), "version of page " + p + " after reopen");
                }
            }
        }
    }
}
