package io.ratatosk.pagecache.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The operations in flight on one mapped file that bind frames to it or write it (faults, prefetches,
 * flushes), and the gate its unmap closes. Once closed, {@link #enter} refuses, and {@link #close}
 * returns only when every operation that got in has left: after that no frame can become bound to the
 * file, which is what lets an unmap drop its pages knowing none will appear behind it.
 */
public final class OperationGate {
    private static final long CLOSED = 1L << 62;
    private static final long COUNT = CLOSED - 1;

    private final AtomicLong state = new AtomicLong();

    /** True if the operation may go ahead (then call {@link #exit} when done); false once closed. */
    public boolean enter() {
        if ((state.incrementAndGet() & CLOSED) != 0) {
            state.decrementAndGet();
            return false;
        }
        return true;
    }

    public void exit() {
        state.decrementAndGet();
    }

    /**
     * Refuses new operations and waits for those in flight. Must not be called from inside one. One
     * closer at a time: while another holds the gate closed (a truncate), waits for it to reopen first.
     */
    public void close() {
        int attempt = 0;
        while (!tryClose()) {
            attempt = Backoff.pause(attempt);
        }
        awaitDrained();
    }

    /**
     * Closes the gate if it is open, making the caller its one closer; false if it is closed already
     * (by an unmap, or another truncate). Call {@link #awaitDrained} next.
     */
    public boolean tryClose() {
        long s;
        do {
            s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
        } while (!state.compareAndSet(s, s | CLOSED));
        return true;
    }

    /** For the closer: waits until every operation that got in before the gate closed has left. */
    public void awaitDrained() {
        int attempt = 0;
        while ((state.get() & COUNT) != 0) {
            attempt = Backoff.pause(attempt);
        }
    }

    /** Lets operations in again: after an unmap that failed and left the file mapped, or after a truncate. */
    public void reopen() {
        long s;
        do {
            s = state.get();
        } while ((s & CLOSED) != 0 && !state.compareAndSet(s, s & ~CLOSED));
    }

    public boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }
}
