package io.ratatosk.it;

import io.ratatosk.pagecache.Waits;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.opentest4j.AssertionFailedError;

/**
 * Runs a test's body on several threads of its own and waits for them: returns once every one has ended, throws the
 * first thread's failure as soon as there is one (a thread that waits for the failed one, or for a page it left
 * locked, would otherwise be waited for to the bound and the failure shown as a timeout), and fails with the stack of
 * every thread still running if they have not all ended within {@link Waits#BOUND_SECONDS} ({@code ratatosk.test.wait_s}).
 * The threads are daemons: one stuck in the cache must not keep the JVM alive.
 */
final class TestThreads {
    interface Body {
        void run(int thread) throws Exception;
    }

    private TestThreads() {
    }

    static void run(String what, int count, Body body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[count];
        for (int t = 0; t < count; t++) {
            int thread = t;
            threads[t] = new Thread(() -> {
                try {
                    body.run(thread);
                } catch (Throwable e) {
                    failure.compareAndSet(null, new AssertionFailedError(what + "-" + thread + " failed: " + e, e));
                }
            }, what + "-" + t);
            threads[t].setDaemon(true);
        }
        for (Thread thread : threads) {
            thread.start();
        }
        try {
            Waits.until(() -> failure.get() != null || Arrays.stream(threads).noneMatch(Thread::isAlive),
                what + ": every thread ended");
        } catch (AssertionFailedError e) {
            throw withStacksOfThoseRunning(e, threads);
        }
        Throwable first = failure.get();
        if (first != null) {
            for (Thread thread : threads) {
                thread.interrupt(); // the others: stop waiting, if they wait
            }
            throw withStacksOfThoseRunning((AssertionFailedError) first, threads);
        }
    }

    private static AssertionFailedError withStacksOfThoseRunning(AssertionFailedError e, Thread[] threads) {
        for (Thread thread : threads) {
            StackTraceElement[] stack = thread.getStackTrace();
            if (thread.isAlive()) {
                Throwable running = new Throwable("still running: \"" + thread.getName() + "\" " + thread.getState(), null,
                    false, true) {
                };
                running.setStackTrace(stack);
                e.addSuppressed(running);
            }
        }
        return e;
    }
}
