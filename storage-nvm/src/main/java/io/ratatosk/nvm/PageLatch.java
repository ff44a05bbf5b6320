package io.ratatosk.nvm;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A page latch of the NVM tier: a reentrant lock, like the {@code ReentrantLock} it replaces, that allocates nothing.
 * A contended {@code ReentrantLock} allocates a queue node per waiter, so under 4 to 16 threads every swap-in and
 * eviction that met another on its latch stripe allocated (3.5-11 B/op on 16 cores, docs/benchmarks.md).
 *
 * <p>Not first-come, first-served (unlike {@link QueueLock}, which models a device's queue): a latch is held across a
 * device operation, and a thread that is running takes a free latch at once rather than waiting for a parked one to
 * wake up. A waiter spins briefly, then registers in one of a few waiter slots and parks; an unlock wakes one
 * registered waiter (the unlock writes the state, then reads the slots; a waiter registers, then tries the state: one of
 * them sees the other). With more waiters than slots, one without a slot finds out within {@value #MAX_PARK_NANOS} ns,
 * its park's bound.
 */
final class PageLatch {
    private static final int SPINS = 128;
    /** A waiter without a slot: no unlock wakes it, so it looks again this often. */
    private static final long MAX_PARK_NANOS = 100_000;
    /**
     * A waiter in a slot: an unlock wakes it, so the bound only insures against a wake-up lost to a bug. At 100 us,
     * as before, a thread waiting out a latch held for a second woke 10,000 times and burnt a third of a CPU.
     */
    private static final long REGISTERED_PARK_NANOS = 10_000_000;
    private static final int WAITER_SLOTS = 8;

    /** 0 free, 1 held. */
    private final AtomicInteger state = new AtomicInteger();
    private final AtomicReferenceArray<Thread> waiters = new AtomicReferenceArray<>(WAITER_SLOTS);
    /**
     * The holder, written only by it (set after taking the latch, cleared before giving it up). Another thread may read
     * a stale value, but never itself: it only ever sees its own identity here between its own writes.
     */
    private Thread owner;
    private int holds;

    void lock() {
        Thread me = Thread.currentThread();
        if (owner == me) {
            holds++;
            return;
        }
        if (!state.compareAndSet(0, 1)) {
            acquireContended(me);
        }
        owner = me;
        holds = 1;
    }

    /** Takes the latch if it is free or this thread holds it; never waits. */
    boolean tryLock() {
        Thread me = Thread.currentThread();
        if (owner == me) {
            holds++;
            return true;
        }
        if (!state.compareAndSet(0, 1)) {
            return false;
        }
        owner = me;
        holds = 1;
        return true;
    }

    void unlock() {
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("a page latch was unlocked by " + Thread.currentThread().getName()
                + ", which does not hold it");
        }
        if (--holds > 0) {
            return;
        }
        owner = null;
        state.getAndSet(0); // a full fence: a waiter registers, then reads the state; this writes it, then reads the slots
        for (int i = 0; i < WAITER_SLOTS; i++) {
            Thread waiter = waiters.get(i);
            if (waiter != null) {
                LockSupport.unpark(waiter);
                return;
            }
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId: threadId() only exists from JDK 19
    private void acquireContended(Thread me) {
        for (int i = 0; i < SPINS; i++) {
            Thread.onSpinWait();
            if (state.get() == 0 && state.compareAndSet(0, 1)) {
                return;
            }
        }
        // An interrupt does not end the wait (ReentrantLock.lock's contract); it is cleared for the parks, which would
        // return at once while it is set, and set again once the latch is taken.
        boolean interrupted = false;
        int start = (int) (me.getId() & (WAITER_SLOTS - 1));
        while (true) {
            int slot = register(me, start);
            boolean acquired = state.compareAndSet(0, 1);
            if (!acquired) {
                LockSupport.parkNanos(this, slot >= 0 ? REGISTERED_PARK_NANOS : MAX_PARK_NANOS);
                interrupted |= Thread.interrupted();
                acquired = state.compareAndSet(0, 1);
            }
            if (slot >= 0) {
                waiters.compareAndSet(slot, me, null);
            }
            if (acquired) {
                break;
            }
        }
        if (interrupted) {
            me.interrupt();
        }
    }

    /** Puts {@code me} in a free waiter slot and returns it, or -1 if all are taken. */
    private int register(Thread me, int start) {
        for (int i = 0; i < WAITER_SLOTS; i++) {
            int slot = (start + i) & (WAITER_SLOTS - 1);
            if (waiters.get(slot) == null && waiters.compareAndSet(slot, null, me)) {
                return slot;
            }
        }
        return -1;
    }
}
