package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.PolicyRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy in caches of 2, 3 and 4 frames, one more thread than frames reading and writing, a second file
 * mapped and closed now and then (its pages dropped without the policy choosing them), with and without the
 * background evictor: hits race evictions of the frames they hit, and the policy's bookkeeping must still hold
 * once the threads are done.
 */
class PolicyTinyCacheEdgeTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    static Stream<Arguments> policies() {
        List<Arguments> all = new ArrayList<>();
        for (String policy : PolicyRegistry.NAMES) {
            for (int frames = 2; frames <= 4; frames++) {
                all.add(Arguments.of(policy, frames, true));
                all.add(Arguments.of(policy, frames, false));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1} frames, evictor {2}")
    @MethodSource("policies")
    void policyBookkeepingHoldsAfterRacesOnATinyCache(String policy, int frames, boolean evictor) {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            PageCacheConfig config = PageCacheConfig.parse(Map.of(
                "pagecache.memory", String.valueOf(frames * PAGE),
                "pagecache.page_size", String.valueOf(PAGE),
                "pagecache.policy", policy,
                "pagecache.evictor.enabled", String.valueOf(evictor),
                "pagecache.warmup.enabled", "false"));
            try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(dir.resolve("main.db"), PAGE)) {
                ExecutorService pool = Executors.newFixedThreadPool(frames + 1);
                try {
                    List<Future<?>> futures = new ArrayList<>();
                    for (int t = 0; t <= frames; t++) {
                        long seed = t;
                        boolean remapper = t == 0;
                        futures.add(pool.submit(() -> {
                            work(cache, file, new SplittableRandom(seed), remapper);
                            return null;
                        }));
                    }
                    for (Future<?> future : futures) {
                        future.get(100, TimeUnit.SECONDS);
                    }
                } finally {
                    pool.shutdownNow();
                }
                // The evictor's last refill may still be under way: the bookkeeping is checked once it has ended.
                PageCacheInternals.stopBackgroundEvictor(cache);
                cache.policy().checkInvariants();
                assertTrue(cache.stats().evictions() > 0, cache.stats().toString());
            }
        });
    }

    private void work(PageCache cache, PagedFile file, SplittableRandom random, boolean remapper) throws Exception {
        for (int op = 0; op < 1500; op++) {
            long page = random.nextInt(8);
            try {
                if (remapper && op % 100 == 50) {
                    try (PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
                         PageCursor w = other.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next());
                        w.putLong(0, op);
                    }
                } else if (random.nextInt(4) == 0) {
                    try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next());
                        w.putLong(0, op);
                    }
                } else {
                    try (PageCursor r = file.io(page, PagedFile.PF_SHARED_READ_LOCK)) {
                        if (r.next()) {
                            do {
                                r.getLong(0);
                            } while (r.shouldRetry());
                        }
                    }
                }
            } catch (NoEvictableFrameException everyFramePinnedForTwoSeconds) {
                // one thread more than frames may find every frame pinned; refused, never hung
            }
        }
    }
}
