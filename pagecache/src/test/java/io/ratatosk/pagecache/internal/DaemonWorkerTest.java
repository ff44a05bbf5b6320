package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A background worker of the cache outlives whatever its steps, and the handler its failures go to, do to it. */
class DaemonWorkerTest {
    private Thread.UncaughtExceptionHandler previousHandler;

    @BeforeEach
    void keepHandler() {
        previousHandler = Thread.getDefaultUncaughtExceptionHandler();
    }

    @AfterEach
    void restoreHandler() {
        Thread.setDefaultUncaughtExceptionHandler(previousHandler);
    }

    /** A worker whose first step throws, and which counts every step. */
    private static final class FailingOnce extends DaemonWorker {
        final AtomicInteger steps = new AtomicInteger();
        final CountDownLatch stepsAfterFailure = new CountDownLatch(3);

        FailingOnce() {
            super("daemon-worker-test");
        }

        @Override
        protected void step() {
            if (steps.incrementAndGet() == 1) {
                throw new IllegalStateException("injected: the step failed");
            }
            stepsAfterFailure.countDown();
            sleepUnless(() -> true, TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * The handler a failure is reported to is the host's code: when it threw, the exception left the worker's loop and
     * the thread ended after one step, without a word (the evictor gone, the policy's background housekeeping with it).
     */
    @Test
    void aWorkerCarriesOnWhenTheHandlerItReportsToThrows() throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> {
            throw new IllegalStateException("injected: the handler failed on " + failure.getMessage());
        });
        FailingOnce worker = new FailingOnce();
        worker.start();
        try {
            // A worker that stopped never takes them: the shared bound, not 5 s, for a loaded machine's slow but live one
            Waits.await(worker.stepsAfterFailure, "three steps after the one whose handler threw (the worker stopped?)",
                Waits.threadNamed("daemon-worker-test"));
        } finally {
            worker.shutdown();
        }
    }

    /** A worker that sleeps its period in every step, as the evictor, the warm-up and the prefetchers do when idle. */
    private static final class Sleeper extends DaemonWorker {
        static final long PERIOD_MILLIS = 10;
        final AtomicInteger steps = new AtomicInteger();
        volatile Thread thread;

        Sleeper() {
            super("daemon-worker-test-sleeper");
        }

        @Override
        protected void step() {
            thread = Thread.currentThread();
            steps.incrementAndGet();
            sleepUnless(() -> true, TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS));
        }
    }

    /**
     * A worker is stopped by {@link DaemonWorker#shutdown}, never by an interrupt; but a host may interrupt it (a thread
     * group's interrupt, a plug-in's code that restores an interrupt on the worker's thread). The flag stayed set, a park
     * returns at once while it is, and the worker ran its steps back to back for good: a core burnt by an idle cache.
     */
    @Test
    void anInterruptedWorkerStillSleepsBetweenSteps() throws Exception {
        Sleeper worker = new Sleeper();
        worker.start();
        try {
            Waits.until(() -> worker.thread != null, "the worker's first step", Waits.threadNamed("daemon-worker-test-sleeper"));
            worker.thread.interrupt();
            Thread.sleep(20); // the interrupt reaches the park under way
            int before = worker.steps.get();
            long start = System.nanoTime();
            Thread.sleep(200);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            int steps = worker.steps.get() - before;
            assertTrue(steps <= millis / Sleeper.PERIOD_MILLIS + 5,
                "an interrupted worker ran " + steps + " steps in " + millis + " ms, with a " + Sleeper.PERIOD_MILLIS
                    + " ms sleep in each");
        } finally {
            worker.shutdown();
        }
    }

    /**
     * A step that fails every time (a policy's housekeeping with a bug, a tier whose hook always throws): each failure
     * went to the handler, 100 a second with their stack traces, for as long as the cache was open, enough to fill a
     * host's log disk. A run of failures is reported at its first and then at most once per
     * {@link DaemonWorker#REPEATED_FAILURE_REPORT_NANOS}; the steps go on at the usual pace.
     */
    @Test
    void aStepThatKeepsFailingIsReportedOnceAWhileNotAtEveryTry() throws Exception {
        AtomicInteger reports = new AtomicInteger();
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> {
            if (thread.getName().equals("daemon-worker-test-failing")) {
                reports.incrementAndGet(); // the handler is the JVM's: a thread another test left running reports there too
            }
        });
        AtomicInteger steps = new AtomicInteger();
        DaemonWorker worker = new DaemonWorker("daemon-worker-test-failing") {
            @Override
            protected void step() {
                steps.incrementAndGet();
                throw new IllegalStateException("injected: this step always fails");
            }
        };
        long start = System.nanoTime();
        worker.start();
        try {
            // Until the worker has tried 5 times, however long a loaded machine makes that take (it once had to within a
            // fixed 500 ms); a report is due at the first failure and then once per period, so the count the elapsed time
            // allows is checked, not a bare 1
            Waits.until(() -> steps.get() >= 5, "5 tries of the failing step (the worker stopped trying?)",
                Waits.threadNamed("daemon-worker-test-failing"));
            int tried = steps.get();
            int reported = reports.get(); // after the steps: each step's report comes before the next step
            long nanos = System.nanoTime() - start;
            long allowed = 1 + nanos / DaemonWorker.REPEATED_FAILURE_REPORT_NANOS;
            assertTrue(reported >= 1 && reported <= allowed, reported + " reports of " + tried + " failed steps in "
                + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms, where " + allowed + " at most were due");
        } finally {
            worker.shutdown();
        }
    }
}
