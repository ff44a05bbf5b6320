package io.ratatosk.it.lifecycle;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The first thing that went wrong in a run, from any thread: a worker, the watchdog, a cache thread's
 * uncaught exception. Once set, every worker stops at its next operation. The first failure is printed
 * at once with the {@link #context} (the threads' last operations), before anything else can crash the JVM.
 */
final class Failures {
    private final AtomicReference<AssertionError> first = new AtomicReference<>();
    private final CountDownLatch failed = new CountDownLatch(1);
    private volatile Supplier<String> context = () -> "";

    /** What to print with the first failure. */
    void context(Supplier<String> context) {
        this.context = context;
    }

    /** Records a failure (only the first counts); returns it for throwing. */
    AssertionError fail(String message, Throwable cause) {
        AssertionError e = new AssertionError(message, cause);
        if (first.compareAndSet(null, e)) {
            System.out.println("FAILURE: " + message);
            if (cause != null) {
                cause.printStackTrace(System.out);
            }
            System.out.println(context.get());
            System.out.flush();
            failed.countDown();
        } else if (first.get() != e) {
            first.get().addSuppressed(e);
        }
        return e;
    }

    boolean any() {
        return first.get() != null;
    }

    AssertionError first() {
        return first.get();
    }

    /** Waits up to {@code millis} for a failure; true if there is one. */
    boolean await(long millis) throws InterruptedException {
        return failed.await(millis, TimeUnit.MILLISECONDS);
    }
}
