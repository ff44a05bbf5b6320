package io.ratatosk.pagecache;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import java.util.Arrays;

/**
 * A {@link PageCursor}'s linked-cursor bookkeeping: the cursor that opened it, the linked cursors it opened, and
 * the pins its linked read cursors left (moving on, or closing) for its next {@code shouldRetry()} to validate.
 * Kept apart from the cursor and created at the first link, so that the cursors of a store that never links
 * (most of them, and every one opened per read) are smaller. Not thread-safe: its cursor's thread only.
 */
final class CursorLinks {
    private static final PageCursor[] NONE = new PageCursor[0];
    /** Pins kept before they are first compacted to one per frame ({@link #compactPins}). */
    static final int COMPACT_PINS_FROM = 1024;

    /** The cursor that opened this one with {@code openLinkedCursor}, or null; cleared when either closes. */
    PageCursor parent;
    /** How many links below a cursor from {@code io()} this cursor is: 0 for that cursor (see {@code PageCursor.MAX_LINK_DEPTH}). */
    int depth;
    /** The open linked cursors, {@code open[0, openCount)}. */
    PageCursor[] open = NONE;
    int openCount;
    /**
     * Pins that linked read cursors left, {@code [0, closedCount)}. Grown as needed, never shrunk; past
     * {@link #COMPACT_PINS_FROM}, compacted to one per frame before they grow.
     */
    int[] closedFrames;
    long[] closedStamps;
    int closedCount;
    /**
     * On a cursor with no parent: some link below its direct ones may keep pins (a link's own link left them with it),
     * which its {@code next()} must forget with its own (see {@code PageCursor.leavingPageWithLinks}).
     */
    boolean pinsBelow;

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
        // The count read once: a link closed on another thread than its parent's close (cursors shared by mistake)
        // removes itself under the parent's walk, and a count read twice could index -1.
        int n = openCount;
        PageCursor[] links = open;
        for (int i = Math.min(n, links.length) - 1; i >= 0; i--) {
            if (links[i] == link) {
                links[i] = links[n - 1];
                links[n - 1] = null;
                openCount = n - 1;
                return;
            }
        }
    }

    void recordPin(int frame, long stamp) {
        if (closedFrames == null) {
            closedFrames = new int[4];
            closedStamps = new long[4];
        } else if (closedCount == closedFrames.length) {
            if (closedCount >= COMPACT_PINS_FROM) {
                compactPins();
            }
            if (closedCount > closedFrames.length / 2) {
                closedFrames = Arrays.copyOf(closedFrames, closedFrames.length * 2);
                closedStamps = Arrays.copyOf(closedStamps, closedFrames.length);
            }
        }
        closedFrames[closedCount] = frame;
        closedStamps[closedCount] = stamp;
        closedCount++;
    }

    /**
     * Keeps one pin per frame: the one whose validation decides for all of that frame's. A frame's sequence only grows,
     * so if its pin with the lowest sequence still validates, nothing was released on the frame since and each later
     * pin of it validates too; if it fails, the round has changed whatever the others say. A pin taken while a writer
     * held the frame never validates, and is kept as the frame's. Without this, a linked cursor that moved over many
     * pages before its parent's {@code shouldRetry()} or {@code next()} kept a pin for each (12 bytes a page, without
     * bound: a long enough scan through a link would run the heap out); now about two per frame of the cache at most.
     */
    private void compactPins() {
        long[] byFrame = new long[closedCount];
        for (int i = 0; i < closedCount; i++) {
            byFrame[i] = ((long) closedFrames[i] << Integer.SIZE) | i; // frames are not negative: sorts by frame
        }
        Arrays.sort(byFrame);
        int[] frames = new int[closedFrames.length];
        long[] stamps = new long[closedFrames.length];
        int kept = 0;
        for (int i = 0; i < byFrame.length; ) {
            int frame = (int) (byFrame[i] >>> Integer.SIZE);
            long decisive = closedStamps[(int) byFrame[i]];
            for (i++; i < byFrame.length && (int) (byFrame[i] >>> Integer.SIZE) == frame; i++) {
                decisive = decisive(decisive, closedStamps[(int) byFrame[i]]);
            }
            frames[kept] = frame;
            stamps[kept] = decisive;
            kept++;
        }
        closedFrames = frames;
        closedStamps = stamps;
        closedCount = kept;
    }

    /** Of two pins of one frame, the one whose validation decides for both (see {@link #compactPins}). */
    private static long decisive(long a, long b) {
        if (!FrameTable.canValidate(a)) {
            return a;
        }
        if (!FrameTable.canValidate(b)) {
            return b;
        }
        return (a & FrameDescriptor.SEQUENCE_MASK) <= (b & FrameDescriptor.SEQUENCE_MASK) ? a : b;
    }
}
