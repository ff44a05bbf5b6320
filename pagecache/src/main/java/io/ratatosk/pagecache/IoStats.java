package io.ratatosk.pagecache;

/**
 * The page cache's IO counters beyond hits and faults ({@link PageCacheStats#io()}): how many pages went
 * to the files' swappers in how many write calls (a vectored write of a run of adjacent pages is one
 * call, so {@code pagesWritten / writeCalls} shows the coalescing), and how many pages a warm-up faulted
 * back in after a restart.
 */
public record IoStats(long pagesWritten, long writeCalls, long pagesReheated) {
    /** All zero. */
    public static final IoStats NONE = new IoStats(0, 0, 0);

    /** Pages per write call, or 0 before the first write. */
    public double pagesPerWriteCall() {
        return writeCalls == 0 ? 0.0 : (double) pagesWritten / writeCalls;
    }

    @Override
    public String toString() {
        return String.format("pagesWritten=%d writeCalls=%d pagesReheated=%d", pagesWritten, writeCalls, pagesReheated);
    }
}
