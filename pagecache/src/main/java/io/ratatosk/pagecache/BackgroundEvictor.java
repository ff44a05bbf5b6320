package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.Sweep;
import io.ratatosk.pagecache.internal.DaemonWorker;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that keeps up to {@code keepFree} frames on the free list, so that faults rarely have to
 * evict themselves. Whenever it runs and finds fewer than {@code keepFree} frames free, it runs the
 * engine's eviction loop with its own persistent sweep until {@code keepFree} are, then sleeps. It runs
 * every {@value #IDLE_PARK_MILLIS} ms, and at once when a fault finds the pool below its
 * {@link #wakeThreshold} (half of keep_free): under a stream of faults the pool swings between half and
 * all of keep_free, and each wake-up is paid for by keep_free / 2 evictions (docs/benchmarks.md tells
 * what the other thresholds tried cost). It runs the policy's housekeeping in between, and without sleeping
 * while the policy says it left some ({@link EvictionPolicy#housekeepingPending}).
 *
 * <p>When the loop gives up (everything pinned or hot, or a write-out failed, which stays pending for the
 * next map, fault or flush), the evictor backs off for {@value #BACKOFF_MILLIS} ms and carries on.
 */
final class BackgroundEvictor extends DaemonWorker {
    private static final long IDLE_PARK_MILLIS = 10;
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS);
    private static final long BACKOFF_MILLIS = 1;
    private static final long BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(BACKOFF_MILLIS);

    private final EvictionEngine engine;
    private final int keepFree;
    private final int wakeThreshold;
    private final Sweep sweep = Sweep.background();

    BackgroundEvictor(EvictionEngine engine, int keepFree) {
        super("ratatosk-evictor");
        this.engine = engine;
        this.keepFree = keepFree;
        this.wakeThreshold = wakeThreshold(keepFree);
        engine.attachEvictor(this::wake, wakeThreshold);
    }

    /** Free frames below which a fault wakes the evictor rather than letting it sleep out its period. */
    static int wakeThreshold(int keepFree) {
        return Math.max(1, keepFree / 2);
    }

    @Override
    protected void step() {
        EvictionPolicy policy = engine.policy();
        try {
            policy.housekeeping();
        } finally {
            // A housekeeping that throws (reported, and tried again after a pause) must not keep the frames from being
            // freed: the refill once came after it only, and a failure at every call left the faults evicting for good.
            if (engine.freeFrames() < keepFree) {
                refill();
            }
        }
        // A housekeeping that stopped early (a chunk of best-of's simulations) goes on at once, a refill between
        // each chunk and the next: the faults' free frames first, the policy's background work in the gaps.
        sleepUnless(() -> engine.freeFrames() >= wakeThreshold && !policy.housekeepingPending(), IDLE_PARK_NANOS);
    }

    private void refill() {
        while (isRunning() && engine.freeFrames() < keepFree) {
            int frame;
            try {
                frame = engine.evict(sweep);
            } catch (IOException e) {
                throw new IllegalStateException("a background sweep does not throw write-out failures", e);
            }
            if (frame == EvictionEngine.NO_FRAME) {
                LockSupport.parkNanos(BACKOFF_NANOS);
                return;
            }
            engine.free(frame);
        }
    }
}
