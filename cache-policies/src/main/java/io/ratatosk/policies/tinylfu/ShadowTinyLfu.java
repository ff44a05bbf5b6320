package io.ratatosk.policies.tinylfu;

import io.ratatosk.policies.FrameQueues;

/**
 * One miniature W-TinyLFU cache that holds keys only, with exact LRU order in its three regions: one
 * member of a {@link ShadowTinyLfuSet}, which finds each key's row in the index its members share and
 * hands the row here. A window of the whole capacity is an exact LRU.
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction.
 */
final class ShadowTinyLfu {
    static final int NONE = FrameQueues.NONE;
    private static final int WINDOW = 0;
    private static final int PROBATION = 1;
    private static final int PROTECTED = 2;

    private final int capacity;
    private final int windowMax;
    private final int protectedMax;
    /** The three regions over the set's rows, oldest first. */
    private final FrameQueues regions;
    /** The set's hash per row, for the sketch. */
    private final long[] hashes;
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
        this.regions = new FrameQueues(hashes.length, 3);
    }

    long hits() {
        return hits;
    }

    void resetHits() {
        hits = 0;
    }

    boolean holds(int row) {
        return regions.queueOf(row) != NONE;
    }

    /** A request for the key in {@code row}, which this shadow holds. */
    void hit(int row) {
        hits++;
        if (regions.queueOf(row) == PROBATION) {
            regions.moveToTail(PROTECTED, row);
            if (regions.size(PROTECTED) > protectedMax) {
                regions.moveToTail(PROBATION, regions.head(PROTECTED));
            }
        } else {
            regions.moveToTail(regions.queueOf(row), row);
        }
    }

    /**
     * A request for the key in {@code row}, which this shadow does not hold: it enters the window, whose oldest
     * key then goes to probation and, over the capacity, meets probation's oldest for admission.
     *
     * @return the row this shadow dropped, never {@code row}; or {@link #NONE}
     */
    int miss(int row, FrequencySketch sketch) {
        regions.addTail(WINDOW, row);
        if (regions.size(WINDOW) <= windowMax) {
            return NONE;
        }
        int candidate = regions.head(WINDOW);
        regions.moveToTail(PROBATION, candidate);
        if (regions.size(WINDOW) + regions.size(PROBATION) + regions.size(PROTECTED) <= capacity) {
            return NONE;
        }
        int victim = regions.head(PROBATION);
        int evict = victim != candidate && sketch.frequency(hashes[candidate]) > sketch.frequency(hashes[victim])
            ? victim : candidate;
        regions.remove(evict);
        return evict;
    }
}
