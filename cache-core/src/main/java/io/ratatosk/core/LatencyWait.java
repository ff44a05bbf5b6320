package io.ratatosk.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Holds the calling thread until a deadline, to make an emulated operation (an NVM device's, a slow
 * disk's) take its modeled time. Short waits spin ({@link Thread#onSpinWait}), because parking costs tens of microseconds of
 * timer slack on Linux and would dwarf a 10 us device; long waits park for all but the last
 * {@value #SPIN_BELOW_NANOS} ns and spin the rest. The caller measures the time actually spent:
 * parking overshoots, and on a loaded machine so does spinning, so injected time is at least the
 * modeled time and usually somewhat more.
 */
public final class LatencyWait {
    /** Waits shorter than this spin; longer ones park first. */
    public static final long SPIN_BELOW_NANOS = 20_000;

    private LatencyWait() {
    }

    /**
     * Waits until {@code System.nanoTime()} reaches {@code deadline}. An interrupt does not cut the modeled time short (the
     * device would not answer sooner); it is cleared for the wait, as a park returns at once while it is set (the
     * wait spun a whole core through the modeled time), and set again after.
     */
    public static void until(long deadline) {
        boolean interrupted = false;
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            if (remaining > SPIN_BELOW_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_BELOW_NANOS);
                interrupted |= Thread.interrupted();
            } else {
                Thread.onSpinWait();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
