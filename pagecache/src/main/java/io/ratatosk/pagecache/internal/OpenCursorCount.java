package io.ratatosk.pagecache.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The number of cursors open on a page cache, kept in padded per-thread-stripe cells so that opening
 * and closing cursors on many threads does not contend on one cache line.
 *
 * <p>It is what keeps page memory alive for a cursor a store forgot to close before closing the cache:
 * memory is freed only once the cache is closed and this count is zero. Opening increments with an
 * atomic add (a full fence) and then reads the file's closed flag; closing the cache writes that flag
 * and then reads the count. Whichever comes second sees the other, so a cursor either sees the file
 * closed and backs out, or is counted and keeps the memory.
 */
public final class OpenCursorCount {
    private static final int STRIPES = 64;
    /** Longs per cell: 128 bytes, so two threads' cells never share a cache line or an adjacent pair. */
    private static final int PADDING = 16;

    private final AtomicLongArray cells = new AtomicLongArray(STRIPES * PADDING);

    /** Counts a cursor opened on this thread; returns the stripe to give back to {@link #closed}. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() only exists from JDK 19
    public int opened() {
        long id = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
        int stripe = (int) (id >>> (Long.SIZE - Integer.numberOfTrailingZeros(STRIPES)));
        cells.getAndIncrement(stripe * PADDING);
        return stripe;
    }

    /** Counts a cursor closed (on any thread) that {@link #opened} counted in {@code stripe}. */
    public void closed(int stripe) {
        cells.getAndDecrement(stripe * PADDING);
    }

    /** Cursors open right now. */
    public long count() {
        long sum = 0;
        for (int stripe = 0; stripe < STRIPES; stripe++) {
            sum += cells.get(stripe * PADDING);
        }
        return sum;
    }
}
