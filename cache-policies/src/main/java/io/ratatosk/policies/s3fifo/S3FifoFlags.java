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

    public static final Flag ADAPTIVE_GHOSTS = Flag.bool("pagecache.s3fifo.adaptive_ghosts", "false",
            "Whether the ghost FIFO's length follows the workload, up to `ghosts`: a page a ghost sent to the main FIFO lengthens it by one if it is used there before the main FIFO's scan reaches it, and shortens it by one if not (at least a twentieth of `ghosts`). Off by default, as the paper has it, also in best-of's s3-fifo expert (best-of:s3fifo.adaptive_ghosts=true turns it on there).");

    private S3FifoFlags() {
    }
}
