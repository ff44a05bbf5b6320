package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that keeps {@code keepFree} frames on the free list, so that faults rarely have to evict
 * themselves. It sleeps until a fault finds the free list low, then evicts through the policy (with its
 * own persistent sweep) until the pool is refilled, and runs the policy's housekeeping in between.
 * An eviction whose write fails leaves the page dirty and resident and is reported to the next map,
 * fault or flush; the evictor backs off briefly and carries on.
 */
final class BackgroundEvictor implements Runnable {
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
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
                } else {
                    sleeping = true;
                    if (cache.freeFrames() >= keepFree) {
                        LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    }
                    sleeping = false;
                }
            } catch (RuntimeException | Error e) {
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
            long errorsBefore = cache.evictionErrors();
            if (cache.tryEvict(victim, true)) {
                frames.unlockExclusive(victim);
                cache.freeFrame(victim);
            } else if (cache.evictionErrors() != errorsBefore) {
                LockSupport.parkNanos(ERROR_BACKOFF_NANOS); // the disk refused a write-out: do not hammer it
            }
        }
    }
}
