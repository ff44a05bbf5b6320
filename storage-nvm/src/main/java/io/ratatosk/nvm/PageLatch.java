package io.ratatosk.nvm;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
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
 * them sees the other). With more waiters than slots, those without a slot wait on a monitor until an unlock that found
 * no registered waiter, or a registered waiter leaving its slot with the latch, wakes one of them. (They once parked
 * 100 us at a time and looked again: of 16 waiters on a latch held two seconds, those without a slot burnt 60-160 ms
 * of CPU each.)
 */
final class PageLatch {
    private static final int SPINS = 128;
    /**
     * Every wait's bound: an unlock or a slot coming free wakes the waiter, so the bound only insures against a
     * wake-up lost to a bug. At 100 us, as before, a thread waiting out a latch held for a second woke 10,000 times and
     * burnt a third of a CPU.
     */
    private static final long REGISTERED_PARK_NANOS = 10_000_000;
    static final long REGISTERED_PARK_MILLIS = REGISTERED_PARK_NANOS / 1_000_000;
    private static final int WAITER_SLOTS = 8;

    /** 0 free, 1 held. */
    private final AtomicInteger state = new AtomicInteger();
    private final AtomicReferenceArray<Thread> waiters = new AtomicReferenceArray<>(WAITER_SLOTS);
    /** Waiters that found every slot taken, waiting on {@link #beyondSlotsMonitor}; read by unlocks and leaving waiters. */
    private final AtomicInteger beyondSlots = new AtomicInteger();
    /**
     * Where waiters without a slot wait: a monitor's wait allocates nothing on the heap, and wakes exactly one of any
     * number of them, which the slots' fixed array cannot name.
     */
    private final Object beyondSlotsMonitor = new Object();
    /** Waits begun on {@link #beyondSlotsMonitor}, each up to the bound (read by tests); written under that monitor. */
    private int beyondSlotsWaits;
    private static final AtomicIntegerFieldUpdater<PageLatch> REGISTERED_PARKS =
        AtomicIntegerFieldUpdater.newUpdater(PageLatch.class, "registeredParks");
    /** Parks begun by registered waiters, each up to the bound (read by tests); a field, so a latch allocates nothing more. */
    private volatile int registeredParks;
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
        wakeOneBeyondSlots();
    }

    /**
     * Wakes one waiter without a slot, if any: the latch is free with no registered waiter to take it, or a slot came
     * free. Each caller wrote the state or a slot before (a full fence) and reads the count after, and a waiter counts
     * itself before it reads the state and the slots: one of them sees the other.
     */
    private void wakeOneBeyondSlots() {
        if (beyondSlots.get() > 0) {
            synchronized (beyondSlotsMonitor) {
                beyondSlotsMonitor.notify();
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
            if (slot < 0) {
                interrupted |= awaitReleaseOrSlot();
                if (state.get() == 0 && state.compareAndSet(0, 1)) {
                    break;
                }
                continue;
            }
            boolean acquired = state.compareAndSet(0, 1);
            if (!acquired) {
                REGISTERED_PARKS.incrementAndGet(this);
                LockSupport.parkNanos(this, REGISTERED_PARK_NANOS);
                interrupted |= Thread.interrupted();
                acquired = state.compareAndSet(0, 1);
            }
            waiters.compareAndSet(slot, me, null);
            if (acquired) {
                wakeOneBeyondSlots(); // its slot is free for good: a waiter without one takes it
                break;
            }
        }
        if (interrupted) {
            me.interrupt();
        }
    }

    /**
     * Waits, every slot taken, until the latch is released with no registered waiter or a slot comes free (or the
     * bound passes); returns whether the thread was interrupted meanwhile (the flag is cleared, as for the parks).
     */
    private boolean awaitReleaseOrSlot() {
        boolean interrupted = false;
        beyondSlots.incrementAndGet();
        try {
            synchronized (beyondSlotsMonitor) {
                if (state.get() != 0 && !anySlotFree()) {
                    try {
                        beyondSlotsWaits++;
                        beyondSlotsMonitor.wait(REGISTERED_PARK_MILLIS);
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            beyondSlots.decrementAndGet();
        }
        return interrupted;
    }

    /** Parks begun by waiters in a slot so far. */
    int registeredParks() {
        return registeredParks;
    }

    /** Waits begun by waiters without a slot so far. */
    int beyondSlotsWaits() {
        synchronized (beyondSlotsMonitor) {
            return beyondSlotsWaits;
        }
    }

    private boolean anySlotFree() {
        for (int i = 0; i < WAITER_SLOTS; i++) {
            if (waiters.get(i) == null) {
                return true;
            }
        }
        return false;
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
