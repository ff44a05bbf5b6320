package io.ratatosk.pagecache;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.opentest4j.AssertionFailedError;

/**
 * A test's waits for another thread: one bound for all, generous enough for a loaded 2-core CI machine running other
 * modules' tests beside (where a thread can wait seconds for a core), and a failure that says what was waited for and,
 * where a thread was, what that thread is doing. A bound is there to end a test that hangs, never to time the library:
 * a wait that runs out is a hang, not a slow machine.
 */
public final class Waits {
    /** How long any one wait may take: {@code ratatosk.test.wait_s} seconds, 60 by default. */
    public static final long BOUND_SECONDS = Long.getLong("ratatosk.test.wait_s", 60);

    private Waits() {
    }

    /** Waits for {@code latch}; fails naming {@code what} if it is not counted down within the bound. */
    public static void await(CountDownLatch latch, String what) throws InterruptedException {
        await(latch, what, null);
    }

    /** Waits for {@code latch}, which {@code counter} counts down; fails naming {@code what}, with its stack, if not in time. */
    public static void await(CountDownLatch latch, String what, Thread counter) throws InterruptedException {
        if (!latch.await(BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionFailedError(notWithin(what) + stackOf(counter));
        }
    }

    /**
     * Waits for {@code latch} from inside the library (a swapper's or a listener's hook a test holds): at most the
     * bound, keeping an interrupt, and never throws, so that the library's path under test goes on as it would. Returns
     * whether the latch was counted down.
     */
    public static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits for {@code thread} to end; fails naming {@code what}, with the thread's stack, if it is alive after the bound. */
    public static void join(Thread thread, String what) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
        if (thread.isAlive()) {
            throw new AssertionFailedError(notWithin(what) + stackOf(thread));
        }
    }

    /**
     * Polls {@code condition}, yielding the core between looks (a spin would take it from the very thread the test
     * waits for on a 2-core machine), until it holds; fails naming {@code what}, with {@code worker}'s stack where it
     * is not null, if it does not within the bound.
     */
    public static void until(BooleanSupplier condition, String what, Thread worker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        for (int looks = 0; !condition.getAsBoolean(); looks++) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionFailedError(notWithin(what) + stackOf(worker));
            }
            if (looks < 100) {
                Thread.yield();
            } else {
                Thread.sleep(1);
            }
        }
    }

    /** {@link #until(BooleanSupplier, String, Thread)} with no one thread to show. */
    public static void until(BooleanSupplier condition, String what) throws InterruptedException {
        until(condition, what, null);
    }

    /** The live thread named {@code name}, or null: a worker the library started (the evictor, read-ahead...). */
    public static Thread threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst().orElse(null);
    }

    private static String notWithin(String what) {
        return what + ": not within " + BOUND_SECONDS + " s (ratatosk.test.wait_s)";
    }

    private static String stackOf(Thread thread) {
        if (thread == null) {
            return "";
        }
        StringBuilder dump = new StringBuilder("\n\"").append(thread.getName()).append("\" ").append(thread.getState());
        for (StackTraceElement frame : thread.getStackTrace()) {
            dump.append("\n    at ").append(frame);
        }
        return dump.toString();
    }
}
