package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
            assertTrue(worker.stepsAfterFailure.await(5, TimeUnit.SECONDS),
                "the worker stopped after its handler threw: " + worker.steps.get() + " step(s)");
        } finally {
            worker.shutdown();
        }
    }
}
