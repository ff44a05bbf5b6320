package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that keeps up to {@code keepFree} frames on the free list, so that faults rarely have to
 * evict themselves. Whenever it runs and finds fewer than {@code keepFree} frames free, it evicts through
 * the policy (with its own persistent sweep) until {@code keepFree} are, then sleeps. It runs every
 * {@value #IDLE_PARK_MILLIS} ms, and at once when a fault finds the pool below its {@link #wakeThreshold}
 * (half of keep_free): so under a stream of faults the pool swings between half and all of keep_free, and
 * each wake-up is paid for by keep_free / 2 evictions. Waking at keep_free itself, as first built, cost
 * a futex wake and two context switches per fault (4.6 us of CPU per fault at 4x file/cache); refilling
 * a quarter past keep_free instead (the next version) kept about 1.1 x keep_free frames free on average,
 * about twice what Muninn keeps, at 0.3-0.8 points of hit ratio. It runs the policy's housekeeping in between.
 * An eviction whose write fails leaves the page dirty and resident and is reported to the next map,
 * fault or flush; the evictor backs off briefly and carries on. Nothing else stops it either: a policy
 * that throws (any {@link Throwable}) is reported and the evictor resumes after a pause; it never holds
 * a frame lock between evictions.
 */
final class BackgroundEvictor implements Runnable {
    private static final long IDLE_PARK_MILLIS = 10;
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS);
    private static final long ERROR_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PageCache cache;
    private final int keepFree;
    private final Sweep sweep = Sweep.background();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean sleeping;

    BackgroundEvictor(PageCache cache, int keepFree) {
        this.cache = cache;
        this.keepFree = keepFree;
        this.thread = new Thread(this, "ratatosk-evictor");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Free frames below which a fault wakes the evictor rather than letting it sleep out its period. */
    static int wakeThreshold(int keepFree) {
        return Math.max(1, keepFree / 2);
    }

    /** Wakes the evictor if it is sleeping; cheap when it is already awake. */
    void wake() {
        if (sleeping) {
            sleeping = false;
            LockSupport.unpark(thread);
        }
    }

    void shutdown() {
        running = false;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        EvictionPolicy policy = cache.policy();
        while (running) {
            try {
                policy.housekeeping();
                if (cache.freeFrames() < keepFree) {
                    refill(policy);
                }
                // Publish "sleeping" before the last look, so a fault that empties the pool past the
                // threshold meanwhile either sees it and unparks us, or is seen here.
                sleeping = true;
                if (cache.freeFrames() >= wakeThreshold(keepFree)) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
                sleeping = false;
            } catch (Throwable e) {
                // A bug in a policy must not stop eviction for good; faults would then evict cooperatively
                // forever. Report and carry on after a pause.
                Thread.UncaughtExceptionHandler handler = Thread.getDefaultUncaughtExceptionHandler();
                if (handler != null) {
                    handler.uncaughtException(thread, e);
                } else {
                    e.printStackTrace();
                }
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
        }
    }

    private void refill(EvictionPolicy policy) {
        FrameTable frames = cache.frames();
        sweep.begin();
        int passesWithoutVictim = 0;
        while (running && cache.freeFrames() < keepFree) {
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                if (++passesWithoutVictim > 2) {
                    LockSupport.parkNanos(ERROR_BACKOFF_NANOS); // everything is pinned or hot; let faults proceed
                    return;
                }
                continue;
            }
            EvictionOutcome outcome = cache.tryEvict(victim, true);
            if (outcome == EvictionOutcome.EVICTED) {
                frames.unlockExclusive(victim);
                cache.freeFrame(victim);
            } else if (outcome == EvictionOutcome.WRITE_FAILED) {
                LockSupport.parkNanos(ERROR_BACKOFF_NANOS); // the disk refused a write-out: do not hammer it
            }
        }
    }
}
