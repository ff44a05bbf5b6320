package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.bestof.BestOfPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * best-of hands the frames from one expert to another while other threads hit, fault and evict:
 * threads alternate between a zigzag (where the usage clock wins) and a loop a little larger than
 * the cache (where CLOCK-Pro wins), with short adaptation periods, so that the frames switch many
 * times; afterwards the current expert's bookkeeping must hold and cover exactly the bound frames.
 */
class BestOfSwitchesUnderConcurrencyTest {
    private static final int PAGE_SIZE = 4096;
    private static final int FRAMES = 64;
    private static final int THREADS = 4;

    @TempDir
    Path dir;

    @Test
    void switchesBetweenExpertsKeepTheBookkeepingWhileThreadsHitAndEvict() throws Exception {
        run(Map.of("pagecache.evictor.enabled", "false"));
    }

    /**
     * With the background evictor, the miniatures and the followed expert's own simulations (w-tinylfu-adaptive's
     * windows) run in its housekeeping, and it makes the switches. No margin at all, so that the frames move to
     * whichever expert led the last period, w-tinylfu-adaptive and s3-fifo among them.
     */
    @Test
    void switchesMadeByTheBackgroundEvictorKeepTheBookkeepingToo() throws Exception {
        run(Map.of("pagecache.evictor.enabled", "true", "pagecache.bestof.margin", "0", "pagecache.bestof.min_gain", "0"));
    }

    private void run(Map<String, String> flags) throws Exception {
        Map<String, String> all = new HashMap<>(flags);
        all.putAll(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE_SIZE),
            "pagecache.page_size", String.valueOf(PAGE_SIZE),
            "pagecache.policy", BestOfPolicy.NAME,
            "pagecache.bestof.adapt_period", "0.5"));
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(all)); PagedFile file = cache.map(dir.resolve("s.db"), PAGE_SIZE)) {
            try (PageCursor w = file.io(FRAMES * 8L - 1, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
            }
            BestOfPolicy policy = (BestOfPolicy) cache.policy();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    futures.add(pool.submit(() -> {
                        work(file, policy);
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            // The evictor's last refill may still be under way: the bookkeeping is checked once it has ended.
            PageCacheInternals.stopBackgroundEvictor(cache);
            policy.checkInvariants();
            assertTrue(policy.switches() >= 2, "the phases moved the frames between experts: " + policy.switches() + " switches");
        }
    }

    /**
     * With the background evictor the sampled requests wait in a ring of {@link io.ratatosk.policies.SampleRing#SLOTS}
     * for its housekeeping, and a full ring drops them. Where the evictor gets little CPU (four workers on two
     * cores), a whole phase could be dropped and the miniatures never see it; so each round waits for the evictor to
     * catch up, as a real workload's pauses would let it. Without the evictor nothing is pending and nothing waits.
     */
    private static void work(PagedFile file, BestOfPolicy policy) throws Exception {
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int phase = 0; phase < 8; phase++) {
                for (int round = 0; round < 6; round++) {
                    if (phase % 2 == 0) {
                        for (int p = 0; p < FRAMES * 4; p++) {
                            read(reader, p);
                        }
                        for (int p = FRAMES * 4 - 1; p >= 0; p--) {
                            read(reader, p);
                        }
                    } else {
                        for (int p = 0; p < FRAMES * 3 / 2; p++) {
                            read(reader, FRAMES * 4 + p);
                        }
                    }
                    awaitHousekeeping(policy);
                }
            }
        }
    }

    private static void awaitHousekeeping(BestOfPolicy policy) throws InterruptedException {
        Waits.until(() -> !policy.housekeepingPending(), "the evictor's housekeeping caught up with the sampled requests",
            Waits.threadNamed("ratatosk-evictor"));
    }

    private static void read(PageCursor reader, long page) throws Exception {
        if (reader.next(page)) {
            do {
                reader.getLong(0);
            } while (reader.shouldRetry());
        }
    }
}
