package io.ratatosk.policies;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded queue of non-negative ints that many threads offer to and one thread polls, allocating nothing:
 * bitset-history's record of which bits its evictions set, in order, so that trimming clears the oldest. A slot
 * holds its value plus one, 0 while empty. A producer claims an index with a CAS on the producer index (only while
 * the queue has room, so a claimed slot is always empty), then publishes its value with a release store; the
 * consumer reads the slot at its own index with an acquire load, empties it, and only then moves its index on,
 * so that a producer which sees the new index also sees the slot empty. A claimed slot not yet published reads as
 * empty: {@link #poll} then stops there, as at the end.
 */
final class IntMpscQueue {
    private final AtomicIntegerArray slots;
    private final int mask;
    private final AtomicLong producerIndex = new AtomicLong();
    /** Written by the one consumer only. */
    private volatile long consumerIndex;

    /** Room for {@code capacity} values, rounded up to a power of two (at most 2^30). */
    IntMpscQueue(int capacity) {
        if (capacity < 1 || capacity > 1 << 30) {
            throw new IllegalArgumentException("capacity must be in [1, 2^30]: " + capacity);
        }
        int size = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.slots = new AtomicIntegerArray(size);
        this.mask = size - 1;
    }

    int capacity() {
        return mask + 1;
    }

    /** Appends {@code value} (in [0, Integer.MAX_VALUE)); false if the queue is full. Any thread. */
    boolean offer(int value) {
        if (value < 0 || value == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("value must be in [0, " + Integer.MAX_VALUE + "): " + value);
        }
        long index;
        do {
            index = producerIndex.get();
            if (index - consumerIndex > mask) {
                return false;
            }
        } while (!producerIndex.compareAndSet(index, index + 1));
        slots.lazySet((int) index & mask, value + 1);
        return true;
    }

    /** The oldest value, removed, or -1 if there is none yet. The one consumer thread only. */
    int poll() {
        long index = consumerIndex;
        int slot = (int) index & mask;
        int stored = slots.get(slot);
        if (stored == 0) {
            return -1;
        }
        slots.lazySet(slot, 0);
        consumerIndex = index + 1;
        return stored - 1;
    }

    /** Values offered and not yet polled, those still being published included; racy while producers run. */
    int size() {
        long consumer = consumerIndex;
        long size = producerIndex.get() - consumer;
        return (int) Math.max(0, Math.min(size, capacity()));
    }
}
