package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The evictor calls a policy's housekeeping again, without sleeping, while the policy says it left work
 * ({@code housekeepingPending}: best-of replays its sampled requests a chunk per call so that refills come in
 * between), and sleeps once it has none.
 */
class BackgroundEvictorTest {
    /** Calls that each leave work: slept between, they would take 10 ms apiece, 5 s in all. */
    private static final int PENDING_CALLS = 500;

    @Test
    void housekeepingThatLeftWorkIsCalledAgainWithoutASleep() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(1);
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("chunked") {
            @Override
            public void housekeeping() {
                if (calls.incrementAndGet() == PENDING_CALLS) {
                    allDone.countDown();
                }
            }

            @Override
            public boolean housekeepingPending() {
                return calls.get() < PENDING_CALLS;
            }
        });
        BackgroundEvictor evictor = new BackgroundEvictor(engine, 1);
        try {
            evictor.start();
            assertTrue(allDone.await(2, TimeUnit.SECONDS), "the evictor slept between calls that left work: " + calls.get() + " calls");
            int done = calls.get();
            long start = System.nanoTime();
            Thread.sleep(50);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            int more = calls.get() - done;
            assertTrue(more <= millis / 5 + 5, "with nothing left it sleeps (10 ms a period): " + more + " calls in " + millis + " ms");
        } finally {
            evictor.shutdown();
            engine.close();
        }
    }
}
