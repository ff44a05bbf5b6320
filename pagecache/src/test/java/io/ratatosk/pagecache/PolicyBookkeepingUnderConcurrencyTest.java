package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.PolicyRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy's own bookkeeping survives concurrent faults, hits and cooperative evictions: eight
 * threads pin random pages of a file ten times the cache (some for writing, which pins the frame
 * while others evict), with the background evictor off so that the cache is quiet afterwards; then
 * the policy's {@code checkInvariants} must hold. The stress test checks the data; this checks the
 * policy's counts, lists and tables.
 */
class PolicyBookkeepingUnderConcurrencyTest {
    private static final int PAGE_SIZE = 4096;
    private static final int FRAMES = 40;
    private static final int THREADS = 8;

    @TempDir
    Path dir;

    static List<String> policies() {
        return PolicyRegistry.NAMES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void policyInvariantsHoldAfterConcurrentUse(String policy) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE_SIZE),
            "pagecache.page_size", String.valueOf(PAGE_SIZE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", "false"));
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(dir.resolve("p.db"), PAGE_SIZE)) {
            try (PageCursor w = file.io(FRAMES * 10L - 1, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next()); // the file's full length, so readers find every page
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long seed = t;
                    futures.add(pool.submit(() -> {
                        work(file, new SplittableRandom(seed));
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            cache.policy().checkInvariants();
            assertTrue(cache.stats().evictions() > 0, cache.stats().toString());
        }
    }

    private static void work(PagedFile file, SplittableRandom random) throws Exception {
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int op = 0; op < 4000; op++) {
                // A hot fifth of the pages takes most requests, so that pages are hit as well as faulted.
                long page = random.nextInt(4) == 0 ? random.nextInt(FRAMES * 10) : random.nextInt(FRAMES * 2);
                if (random.nextInt(8) == 0) {
                    try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        if (w.next()) {
                            w.putLong(0, op);
                        }
                    }
                } else if (reader.next(page)) {
                    do {
                        reader.getLong(0);
                    } while (reader.shouldRetry());
                }
            }
        }
    }
}
