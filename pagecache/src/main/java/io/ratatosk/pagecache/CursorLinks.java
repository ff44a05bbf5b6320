package io.ratatosk.pagecache;

import java.util.Arrays;

/**
 * A {@link PageCursor}'s linked-cursor bookkeeping: the cursor that opened it, the linked cursors it opened, and
 * the pins its linked read cursors left (moving on, or closing) for its next {@code shouldRetry()} to validate.
 * Kept apart from the cursor and created at the first link, so that the cursors of a store that never links
 * (most of them, and every one opened per read) are smaller. Not thread-safe: its cursor's thread only.
 */
final class CursorLinks {
    private static final PageCursor[] NONE = new PageCursor[0];

    /** The cursor that opened this one with {@code openLinkedCursor}, or null; cleared when either closes. */
    PageCursor parent;
    /** How many links below a cursor from {@code io()} this cursor is: 0 for that cursor (see {@code PageCursor.MAX_LINK_DEPTH}). */
    int depth;
    /** The open linked cursors, {@code open[0, openCount)}. */
    PageCursor[] open = NONE;
    int openCount;
    /** Pins that linked read cursors left, {@code [0, closedCount)}. Grown as needed, never shrunk. */
    int[] closedFrames;
    long[] closedStamps;
    int closedCount;

    /** What {@code PageCursor.linkWork} counts: open links, pins left, and 1 for a linked cursor. */
    int work() {
        return openCount + closedCount + (parent != null ? 1 : 0);
    }

    void add(PageCursor link) {
        if (openCount == open.length) {
            open = Arrays.copyOf(open, Math.max(2, openCount * 2));
        }
        open[openCount++] = link;
    }

    /**
     * From the end: the parent's close closes its links last first, so each is found at once (searched from the start,
     * closing a parent with n links took n^2 / 2 comparisons: 6 s for 100,000).
     */
    void remove(PageCursor link) {
        for (int i = openCount - 1; i >= 0; i--) {
            if (open[i] == link) {
                open[i] = open[--openCount];
                open[openCount] = null;
                return;
            }
        }
    }

    void recordPin(int frame, long stamp) {
        if (closedFrames == null) {
            closedFrames = new int[4];
            closedStamps = new long[4];
        } else if (closedCount == closedFrames.length) {
            closedFrames = Arrays.copyOf(closedFrames, closedCount * 2);
            closedStamps = Arrays.copyOf(closedStamps, closedCount * 2);
        }
        closedFrames[closedCount] = frame;
        closedStamps[closedCount] = stamp;
        closedCount++;
    }
}
