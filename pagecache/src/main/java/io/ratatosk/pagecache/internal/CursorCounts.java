package io.ratatosk.pagecache.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What cursors count on a page cache: how many are open, and the hits and faults they pinned. Kept in padded
 * per-thread-stripe cells so that opening and closing cursors on many threads does not contend on one cache line.
 *
 * <p>The open count is what keeps page memory alive for a cursor a store forgot to close before closing the cache:
 * memory is freed only once the cache is closed and this count is zero. Opening increments with an atomic add (a full
 * fence) and then reads the file's closed flag; closing the cache writes that flag and then reads the count. Whichever
 * comes second sees the other, so a cursor either sees the file closed and backs out, or is counted and keeps the
 * memory.
 *
 * <p>The pins share the open count's stripe, so a cursor opened per read, which counts its one hit when it closes,
 * writes one more time to a cache line its thread already holds, where a {@code LongAdder} (as before) took a cell of
 * its own chosen by a random probe per thread. Alone, that change measured no faster on 16 cores; what had held a cursor
 * per read back there was the array's first line (see {@link #cell}).
 */
public final class CursorCounts {
    static final int STRIPES = 64;
    /** Longs per cell: 128 bytes, so two threads' cells never share a cache line or an adjacent pair. */
    private static final int PADDING = 16;
    private static final int OPEN = 0;
    private static final int HITS = 1;
    private static final int FAULTS = 2;

    /** A stripe's cells; the first {@link #PADDING} longs stay unused (see {@link #cell}). */
    private final AtomicLongArray cells = new AtomicLongArray((STRIPES + 1) * PADDING);

    public CursorCounts() {
        // Links the array's reads now, while the heap is free: their first use links a VarHandle access mode, which
        // allocates, and where that was the close of a cache no cursor had been summed on (the first close in a JVM),
        // with the heap full, the OutOfMemoryError came out before the page memory was freed, which it never was.
        open();
    }

    /**
     * Where {@code counter} of {@code stripe} is. No stripe starts the array: the array's header, whose length every
     * access reads for its bounds check, shares a cache line with the first longs, so a thread counting there took
     * that line away from every other thread's next access (with 16 threads on 16 cores, a cursor opened per read then
     * ran at a quarter of its 4-thread speed per thread, most of its time in this class's atomic adds).
     */
    static int cell(int stripe, int counter) {
        return (stripe + 1) * PADDING + counter;
    }

    /** Counts a cursor opened on this thread; returns the stripe to give back to {@link #closed} and {@link #pinned}. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() only exists from JDK 19
    public int opened() {
        long id = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
        int stripe = (int) (id >>> (Long.SIZE - Integer.numberOfTrailingZeros(STRIPES)));
        cells.getAndIncrement(cell(stripe, OPEN));
        return stripe;
    }

    /** Counts a cursor closed (on any thread) that {@link #opened} counted in {@code stripe}. */
    public void closed(int stripe) {
        cells.getAndDecrement(cell(stripe, OPEN));
    }

    /** Adds the hits and faults a cursor counted in {@code stripe} since it last did. */
    public void pinned(int stripe, int hits, int faults) {
        if (hits != 0) {
            cells.getAndAdd(cell(stripe, HITS), hits);
        }
        if (faults != 0) {
            cells.getAndAdd(cell(stripe, FAULTS), faults);
        }
    }

    /** Cursors open right now. */
    public long open() {
        return sum(OPEN);
    }

    /** Pins that found their page in the cache, as cursors have counted them so far. */
    public long hits() {
        return sum(HITS);
    }

    /** Pins that had to fault their page in, as cursors have counted them so far. */
    public long faults() {
        return sum(FAULTS);
    }

    private long sum(int counter) {
        long sum = 0;
        for (int stripe = 0; stripe < STRIPES; stripe++) {
            sum += cells.get(cell(stripe, counter));
        }
        return sum;
    }
}
