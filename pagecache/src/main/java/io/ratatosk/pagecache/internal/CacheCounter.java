package io.ratatosk.pagecache.internal;

/** What the page cache counts, besides the hits and faults cursors count ({@code CursorCounts}); {@code PageCacheStats} is a snapshot of both. */
public enum CacheCounter {
    BACKGROUND_EVICTIONS,
    COOPERATIVE_EVICTIONS,
    /** Dirty pages written out because they were evicted. */
    EVICTION_WRITES,
    /** Pages written out by flush or close. */
    FLUSHED_PAGES,
    BYTES_READ,
    BYTES_WRITTEN,
    /** Pages written to the files' swappers, by flush, close or eviction, however many per call. */
    PAGES_WRITTEN,
    /** Write calls to the files' swappers: a vectored write of a run of adjacent pages counts once. */
    WRITE_CALLS,
    /** Pages a warm-up faulted in from a file's profile of resident pages. */
    PAGES_REHEATED,
    /** Evictions that failed because writing the page out failed; the page stayed dirty and resident. */
    EVICTION_ERRORS
}
