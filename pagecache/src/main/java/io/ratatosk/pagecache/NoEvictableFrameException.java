package io.ratatosk.pagecache;

/**
 * A page fault found no frame it could evict: every frame was pinned (write-locked, being faulted in,
 * evicted or flushed) for longer than the page cache waits. The configuration cannot work as used:
 * more pages are pinned at once than the cache has frames.
 */
public final class NoEvictableFrameException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final int frames;
    private final int pinned;

    public NoEvictableFrameException(String message, int frames, int pinned) {
        super(message);
        this.frames = frames;
        this.pinned = pinned;
    }

    public int frames() {
        return frames;
    }

    public int pinned() {
        return pinned;
    }
}
