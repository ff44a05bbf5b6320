package io.ratatosk.policies;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The faults and evictions a locked policy was told of while its lock was held, queued by the threads that
 * found it held and applied in order by the next holder, so that a fault or an eviction never parks on the
 * policy's lock. With many threads faulting, each miss took the lock three times (the fault, the victim choice,
 * the eviction) for a fraction of a microsecond of work each, and every thread and the background evictor queued
 * on it in turns, parked: on 16 cores with 8 faulting threads, 8,393 of their 12,017 wall-clock samples outside
 * JMH's own waits (docs/benchmarks.md, "16 cores, second visit").
 *
 * <p>A bounded ring that many threads offer to and one consumes (the policy's lock holder), allocating nothing.
 * A producer claims a position with a CAS on the tail (only where the slot's sequence says it is free), writes
 * the event and publishes it with a release store of the slot's sequence; the consumer applies the slots in
 * position order. A drain applies every event claimed before it began, waiting out a slot still being written
 * (a producer between its claim and its publication: a few instructions): an event that happened before the
 * drain, such as the eviction of a frame that a fault then took from the free list, is therefore always applied
 * before the drainer's own fault of that frame. Events claimed while it drains wait for the next drain.
 */
public final class DeferredEvents {
    /** Where a drain applies the events. */
    public interface Sink {
        void fault(int frame, long pageKey);

        void evicted(int frame, long pageKey);
    }

    /** Spins on a slot being written before the drain yields the CPU to its writer instead. */
    private static final int SPINS_BEFORE_YIELD = 64;

    private final int mask;
    /** The event's frame, or its complement for an eviction. */
    private final int[] frames;
    private final long[] keys;
    /** Per slot: the position that may claim it next, or that position + 1 once its event is published. */
    private final AtomicLongArray sequence;
    private final AtomicLong tail = new AtomicLong();
    /** The next position to apply; written by the consumer only, read by anyone for {@link #hasPending}. */
    private volatile long head;

    /** Room for {@code capacity} events, rounded up to a power of two (at most 2^30). */
    public DeferredEvents(int capacity) {
        if (capacity < 1 || capacity > 1 << 30) {
            throw new IllegalArgumentException("capacity must be in [1, 2^30]: " + capacity);
        }
        int size = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.mask = size - 1;
        this.frames = new int[size];
        this.keys = new long[size];
        this.sequence = new AtomicLongArray(size);
        for (int slot = 0; slot < size; slot++) {
            sequence.set(slot, slot);
        }
    }

    public int capacity() {
        return mask + 1;
    }

    /** Queues a fault of {@code frame} for {@code pageKey}; false if the ring is full (apply it under the lock then). Any thread. */
    public boolean offerFault(int frame, long pageKey) {
        return offer(checkFrame(frame), pageKey);
    }

    /** Queues the eviction of {@code pageKey} from {@code frame}; false if the ring is full. Any thread. */
    public boolean offerEviction(int frame, long pageKey) {
        return offer(~checkFrame(frame), pageKey);
    }

    private static int checkFrame(int frame) {
        if (frame < 0) {
            throw new IllegalArgumentException("frame must be >= 0: " + frame);
        }
        return frame;
    }

    private boolean offer(int code, long pageKey) {
        while (true) {
            long position = tail.get();
            int slot = (int) position & mask;
            long free = sequence.get(slot);
            if (free == position) {
                if (tail.compareAndSet(position, position + 1)) {
                    frames[slot] = code;
                    keys[slot] = pageKey;
                    sequence.set(slot, position + 1); // publishes the two plain writes above
                    return true;
                }
            } else if (free < position) {
                return false; // the slot's event from one lap ago is not applied yet: full
            }
            // else another producer claimed this position first: try the next
        }
    }

    /** True if some event was claimed and not yet applied (a snapshot). Any thread. */
    public boolean hasPending() {
        return tail.get() != head;
    }

    /**
     * Applies, in order, every event claimed before this call. The one consumer only (the policy's lock holder);
     * not reentrant: a sink must not drain. An exception from the sink propagates after its event was taken off.
     */
    public void drain(Sink sink) {
        long end = tail.get();
        for (long position = head; position < end; position = head) {
            int slot = (int) position & mask;
            for (int spins = 0; sequence.get(slot) != position + 1; spins++) {
                if (spins < SPINS_BEFORE_YIELD) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // its writer was descheduled between the claim and the publication
                }
            }
            int code = frames[slot];
            long pageKey = keys[slot];
            sequence.set(slot, position + mask + 1); // free for the claim one lap on
            head = position + 1;
            if (code >= 0) {
                sink.fault(code, pageKey);
            } else {
                sink.evicted(~code, pageKey);
            }
        }
    }
}
