package io.ratatosk.pagecache.internal;

/**
 * A run of adjacent pages of one file gathered for one vectored write: their page ids are
 * {@code start .. start + size - 1}, and for each the frame, its page address and the flush stamp the
 * flusher holds it with. Reused by one flush, page after page; not thread-safe.
 */
public final class WriteRun {
    /** The most pages one write call carries (1 MiB at 8k pages, well under the system's iovec limit). */
    public static final int MAX_PAGES = 128;

    private final long[] addresses = new long[MAX_PAGES];
    private final int[] frames = new int[MAX_PAGES];
    private final long[] stamps = new long[MAX_PAGES];
    private long start;
    private int size;

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean isFull() {
        return size == MAX_PAGES;
    }

    /** Whether {@code pageId} can join the run: it is empty, or the page follows its last one and there is room. */
    public boolean accepts(long pageId) {
        return size == 0 || (pageId == start + size && size < MAX_PAGES);
    }

    /** Adds the page after the last one (see {@link #accepts}). */
    public void add(long pageId, int frame, long address, long stamp) {
        if (size == 0) {
            start = pageId;
        } else if (pageId != start + size || size == MAX_PAGES) {
            throw new IllegalStateException("page " + pageId + " does not follow the run " + start + ".." + (start + size - 1));
        }
        addresses[size] = address;
        frames[size] = frame;
        stamps[size] = stamp;
        size++;
    }

    public long start() {
        return start;
    }

    public int size() {
        return size;
    }

    /** The page addresses, in page order; only the first {@link #size()} count. */
    public long[] addresses() {
        return addresses;
    }

    public int frame(int i) {
        return frames[i];
    }

    public long stamp(int i) {
        return stamps[i];
    }

    public void clear() {
        size = 0;
    }
}
