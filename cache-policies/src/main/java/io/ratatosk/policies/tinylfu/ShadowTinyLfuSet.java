package io.ratatosk.policies.tinylfu;

import io.ratatosk.policies.clockpro.GhostIndex;

/**
 * Miniature W-TinyLFU caches that hold keys only, fed the same requests, one per window size: for
 * {@link AdaptiveTinyLfuPolicy}'s miniature simulations (which window share would have done best), and for the
 * simulator's {@code w-tinylfu-exact} reference column (one member: the algorithm with exact LRU order in its
 * three regions, to tell it from the frame policy's clock approximation of it, {@link WTinyLfuPolicy}).
 *
 * <p>One index from key to a row serves every member, and one frequency sketch (the counts do not depend on
 * the window): a request probes one table instead of one per member. In a page cache the members' tables have
 * left the CPU caches between two sampled requests, so each probe saved is a miss or two; in the simulator the
 * members' own indexes were most of {@code w-tinylfu-adaptive}'s time. A row lives while any member holds its
 * key; the index and the members' links are sized for members that share no key.
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction.
 */
public final class ShadowTinyLfuSet {
    private final ShadowTinyLfu[] members;
    private final FrequencySketch sketch;
    /** Every key some member holds, to its row (the index's slot). */
    private final GhostIndex index;
    private final long[] hashes;
    /** Per row: how many members hold its key (under {@link Byte#MAX_VALUE} members). */
    private final byte[] holders;

    /**
     * @param capacity       keys each member holds, at least 1
     * @param windows        each member's window, in keys (clamped to [1, capacity])
     * @param protectedShare share of each member's main region for protected keys
     * @param sketchPeriod   counted uses between two halvings of the shared sketch
     */
    public ShadowTinyLfuSet(int capacity, int[] windows, double protectedShare, long sketchPeriod) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a shadow holds at least one key: capacity=" + capacity);
        }
        if (windows.length < 1 || windows.length >= Byte.MAX_VALUE) {
            throw new IllegalArgumentException("between 1 and " + (Byte.MAX_VALUE - 1) + " members: " + windows.length);
        }
        // Every member full of keys no other holds, plus the one request being added.
        this.index = new GhostIndex(Math.multiplyExact(windows.length, capacity));
        this.hashes = new long[index.slots()];
        this.holders = new byte[index.slots()];
        this.members = new ShadowTinyLfu[windows.length];
        for (int i = 0; i < windows.length; i++) {
            members[i] = new ShadowTinyLfu(capacity, windows[i], protectedShare, hashes);
        }
        this.sketch = new FrequencySketch(capacity, sketchPeriod);
    }

    public int size() {
        return members.length;
    }

    /** One request for {@code key}, whose {@code PageKey.hash} is {@code hash}: counted in the sketch, then in every member. */
    public void access(long key, long hash) {
        sketch.countRequest(hash);
        int row = index.slotOfOrAdd(key);
        if (row < 0) {
            row = ~row;
            hashes[row] = hash;
            holders[row] = 0;
        }
        for (ShadowTinyLfu member : members) {
            if (member.holds(row)) {
                member.hit(row);
                continue;
            }
            holders[row]++;
            int dropped = member.miss(row, sketch);
            if (dropped != ShadowTinyLfu.NONE && --holders[dropped] == 0) {
                index.remove(dropped);
            }
        }
    }

    /** Member {@code i}'s hits since its last {@link #resetHits}. */
    public long hits(int i) {
        return members[i].hits();
    }

    public void resetHits(int i) {
        members[i].resetHits();
    }
}
