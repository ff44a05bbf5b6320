package io.ratatosk.pagecache.internal;

import java.io.IOException;

/**
 * Gathering the failures of steps that must all run (a close, a flush of every file) and throwing the first, the
 * others suppressed in it.
 */
public final class Failures {
    private Failures() {
    }

    /**
     * Loads this class. Whoever gathers failures where the heap may be full (a cache's close, a failed open) calls it
     * beforehand, with the heap free: loading a class allocates, and where a close's first use of this class came with
     * the heap full, the OutOfMemoryError came out between its steps, past the ones after it.
     */
    public static void load() {
        // nothing more: the call has loaded and initialized the class
    }

    /** {@code next} as the failure so far when there was none, else suppressed in {@code first}; returns the first. */
    public static Throwable add(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (first != next) {
            first.addSuppressed(next);
        }
        return first;
    }

    /**
     * {@link #add}, where a failure to add (the heap full: {@code addSuppressed} allocates its list) leaves {@code next}
     * out rather than come out in place of the failures so far; {@code next} may be null. For the steps of a close that
     * must all run, even with the heap full.
     */
    public static Throwable addOrLeaveOut(Throwable first, Throwable next) {
        if (next == null) {
            return first;
        }
        try {
            return add(first, next);
        } catch (Throwable full) {
            return first;
        }
    }

    /** Throws {@code failure} as it is (an {@code IOException}, unchecked or an Error), another wrapped; nothing if null. */
    public static void rethrow(Throwable failure) throws IOException {
        if (failure == null) {
            return;
        }
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IOException(failure);
    }
}
