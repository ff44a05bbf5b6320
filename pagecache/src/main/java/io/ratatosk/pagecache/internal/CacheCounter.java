package io.ratatosk.pagecache.internal;

/** What the page cache counts; {@code PageCacheStats} is a snapshot of these. */
public enum CacheCounter {
    HITS,
    FAULTS,
    BACKGROUND_EVICTIONS,
    COOPERATIVE_EVICTIONS,
    /** Dirty pages written out because they were evicted. */
    EVICTION_WRITES,
    /** Pages written out by flush or close. */
    FLUSHED_PAGES,
    BYTES_READ,
    BYTES_WRITTEN,
    /** Evictions that failed because writing the page out failed; the page stayed dirty and resident. */
    EVICTION_ERRORS
}
