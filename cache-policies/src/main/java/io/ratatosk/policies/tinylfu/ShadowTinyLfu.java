package io.ratatosk.policies.tinylfu;

import io.ratatosk.policies.clockpro.GhostIndex;
import java.util.Arrays;

/**
 * One miniature W-TinyLFU cache that holds keys only, with exact LRU order in its three regions, for
 * {@link AdaptiveTinyLfuPolicy}'s miniature simulations: it replays the sampled requests and counts
 * its hits, so that the policy can see which window share would have done best. The frequency
 * sketch is shared by every shadow of one policy (the counts do not depend on the window).
 * A window of the whole capacity is an exact LRU. The simulator's {@code w-tinylfu-exact} reference
 * column is one of these over every request, to tell the algorithm from the frame policy's clock
 * approximation of it ({@link WTinyLfuPolicy}).
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction.
 */
public final class ShadowTinyLfu {
    private static final int NIL = -1;
    private static final int WINDOW = 0;
    private static final int PROBATION = 1;
    private static final int PROTECTED = 2;

    private final int capacity;
    private final int windowMax;
    private final int protectedMax;
    private final GhostIndex index;
    private final int[] prev;
    private final int[] next;
    private final byte[] region;
    private final int[] heads = {NIL, NIL, NIL};
    private final int[] sizes = new int[3];
    private final long[] hashes;
    private long hits;

    /**
     * @param capacity     keys the shadow holds, at least 1
     * @param windowMax    keys its window holds, in [1, capacity]
     * @param protectedShare share of the main region for protected keys
     */
    public ShadowTinyLfu(int capacity, int windowMax, double protectedShare) {
        this.capacity = capacity;
        this.windowMax = Math.max(1, Math.min(capacity, windowMax));
        this.protectedMax = (int) ((capacity - this.windowMax) * protectedShare);
        this.index = new GhostIndex(capacity);
        int slots = index.slots();
        prev = new int[slots];
        next = new int[slots];
        region = new byte[slots];
        hashes = new long[slots];
        Arrays.fill(region, (byte) NIL);
    }

    public long hits() {
        return hits;
    }

    void resetHits() {
        hits = 0;
    }

    /** One request for {@code key} (whose hash is {@code hash}), judged by {@code sketch}. */
    public void access(long key, long hash, FrequencySketch sketch) {
        int slot = index.slotOf(key);
        if (slot != GhostIndex.NONE) {
            hits++;
            if (region[slot] == PROBATION) {
                moveToTail(PROTECTED, slot);
                if (sizes[PROTECTED] > protectedMax) {
                    moveToTail(PROBATION, heads[PROTECTED]);
                }
            } else {
                moveToTail(region[slot], slot);
            }
            return;
        }
        slot = index.add(key);
        hashes[slot] = hash;
        addTail(WINDOW, slot);
        if (sizes[WINDOW] > windowMax) {
            int candidate = heads[WINDOW];
            moveToTail(PROBATION, candidate);
            if (index.overCapacity()) {
                int victim = heads[PROBATION];
                int evict = victim != candidate && sketch.frequency(hashes[candidate]) > sketch.frequency(hashes[victim])
                    ? victim : candidate;
                remove(evict);
                index.remove(evict);
            }
        }
    }

    private void addTail(int queue, int slot) {
        int head = heads[queue];
        if (head == NIL) {
            prev[slot] = slot;
            next[slot] = slot;
            heads[queue] = slot;
        } else {
            int tail = prev[head];
            prev[slot] = tail;
            next[slot] = head;
            next[tail] = slot;
            prev[head] = slot;
        }
        region[slot] = (byte) queue;
        sizes[queue]++;
    }

    private void remove(int slot) {
        int queue = region[slot];
        int before = prev[slot];
        int after = next[slot];
        if (after == slot) {
            heads[queue] = NIL;
        } else {
            next[before] = after;
            prev[after] = before;
            if (heads[queue] == slot) {
                heads[queue] = after;
            }
        }
        region[slot] = (byte) NIL;
        sizes[queue]--;
    }

    private void moveToTail(int queue, int slot) {
        remove(slot);
        addTail(queue, slot);
    }

    int capacity() {
        return capacity;
    }
}
