package io.ratatosk.policies.bestof;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.clockpro.GhostIndex;
import java.lang.ref.Cleaner;

/**
 * A miniature simulation of one policy: the policy's own class over a small {@link FrameTable} of its
 * own, fed page keys only, counting its hits. It evicts as the trace simulator does (housekeeping, one
 * background sweep, the victim unbound, then {@code onEvicted}), so a miniature of a policy decides
 * exactly as the policy would in a cache of that size seeing the same requests.
 *
 * <p>Not thread-safe: its owner calls it under its own lock. Allocates nothing after construction. The
 * frame table's off-heap memory is freed when the miniature becomes unreachable.
 */
final class MiniatureCache {
    private static final Cleaner CLEANER = Cleaner.create();
    /** No page is ever pinned here, so a policy that names no victim this many times in a row is broken. */
    private static final int MAX_EMPTY_SWEEPS = 64;

    private final String name;
    private final int capacity;
    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final Sweep sweep = Sweep.background();
    private final GhostIndex index;
    /** The frame of the key in each index slot. */
    private final int[] frameOfSlot;
    private int filled;
    private long hits;

    MiniatureCache(PolicyEntry entry, int capacity, FlagValues settings) {
        this.name = entry.name();
        this.capacity = capacity;
        FrameTable table = new FrameTable(capacity);
        CLEANER.register(this, table::close);
        this.frames = table;
        this.policy = entry.factory().create(table, settings);
        this.index = new GhostIndex(capacity);
        this.frameOfSlot = new int[index.slots()];
    }

    /** One request for {@code pageKey}: a hit, or a fault that evicts when the miniature is full. */
    void access(long pageKey) {
        int slot = index.slotOf(pageKey);
        if (slot != GhostIndex.NONE) {
            hits++;
            policy.onHit(frameOfSlot[slot]);
            return;
        }
        int frame = filled < capacity ? filled++ : evict();
        frames.setBinding(frame, pageKey);
        frameOfSlot[index.add(pageKey)] = frame;
        policy.onFault(frame, pageKey);
    }

    private int evict() {
        policy.housekeeping();
        sweep.begin();
        for (int empty = 0; empty < MAX_EMPTY_SWEEPS; empty++) {
            int victim = policy.nextVictim(sweep);
            if (victim != EvictionPolicy.NO_VICTIM) {
                long old = frames.binding(victim);
                frames.setBinding(victim, PageKey.UNBOUND);
                policy.onEvicted(victim, old);
                index.remove(index.slotOf(old));
                return victim;
            }
        }
        throw new IllegalStateException("the miniature of " + name + " found no victim in " + MAX_EMPTY_SWEEPS
            + " sweeps over " + capacity + " frames, none pinned");
    }

    long hits() {
        return hits;
    }

    void resetHits() {
        hits = 0;
    }
}
