package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
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
    private static final int CLEAN_FILE_ID = 1;

    /** Calls that each leave work: slept between, they would take 10 ms apiece, 5 s in all, and 499 parks. */
    private static final int PENDING_CALLS = 500;

    /**
     * A policy whose background housekeeping throws each time (a bug in a miniature simulation, an allocation that fails):
     * the failure left the evictor's step before the refill, so the evictor, reporting it every 10 ms, never freed a
     * frame again, and every fault evicted for itself. The refill comes first, whatever the housekeeping throws.
     */
    @Test
    void anEvictorWhosePolicysHousekeepingFailsStillKeepsFramesFree() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        AtomicInteger housekeepingFailures = new AtomicInteger();
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("failing-housekeeping") {
            private int hand;

            @Override
            public int nextVictim(Sweep sweep) {
                return hand++ % frames.frameCount(); // every frame in turn: each holds a clean page no one pins
            }

            @Override
            public void housekeeping() {
                housekeepingFailures.incrementAndGet();
                throw new IllegalStateException("injected: housekeeping failed");
            }
        });
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> { });
        int keepFree = 4;
        BackgroundEvictor evictor = new BackgroundEvictor(engine, keepFree);
        try {
            engine.register(CLEAN_FILE_ID, new CleanPagesOwner(Path.of("clean-pages.db")));
            for (int frame = engine.tryGrabFreeFrame(), page = 0; frame >= 0; frame = engine.tryGrabFreeFrame(), page++) {
                engine.bind(frame, PageKey.of(CLEAN_FILE_ID, page));
                engine.frames().unlockExclusive(frame);
            }
            evictor.start();
            // An evictor that no longer refills never does: a minute, not 5 s, for a loaded machine's slow but live one
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (engine.freeFrames() < keepFree && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertTrue(engine.freeFrames() >= keepFree, "the evictor freed " + engine.freeFrames() + " of " + keepFree
                + " frames; its housekeeping failed " + housekeepingFailures.get() + " times");
        } finally {
            evictor.shutdown();
            Thread.setDefaultUncaughtExceptionHandler(previous);
            engine.close();
        }
    }

    @Test
    void housekeepingThatLeftWorkIsCalledAgainWithoutASleep() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(1);
        // The evictor thread's waited count (each park is a wait) at the first call and at the last that left work
        long[] waitedCounts = new long[2];
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("chunked") {
            @Override
            public void housekeeping() {
                int call = calls.incrementAndGet();
                if (call == 1) {
                    waitedCounts[0] = waitedCount(Thread.currentThread());
                } else if (call == PENDING_CALLS) {
                    waitedCounts[1] = waitedCount(Thread.currentThread());
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
            // Counted in parks, not timed (all the calls within 2 s, once): a loaded machine slows a thread that never
            // sleeps, and a minute is only how long a test waits for them
            assertTrue(allDone.await(1, TimeUnit.MINUTES), "the evictor stopped calling: " + calls.get() + " calls");
            long sleeps = waitedCounts[1] - waitedCounts[0];
            assertTrue(sleeps == 0, "the evictor slept " + sleeps + " times between " + PENDING_CALLS
                + " calls that each left work");
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

    /** How many times {@code thread} has waited (parked, slept, waited on a monitor) so far. */
    private static long waitedCount(Thread thread) {
        return ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId()).getWaitedCount();
    }
}
