package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A mapped file as the {@link EvictionEngine} sees it: where a bound frame's page goes when it leaves
 * the frames, and the translation table that must forget it. Registered under the file's id while
 * frames may be bound to it.
 */
interface FrameOwner {
    /** The swapper that writes the file's pages out (or into the tier in front of the file). */
    PageSwapper swapper();

    /** Page {@code pageId} left frame {@code frame}, which is unbound already: its table entry no longer points there. */
    void pageLeft(long pageId, int frame);

    int pageSize();

    Path path();

    /** Whether page {@code pageId} is in a frame or being faulted in. */
    boolean isResident(long pageId);

    /**
     * Faults page {@code pageId} into a free frame, never evicting: true if it did, false if it is
     * resident already, no frame is free, or the file is being unmapped.
     */
    boolean prefetch(long pageId) throws IOException;
}
