package io.ratatosk.nvm;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A first-come, first-served lock that allocates nothing, held for one device operation: a ticket lock
 * whose waiters spin briefly, then park until the holder before them hands the lock on. It models a device's
 * request queue (requests are served in arrival order, as the fair {@code ReentrantLock} it replaces served
 * them) without that lock's queue nodes: a contended {@code ReentrantLock} allocates one per waiter, which
 * made every swap-in under contention allocate.
 *
 * <p>A waiter registers itself in the slot of its ticket ({@code ticket mod waiterSlots}) before it parks;
 * unlocking wakes the thread registered for the next ticket. With more waiters than slots two may share a
 * slot: the one that found it taken is not registered, and finds out within {@value #MAX_PARK_NANOS} ns, its
 * park's bound. Not reentrant.
 */
final class QueueLock {
    /** About the time a page copy takes: a lock held for a copy alone is handed on before a waiter sleeps. */
    private static final int SPINS = 128;
    /** A waiter whose slot another waiter holds: no unlock wakes it, so it looks again this often. */
    private static final long MAX_PARK_NANOS = 100_000;
    /**
     * A waiter registered in its slot: the unlock before its turn wakes it, so the bound only insures against a lost
     * wake-up. At 100 us, as before, a waiter behind an operation of a second (the flags allow 10 s) woke 10,000 times
     * and burnt a tenth of a CPU (as {@code PageLatch}'s waiters did).
     */
    private static final long REGISTERED_PARK_NANOS = 10_000_000;
    static final long REGISTERED_PARK_MILLIS = REGISTERED_PARK_NANOS / 1_000_000;
    private static final AtomicIntegerFieldUpdater<QueueLock> PARKS = AtomicIntegerFieldUpdater.newUpdater(QueueLock.class,
        "parks");

    private final AtomicLong nextTicket = new AtomicLong();
    private volatile long serving;
    private final AtomicReferenceArray<Thread> parked;
    private final int slotMask;
    /** Parks begun by waiters, each up to its bound (read by tests); a field, so a lock allocates nothing more. */
    private volatile int parks;

    /** @param waiterSlots waiters that can be woken directly rather than by their park's bound; a power of two */
    QueueLock(int waiterSlots) {
        if (waiterSlots <= 0 || Integer.bitCount(waiterSlots) != 1) {
            throw new IllegalArgumentException("waiterSlots must be a power of two: waiterSlots=" + waiterSlots);
        }
        this.parked = new AtomicReferenceArray<>(waiterSlots);
        this.slotMask = waiterSlots - 1;
    }

    void lock() {
        long ticket = nextTicket.getAndIncrement();
        for (int i = 0; i < SPINS; i++) {
            if (serving == ticket) {
                return;
            }
            Thread.onSpinWait();
        }
        int slot = (int) ticket & slotMask;
        Thread me = Thread.currentThread();
        // A ticket cannot be given back, so an interrupt does not end the wait; it is cleared for it (a park returns
        // at once while it is set, and the wait spun a core) and set again once served.
        boolean interrupted = false;
        while (serving != ticket) {
            // Only into a free slot: one taken is another waiter's, which an overwrite left to its park's bound.
            boolean registered = parked.compareAndSet(slot, null, me);
            // set, then read serving; unlock writes serving, then reads the slot: one of us sees the other
            if (serving != ticket) {
                PARKS.incrementAndGet(this);
                LockSupport.parkNanos(this, registered ? REGISTERED_PARK_NANOS : MAX_PARK_NANOS);
                interrupted |= Thread.interrupted();
            }
            if (registered) {
                parked.compareAndSet(slot, me, null);
            }
        }
        if (interrupted) {
            me.interrupt();
        }
    }

    /** Threads that have taken a ticket and not yet been served: the holder, if any, and those queued behind it. */
    long queued() {
        return nextTicket.get() - serving;
    }

    /** Parks begun by waiters so far. */
    int parks() {
        return parks;
    }

    /** Hands the lock to the next ticket. Only the holder may call it. */
    void unlock() {
        long next = serving + 1;
        serving = next;
        Thread waiter = parked.get((int) next & slotMask);
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }
}
