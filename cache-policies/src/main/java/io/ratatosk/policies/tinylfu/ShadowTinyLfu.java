package io.ratatosk.policies.tinylfu;

import java.util.Arrays;

/**
 * One miniature W-TinyLFU cache that holds keys only, with exact LRU order in its three regions: one
 * member of a {@link ShadowTinyLfuSet}, which finds each key's row in the index its members share and
 * hands the row here. A window of the whole capacity is an exact LRU.
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction.
 */
final class ShadowTinyLfu {
    static final int NONE = -1;
    private static final int NIL = -1;
    private static final int WINDOW = 0;
    private static final int PROBATION = 1;
    private static final int PROTECTED = 2;

    private final int capacity;
    private final int windowMax;
    private final int protectedMax;
    private final int[] prev;
    private final int[] next;
    private final byte[] region;
    private final int[] heads = {NIL, NIL, NIL};
    private final int[] sizes = new int[3];
    /** The set's hash per row, for the sketch. */
    private final long[] hashes;
    private int size;
    private long hits;

    /**
     * @param capacity       keys the shadow holds, at least 1
     * @param windowMax      keys its window holds, in [1, capacity]
     * @param protectedShare share of the main region for protected keys
     * @param hashes         the key hash of each row of the set's index
     */
    ShadowTinyLfu(int capacity, int windowMax, double protectedShare, long[] hashes) {
        this.capacity = capacity;
        this.windowMax = Math.max(1, Math.min(capacity, windowMax));
        this.protectedMax = (int) ((capacity - this.windowMax) * protectedShare);
        this.hashes = hashes;
        int rows = hashes.length;
        prev = new int[rows];
        next = new int[rows];
        region = new byte[rows];
        Arrays.fill(region, (byte) NIL);
    }

    long hits() {
        return hits;
    }

    void resetHits() {
        hits = 0;
    }

    boolean holds(int row) {
        return region[row] != NIL;
    }

    /** A request for the key in {@code row}, which this shadow holds. */
    void hit(int row) {
        hits++;
        if (region[row] == PROBATION) {
            moveToTail(PROTECTED, row);
            if (sizes[PROTECTED] > protectedMax) {
                moveToTail(PROBATION, heads[PROTECTED]);
            }
        } else {
            moveToTail(region[row], row);
        }
    }

    /**
     * A request for the key in {@code row}, which this shadow does not hold: it enters the window, whose oldest
     * key then goes to probation and, over the capacity, meets probation's oldest for admission.
     *
     * @return the row this shadow dropped, never {@code row}; or {@link #NONE}
     */
    int miss(int row, FrequencySketch sketch) {
        addTail(WINDOW, row);
        size++;
        if (sizes[WINDOW] <= windowMax) {
            return NONE;
        }
        int candidate = heads[WINDOW];
        moveToTail(PROBATION, candidate);
        if (size <= capacity) {
            return NONE;
        }
        int victim = heads[PROBATION];
        int evict = victim != candidate && sketch.frequency(hashes[candidate]) > sketch.frequency(hashes[victim])
            ? victim : candidate;
        remove(evict);
        size--;
        return evict;
    }

    private void addTail(int queue, int row) {
        int head = heads[queue];
        if (head == NIL) {
            prev[row] = row;
            next[row] = row;
            heads[queue] = row;
        } else {
            int tail = prev[head];
            prev[row] = tail;
            next[row] = head;
            next[tail] = row;
            prev[head] = row;
        }
        region[row] = (byte) queue;
        sizes[queue]++;
    }

    private void remove(int row) {
        int queue = region[row];
        int before = prev[row];
        int after = next[row];
        if (after == row) {
            heads[queue] = NIL;
        } else {
            next[before] = after;
            prev[after] = before;
            if (heads[queue] == row) {
                heads[queue] = after;
            }
        }
        region[row] = (byte) NIL;
        sizes[queue]--;
    }

    private void moveToTail(int queue, int row) {
        remove(row);
        addTail(queue, row);
    }
}
