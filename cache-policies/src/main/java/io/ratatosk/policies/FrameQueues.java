package io.ratatosk.policies;

import java.util.Arrays;

/**
 * A few FIFO queues over frame indexes in fixed arrays: each frame is in at most one queue, linked
 * into a circular doubly linked list by {@code prev} and {@code next}. The head is the oldest
 * frame, where eviction looks; a frame enters at the tail. Moving a frame is O(1) and allocates
 * nothing. The regions of S3-FIFO and W-TinyLFU are built from it.
 *
 * <p>Not thread-safe: its owner calls it under its own lock.
 */
public final class FrameQueues {
    /** No frame; also the queue of a frame that is in none. */
    public static final int NONE = -1;

    private final int[] prev;
    private final int[] next;
    private final byte[] queueOf;
    private final int[] heads;
    private final int[] sizes;

    /**
     * @param frames frame count
     * @param queues number of queues, numbered 0 .. queues-1, at most 127
     */
    public FrameQueues(int frames, int queues) {
        if (queues < 1 || queues > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("queues must be in [1, 127]: " + queues);
        }
        prev = new int[frames];
        next = new int[frames];
        queueOf = new byte[frames];
        Arrays.fill(queueOf, (byte) NONE);
        heads = new int[queues];
        Arrays.fill(heads, NONE);
        sizes = new int[queues];
    }

    /** The queue {@code frame} is in, or {@link #NONE}. */
    public int queueOf(int frame) {
        return queueOf[frame];
    }

    /** The oldest frame of {@code queue}, or {@link #NONE} when it is empty. */
    public int head(int queue) {
        return heads[queue];
    }

    public int size(int queue) {
        return sizes[queue];
    }

    /** Appends {@code frame}, which is in no queue, at the tail of {@code queue}. */
    public void addTail(int queue, int frame) {
        if (queueOf[frame] != NONE) {
            throw new IllegalStateException("frame " + frame + " is already in queue " + queueOf[frame]);
        }
        int head = heads[queue];
        if (head == NONE) {
            prev[frame] = frame;
            next[frame] = frame;
            heads[queue] = frame;
        } else {
            int tail = prev[head];
            prev[frame] = tail;
            next[frame] = head;
            next[tail] = frame;
            prev[head] = frame;
        }
        queueOf[frame] = (byte) queue;
        sizes[queue]++;
    }

    /** Takes {@code frame} out of its queue; nothing when it is in none. */
    public void remove(int frame) {
        int queue = queueOf[frame];
        if (queue == NONE) {
            return;
        }
        int before = prev[frame];
        int after = next[frame];
        if (after == frame) {
            heads[queue] = NONE;
        } else {
            next[before] = after;
            prev[after] = before;
            if (heads[queue] == frame) {
                heads[queue] = after;
            }
        }
        queueOf[frame] = (byte) NONE;
        sizes[queue]--;
    }

    /** Moves {@code frame} from wherever it is to the tail of {@code queue}. */
    public void moveToTail(int queue, int frame) {
        if (queueOf[frame] == queue && heads[queue] == frame) {
            heads[queue] = next[frame]; // the oldest becomes the newest: rotate the circle
            return;
        }
        remove(frame);
        addTail(queue, frame);
    }

    /** Each queue is a closed circle of frames that name it, of its counted size; throws naming what is wrong. */
    public void checkInvariants(String owner) {
        int[] found = new int[sizes.length];
        for (int queue = 0; queue < heads.length; queue++) {
            int head = heads[queue];
            if (head == NONE) {
                continue;
            }
            int frame = head;
            do {
                if (queueOf[frame] != queue || prev[next[frame]] != frame) {
                    throw new IllegalStateException(owner + ": frame " + frame + " is linked into queue " + queue
                        + " but names queue " + queueOf[frame] + " or is badly linked");
                }
                if (++found[queue] > prev.length) {
                    throw new IllegalStateException(owner + ": queue " + queue + " does not close");
                }
                frame = next[frame];
            } while (frame != head);
        }
        int named = 0;
        for (byte q : queueOf) {
            named += q != NONE ? 1 : 0;
        }
        int total = 0;
        for (int queue = 0; queue < sizes.length; queue++) {
            total += sizes[queue];
            if (found[queue] != sizes[queue]) {
                throw new IllegalStateException(owner + ": queue " + queue + " counts " + sizes[queue] + " frames, holds " + found[queue]);
            }
        }
        if (named != total) {
            throw new IllegalStateException(owner + ": " + named + " frames name a queue, " + total + " are in one");
        }
    }
}
