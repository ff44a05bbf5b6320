package io.ratatosk.core;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock of a policy's bookkeeping (its hands, lists, ghosts and counts): a {@link ReentrantLock} that one
 * thread finding it held spins on, for up to {@value #SPIN_NANOS} ns, before it parks; any other waiter parks
 * at once.
 *
 * <p>Why spin. A policy's critical sections are short (a fault's insertion, an eviction's removal, a hand's
 * step: well under a microsecond), and in a page cache the faulting threads and the background evictor take
 * the lock in turns, one fault and one eviction at a time. A plain {@code ReentrantLock} parks a thread that
 * finds it held almost at once: a futex wait, a context switch and an unpark by the holder, tens of
 * microseconds on a virtual machine where the holder needed a fraction of one, and a queue node allocated for
 * each wait. Spinning keeps the hand-over on the CPU. The spin is bounded in time, so a holder that is
 * descheduled (more runnable threads than cores) or a long section (a sweep over many frames) costs the
 * spinner at most that much CPU before it parks as before.
 *
 * <p>Why one spinner. With many threads faulting at once, every waiter spinning would burn a core each for
 * a lock only one of them can take next; the one spinner takes it at the hand-over, and the rest wait parked
 * as they would on a {@code ReentrantLock}, using no CPU.
 *
 * <p>Only {@link #lock()} changes; everything else is {@code ReentrantLock}'s (non-fair: the spinner may take
 * the lock ahead of a parked thread, as {@code tryLock} always may).
 */
public final class PolicyLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;
    /** How long the spinner spins on a held lock before it parks: about what a park and unpark cost. */
    public static final long SPIN_NANOS = 20_000;
    /** Spins between two reads of the clock. */
    private static final int SPINS_PER_CHECK = 64;

    /** 1 while a thread spins in {@link #lock()}. */
    private final AtomicInteger spinning = new AtomicInteger();

    @Override
    public void lock() {
        if (tryLock()) {
            return;
        }
        if (spinning.get() == 0 && spinning.compareAndSet(0, 1)) {
            try {
                long deadline = System.nanoTime() + SPIN_NANOS;
                do {
                    for (int i = 0; i < SPINS_PER_CHECK; i++) {
                        Thread.onSpinWait();
                        if (!isLocked() && tryLock()) {
                            return;
                        }
                    }
                } while (System.nanoTime() - deadline < 0);
            } finally {
                spinning.set(0);
            }
        }
        super.lock();
    }
}
