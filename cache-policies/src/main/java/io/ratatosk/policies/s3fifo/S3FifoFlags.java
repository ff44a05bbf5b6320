package io.ratatosk.policies.s3fifo;

import io.ratatosk.core.config.Flag;

/** The flags of s3-fifo. */
public final class S3FifoFlags {
    public static final Flag SMALL = Flag.frameShare("pagecache.s3fifo.small", "0.1",
            "The small FIFO, where new pages wait to be used again before they may enter the main FIFO.");

    public static final Flag GHOSTS = Flag.decimal("pagecache.s3fifo.ghosts", "0.9", 0.1, 4,
            "Pages evicted from the small FIFO remembered (the ghost FIFO), as a multiple of the frame count; a page faulting while remembered goes straight to the main FIFO.");

    public static final Flag MOVE_THRESHOLD = Flag.integer("pagecache.s3fifo.move_threshold", "2", 1, 3,
            "Hits in the small FIFO that move a page to the main FIFO instead of evicting it (2, as the paper's authors' code; best-of's s3-fifo expert takes 1 unless set).");

    private S3FifoFlags() {
    }
}
