package io.ratatosk.pagecache;

/** What one attempt to evict a frame came to. */
enum EvictionOutcome {
    /** The page left the frames; the evicting thread holds the frame exclusively, unbound. */
    EVICTED,
    /** The frame was pinned, locked, or already evicted by someone else: ask the policy again. */
    BUSY,
    /** Writing the page out failed: it stays resident and dirty, and the error is pending for the next call. */
    WRITE_FAILED
}
