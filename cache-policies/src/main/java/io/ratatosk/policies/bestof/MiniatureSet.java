package io.ratatosk.policies.bestof;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.clockpro.GhostIndex;
import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.List;

/**
 * Miniature simulations of several policies fed the same requests: each policy's own class over a small
 * {@link FrameTable} of its own, fed page keys only, counting its hits. Each evicts as the trace simulator
 * does (housekeeping, one background sweep, the victim unbound, then {@code onEvicted}), so a miniature of a
 * policy decides exactly as the policy would in a cache of that size seeing the same requests.
 *
 * <p>One index from key to a row serves them all: a row holds, per miniature, the frame of the key there
 * (or none) and lives while any miniature holds the key. A request then probes one table instead of one per
 * miniature; in a page cache the miniatures' tables have left the CPU caches between two sampled requests,
 * so each probe saved is a miss or two. The index and its rows take about 150 bytes per frame of a
 * miniature, sized for every miniature holding keys no other does.
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction. The
 * frame tables' off-heap memory is freed when the set becomes unreachable.
 */
final class MiniatureSet {
    private static final Cleaner CLEANER = Cleaner.create();
    /** No page is ever pinned here, so a policy that names no victim this many times in a row is broken. */
    private static final int MAX_EMPTY_SWEEPS = 64;
    private static final int NO_FRAME = -1;

    private final String[] names;
    private final int capacity;
    private final FrameTable[] frames;
    private final EvictionPolicy[] policies;
    private final Sweep[] sweeps;
    /** Every key some miniature holds, to its row (the index's slot). */
    private final GhostIndex index;
    /** Row r's frame in miniature i at {@code r * size + i}, or {@link #NO_FRAME}. */
    private final int[] rowFrames;
    /** Per row: how many miniatures hold its key (at most {@link Long#SIZE} miniatures, under {@link Byte#MAX_VALUE}). */
    private final byte[] holders;
    /** Per miniature, per frame: the row of the key the frame holds. */
    private final int[][] rowOfFrame;
    private final int[] filled;
    private final long[] hits;
    /** Per miniature: hits since construction, for reports ({@link #totalHits}); {@link #hits} is reset each period. */
    private final long[] totalHits;

    MiniatureSet(List<PolicyEntry> entries, int capacity, FlagValues settings) {
        int size = entries.size();
        if (size > Long.SIZE) {
            // access() reports the hits as one bit per miniature in a long
            throw new IllegalArgumentException("at most " + Long.SIZE + " miniatures: " + size);
        }
        this.names = new String[size];
        this.capacity = capacity;
        this.frames = new FrameTable[size];
        this.policies = new EvictionPolicy[size];
        this.sweeps = new Sweep[size];
        this.rowOfFrame = new int[size][capacity];
        for (int i = 0; i < size; i++) {
            names[i] = entries.get(i).name();
            FrameTable table = new FrameTable(capacity);
            CLEANER.register(this, table::close);
            frames[i] = table;
            policies[i] = entries.get(i).guardedFactory().create(table, settings);
            sweeps[i] = Sweep.background();
        }
        // Every miniature full of keys no other holds, plus the one request being added.
        this.index = new GhostIndex(size * capacity);
        this.rowFrames = new int[index.slots() * size];
        this.holders = new byte[index.slots()];
        this.filled = new int[size];
        this.hits = new long[size];
        this.totalHits = new long[size];
    }

    int size() {
        return policies.length;
    }

    /** One request for {@code pageKey} in every miniature: a hit, or a fault that evicts when that miniature is full. */
    long access(long pageKey) {
        long hitMask = 0;
        int size = policies.length;
        int row = index.slotOfOrAdd(pageKey);
        if (row < 0) {
            row = ~row;
            Arrays.fill(rowFrames, row * size, row * size + size, NO_FRAME);
            holders[row] = 0;
        }
        for (int i = 0; i < size; i++) {
            int frame = rowFrames[row * size + i];
            if (frame != NO_FRAME) {
                hits[i]++;
                totalHits[i]++;
                hitMask |= 1L << i;
                policies[i].onHit(frame);
            } else {
                fault(i, row, pageKey);
            }
        }
        return hitMask;
    }

    private void fault(int miniature, int row, long pageKey) {
        int frame = filled[miniature] < capacity ? filled[miniature]++ : evict(miniature);
        frames[miniature].setBinding(frame, pageKey);
        rowFrames[row * policies.length + miniature] = frame;
        rowOfFrame[miniature][frame] = row;
        holders[row]++;
        policies[miniature].onFault(frame, pageKey);
    }

    private int evict(int miniature) {
        EvictionPolicy policy = policies[miniature];
        FrameTable table = frames[miniature];
        policy.housekeeping();
        sweeps[miniature].begin();
        for (int empty = 0; empty < MAX_EMPTY_SWEEPS; empty++) {
            int victim = EvictionPolicy.checkedVictim(policy.nextVictim(sweeps[miniature]),
                BestOfPolicy.NAME + ": the miniature of ", policy, table.frameCount());
            if (victim != EvictionPolicy.NO_VICTIM) {
                long old = table.binding(victim);
                table.setBinding(victim, PageKey.UNBOUND);
                policy.onEvicted(victim, old);
                int row = rowOfFrame[miniature][victim];
                rowFrames[row * policies.length + miniature] = NO_FRAME;
                if (--holders[row] == 0) {
                    index.remove(row);
                }
                return victim;
            }
        }
        throw new IllegalStateException("the miniature of " + names[miniature] + " found no victim in " + MAX_EMPTY_SWEEPS
            + " sweeps over " + capacity + " frames, none pinned");
    }

    /** Miniature {@code i}'s policy: for reading what it chose, never for requests (those come through {@link #access}). */
    EvictionPolicy policy(int i) {
        return policies[i];
    }

    /** Miniature {@code i}'s hits since its last {@link #resetHits}. */
    long hits(int i) {
        return hits[i];
    }

    /** Miniature {@code i}'s hits since it was built (never reset). */
    long totalHits(int i) {
        return totalHits[i];
    }

    void resetHits(int i) {
        hits[i] = 0;
    }
}
