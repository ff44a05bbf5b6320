package io.ratatosk.pagecache.internal;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where threads that found a page being faulted in by another thread wait for that fault to end, parked
 * rather than spinning: on a machine with as many busy threads as cores, a spinning waiter takes the core the
 * faulting thread needs to finish. Waiters and faults meet on one of {@value #STRIPES} monitors chosen by page
 * id; a fault that ends wakes the waiters of its stripe only if there are any, so a fault nobody waits for
 * pays one fence and one read.
 *
 * <pre>{@code
 * waiters.await(table, pageId);          // a cursor that saw FAULTING
 * table.set(pageId, entry); waiters.faultEnded(pageId);   // the faulting thread, on success or failure
 * }</pre>
 *
 * A waiter re-checks the entry under the stripe's monitor before it sleeps and a fault's wake-up takes the
 * same monitor, so no wake-up is lost; the sleep is bounded all the same ({@value #MAX_WAIT_MILLIS} ms), so that
 * a path that moved an entry off FAULTING and forgot to call {@link #faultEnded} costs time, never a hang. (At 1 ms,
 * as before, the waiters of a fault of slow storage woke a thousand times a second each: 16 of them waiting out a
 * two-second read burnt about 25 ms of CPU each.)
 */
public final class FaultWaiters {
    static final int STRIPES = 64;
    /**
     * Counters of different stripes 128 bytes apart (a cache line, and the line the adjacent-line prefetcher pairs
     * with it), so waiters of one stripe do not slow another's.
     */
    private static final int PADDING = 32;
    /** A page fault served from the OS's cache takes a few microseconds: spin that long before sleeping. */
    private static final int SPINS = 32;
    static final long MAX_WAIT_MILLIS = 10;

    private final Object[] monitors = new Object[STRIPES];
    /** The first {@link #PADDING} ints stay unused: they share a cache line with the array's length, which every access reads. */
    private final AtomicIntegerArray waiting = new AtomicIntegerArray((STRIPES + 1) * PADDING);
    /** Sleeps begun, each up to the bound: how often waiters looked again before their faults ended (read by tests). */
    private final AtomicLong sleeps = new AtomicLong();

    public FaultWaiters() {
        for (int i = 0; i < STRIPES; i++) {
            monitors[i] = new Object();
        }
    }

    static int cell(int stripe) {
        return (stripe + 1) * PADDING;
    }

    private static int stripe(long pageId) {
        return (int) (pageId ^ (pageId >>> 6)) & (STRIPES - 1);
    }

    /** Returns once {@code pageId}'s entry in {@code table} is no longer {@link TranslationTable#FAULTING}. */
    public void await(TranslationTable table, long pageId) {
        for (int i = 0; i < SPINS; i++) {
            if (table.get(pageId) != TranslationTable.FAULTING) {
                return;
            }
            Thread.onSpinWait();
        }
        int s = stripe(pageId);
        Object monitor = monitors[s];
        boolean interrupted = false;
        waiting.incrementAndGet(cell(s));
        try {
            synchronized (monitor) {
                while (table.get(pageId) == TranslationTable.FAULTING) {
                    try {
                        sleeps.incrementAndGet(); // once per sleep of up to the bound: nothing beside a fault's IO
                        monitor.wait(MAX_WAIT_MILLIS);
                    } catch (InterruptedException e) {
                        interrupted = true; // a fault is short: wait it out, and give the flag back after
                    }
                }
            }
        } finally {
            waiting.decrementAndGet(cell(s));
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sleeps begun by waiters so far. */
    long sleeps() {
        return sleeps.get();
    }

    /** Called by the faulting thread after it moved {@code pageId}'s entry off FAULTING (either way). */
    public void faultEnded(long pageId) {
        int s = stripe(pageId);
        // The entry's store is a release store; the waiter's count must not be read before it is visible,
        // or a waiter that counted itself and then saw FAULTING would sleep out its whole bound.
        VarHandle.fullFence();
        if (waiting.get(cell(s)) > 0) {
            Object monitor = monitors[s];
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }
}
