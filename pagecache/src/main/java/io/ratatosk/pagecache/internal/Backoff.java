package io.ratatosk.pagecache.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for another thread to finish a short step it cannot skip (a fault of the same
 * page, an eviction's write-out, a flush of the same frame): spin a little, then yield, then park for
 * growing pauses up to a millisecond. A waiter costs almost nothing while the other thread does IO, and
 * a descheduled holder (more threads than cores) gets the core instead of a spinner.
 *
 * <pre>{@code
 * int attempt = 0;
 * while (!done()) { attempt = Backoff.pause(attempt); }
 * }</pre>
 */
public final class Backoff {
    private static final int SPINS = 64;
    private static final int YIELDS = SPINS + 16;
    private static final long FIRST_PARK_NANOS = 10_000;
    static final long MAX_PARK_NANOS = 1_000_000;

    private Backoff() {
    }

    /** Waits a little, more as {@code attempt} grows; returns the next attempt number. */
    public static int pause(int attempt) {
        if (attempt < SPINS) {
            Thread.onSpinWait();
        } else if (attempt < YIELDS) {
            Thread.yield();
        } else {
            int doublings = Math.min(attempt - YIELDS, 7);
            park(Math.min(MAX_PARK_NANOS, FIRST_PARK_NANOS << doublings));
        }
        return attempt == Integer.MAX_VALUE ? attempt : attempt + 1;
    }

    /**
     * Parks for {@code nanos} even on a thread whose interrupt flag is set, and leaves the flag as it was: parkNanos
     * returns at once on such a thread (and once more after the flag is cleared, as the interrupt also unparked it),
     * so a waiter interrupted before or during its wait (a host cancelling a query by interrupting its thread) spun at
     * full speed for as long as the wait lasted, taking the core that the thread it waits for needs. The waits here
     * are for steps that end on their own; the caller sees its interrupt afterwards. No one unparks a thread to end
     * its pause (a DaemonWorker's wake-up is meant for its idle park), so parking the whole pause out loses nothing.
     * For any other wait of a fixed pause between looks, such as the eviction loop's while every frame is pinned.
     */
    public static void park(long nanos) {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
