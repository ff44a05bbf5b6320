package io.ratatosk.pagecache.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A daemon thread that runs one step of a background duty after another until {@link #shutdown}, and
 * that other threads can {@link #wake} from a sleep. Whatever a step throws, {@code Error}s included,
 * is reported (the default uncaught exception handler, else standard error) and the worker carries on
 * after a pause, also when the handler throws: a background duty of the cache must not die of one bad step. Of a run
 * of failed steps, the first is reported, then one every 10 s at most.
 * A step must leave nothing locked when it throws. An interrupt does not stop a worker (only {@link #shutdown} does):
 * it is cleared before each step.
 */
public abstract class DaemonWorker {
    private static final long FAILURE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** While steps keep failing, the failures after the first are reported at most this often. */
    static final long REPEATED_FAILURE_REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How often a shutdown waiting for the worker looks whether its failure went to the handler meanwhile. */
    private static final long REPORT_CHECK_MILLIS = 10;

    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean sleeping;
    /** Set while a step's failure is with the handler: the host's code, which touches nothing of the cache's. */
    private volatile boolean reporting;

    protected DaemonWorker(String name) {
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public final void start() {
        thread.start();
    }

    /** One unit of the duty. */
    protected abstract void step();

    protected final boolean isRunning() {
        return running;
    }

    /** True when called on the worker's own thread. */
    public final boolean isWorkerThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Sleeps up to {@code nanos}, unless {@code stillIdle} says otherwise once this worker is marked
     * sleeping: a thread that makes work and then calls {@link #wake} either is seen by that last look
     * or sees the mark and unparks the worker, so no wake-up is lost.
     */
    protected final void sleepUnless(BooleanSupplier stillIdle, long nanos) {
        sleeping = true;
        if (running && stillIdle.getAsBoolean()) {
            LockSupport.parkNanos(this, nanos);
        }
        sleeping = false;
    }

    /** Wakes the worker if it is sleeping; cheap when it is awake. */
    public final void wake() {
        if (sleeping) {
            sleeping = false;
            LockSupport.unpark(thread);
        }
    }

    /**
     * Stops the worker after its current step and waits for it; on the worker's own thread (the cache closed from the
     * uncaught exception handler a step's failure went to) it only stops it: the thread ends once that call returns, and
     * a worker's step stops at its next look at {@link #isRunning}. (It once waited for itself, for ever.)
     *
     * <p>Nor does it wait for the handler a failure is with: that handler is the host's code, which may never return
     * (a {@code System.exit} there waits for the shutdown hooks, and a hook that closed the cache waited for the
     * worker: the JVM never exited). Once shutdown sees the worker reporting, the worker runs no step again: it reads
     * {@code running} only after it stops reporting.
     */
    public final void shutdown() {
        running = false;
        LockSupport.unpark(thread);
        if (isWorkerThread()) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive() && !reporting) {
            try {
                thread.join(REPORT_CHECK_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        boolean failing = false; // the last step failed
        long lastReport = 0;
        while (running) {
            // Only shutdown stops a worker. An interrupt (a thread group's, or one a plug-in restored on this thread) would
            // stay set and make every park return at once: the worker ran its steps back to back, a core for good.
            Thread.interrupted();
            try {
                step();
                failing = false;
            } catch (Throwable t) {
                // A step that fails every time was reported 100 times a second, stack traces and all, for as long as the
                // cache was open: the first of a run of failures is reported, then one now and then.
                long now = System.nanoTime();
                if (!failing || now - lastReport >= REPEATED_FAILURE_REPORT_NANOS) {
                    lastReport = now;
                    reporting = true;
                    try {
                        report(t);
                    } finally {
                        reporting = false;
                    }
                }
                failing = true;
                LockSupport.parkNanos(FAILURE_PAUSE_NANOS);
            }
        }
    }

    /**
     * Hands a step's failure to the default uncaught exception handler, else standard error. The handler is the host's
     * code: whatever it throws is printed and the worker carries on (it once left the loop, and the worker's thread
     * ended without a word).
     */
    private void report(Throwable failure) {
        try {
            Thread.UncaughtExceptionHandler handler = Thread.getDefaultUncaughtExceptionHandler();
            if (handler != null) {
                handler.uncaughtException(thread, failure);
                return;
            }
        } catch (Throwable handlerFailure) {
            // Not suppressed in the failure: a step may throw one instance again and again, which would keep them all.
            print(handlerFailure, "its uncaught exception handler's failure");
        }
        print(failure, "");
    }

    private void print(Throwable failure, String what) {
        try {
            System.err.println(thread.getName() + " carries on after" + (what.isEmpty() ? "" : " " + what) + ": " + failure);
            failure.printStackTrace();
        } catch (Throwable ignored) {
            // nowhere left to say it; the worker's duty comes first
        }
    }
}
