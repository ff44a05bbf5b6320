package io.ratatosk.pagecache.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Spaces write calls at most {@code limit} per second ({@code pagecache.flush.iops_limit}): each
 * {@link #acquire} takes the next free slot, {@code 1s / limit} after the one before, and waits for it.
 * Slots not used are not saved up, so a flush after a quiet spell does not come as a burst. Shared by every
 * flush of a cache, so flushing several files at once stays within the one limit. Thread-safe.
 */
public final class IopsLimiter {
    /** Where the limiter reads the time and how it waits: the system's, or a test's. */
    public interface Clock {
        long nanoTime();

        /** Waits about {@code nanos}; may return early (the limiter checks the time again). */
        void park(long nanos);
    }

    /** The system clock, parking the thread. */
    public static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void park(long nanos) {
            LockSupport.parkNanos(nanos);
        }
    };

    /** No limit: {@link #acquire} returns at once. */
    public static final IopsLimiter UNLIMITED = new IopsLimiter(0, SYSTEM);

    /** How long a wait goes without looking whether it should hurry. */
    public static final long HURRY_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final BooleanSupplier NEVER = () -> false;

    private final long intervalNanos;
    private final Clock clock;
    /** The time of the next free slot. Guarded by this. */
    private long nextSlot = Long.MIN_VALUE;
    private long waitedNanos;

    /** @param limit write calls per second; 0 for no limit */
    public IopsLimiter(int limit, Clock clock) {
        if (limit < 0) {
            throw new IllegalArgumentException("pagecache.flush.iops_limit must be >= 0 (0 = unlimited): " + limit);
        }
        this.intervalNanos = limit == 0 ? 0 : Math.max(1, TimeUnit.SECONDS.toNanos(1) / limit);
        this.clock = clock;
    }

    public static IopsLimiter of(int limit) {
        return limit == 0 ? UNLIMITED : new IopsLimiter(limit, SYSTEM);
    }

    public boolean isLimited() {
        return intervalNanos > 0;
    }

    /** Waits for the next slot for one write call; at once without a limit. */
    public void acquire() {
        acquire(NEVER);
    }

    /**
     * As {@link #acquire()}, but returns as soon as {@code hurry} is true, without taking a slot if it already
     * is: a flush that an unmap or a close is waiting for must not keep it waiting at the limited rate (those
     * flushes are not limited). Looked at least every {@link #HURRY_CHECK_NANOS} while waiting.
     */
    public void acquire(BooleanSupplier hurry) {
        if (intervalNanos == 0 || hurry.getAsBoolean()) {
            return;
        }
        long slot;
        synchronized (this) {
            long now = clock.nanoTime();
            slot = nextSlot == Long.MIN_VALUE || nextSlot - now < 0 ? now : nextSlot;
            nextSlot = slot + intervalNanos;
            waitedNanos += slot - now;
        }
        // An interrupt does not cut the wait short (the flush goes on, as its IO does), and would make
        // every park return at once: it is cleared for the wait and set again after it.
        boolean interrupted = false;
        long wait;
        while ((wait = slot - clock.nanoTime()) > 0 && !hurry.getAsBoolean()) {
            clock.park(Math.min(wait, HURRY_CHECK_NANOS));
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Total time calls were scheduled to wait for their slot, in nanoseconds. */
    public synchronized long waitedNanos() {
        return waitedNanos;
    }
}
