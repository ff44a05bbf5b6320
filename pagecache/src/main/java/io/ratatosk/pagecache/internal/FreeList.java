package io.ratatosk.pagecache.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Free frames as a lock-free stack over an int array. Frames are recycled, so the head carries a tag
 * that changes on every update (no ABA). Initially pops 0, 1, 2, ... in order, which is what makes the
 * page cache on one thread fill empty frames exactly as the trace simulator does.
 */
public final class FreeList {
    private static final long EMPTY = 0L;

    private final int[] next;
    private final AtomicLong head = new AtomicLong(EMPTY);
    private final AtomicInteger size = new AtomicInteger();

    public FreeList(int frameCount) {
        next = new int[frameCount];
    }

    /** Pushes every frame so that pops return 0, 1, 2, ... */
    public void fillInOrder() {
        for (int f = next.length - 1; f >= 0; f--) {
            push(f);
        }
    }

    public void push(int frame) {
        // Counted before it can be popped, as a pop uncounts after: the count then never drops below 0 (another
        // thread's pop of this frame would otherwise come first) nor rises above the frame count.
        size.incrementAndGet();
        long h;
        do {
            h = head.get();
            next[frame] = (int) h; // frame + 1 of the old top, or 0
        } while (!head.compareAndSet(h, tagged(h, frame + 1)));
    }

    /** A free frame, or -1 if there is none. */
    public int pop() {
        long h;
        int top;
        do {
            h = head.get();
            top = (int) h;
            if (top == 0) {
                return -1;
            }
        } while (!head.compareAndSet(h, tagged(h, next[top - 1])));
        size.decrementAndGet();
        return top - 1;
    }

    /** Free frames, in [0, frame count]: those held, give or take the pushes and pops under way. */
    public int size() {
        return size.get();
    }

    private static long tagged(long oldHead, int newTop) {
        long tag = (oldHead >>> 32) + 1;
        return (tag << 32) | (newTop & 0xFFFFFFFFL);
    }
}
