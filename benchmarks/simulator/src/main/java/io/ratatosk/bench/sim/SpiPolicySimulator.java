package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Drives a cache-policies {@link EvictionPolicy} through the SPI exactly as a single-threaded page
 * cache would, over a {@link FrameTable} of metadata only (no page buffers):
 * <ul>
 *   <li>a hit calls {@code onHit(frame)};</li>
 *   <li>a miss while frames are free binds the next free frame, in order 0..n-1;</li>
 *   <li>a miss with every frame bound runs {@code housekeeping()}, then begins an eviction episode
 *       on one background {@link Sweep} kept for the whole run, asks {@code nextVictim}, takes the
 *       victim's exclusive lock, unbinds it, calls {@code onEvicted(victim, oldKey)}, binds the new
 *       key and calls {@code onFault(victim, newKey)}, then unlocks;</li>
 *   <li>{@code checkInvariants()} when the run ends.</li>
 * </ul>
 * Trace key {@code k} (dense) is page {@code PageKey.of(0, k)}. Housekeeping runs where the page
 * cache without a background evictor runs it, before each eviction episode, so that a policy whose
 * housekeeping changes what it decides (bitset-history trims its history there) counts the same hits
 * in both.
 */
final class SpiPolicySimulator implements PolicySimulator {
    /**
     * Consecutive {@link EvictionPolicy#NO_VICTIM} answers after which a run gives up: a usage clock
     * may need {@link FrameDescriptor#MAX_USAGE} sweeps to bring a cache of usage-7 pages down to
     * its threshold (bitset-history boosts pages straight to 7), so twice that.
     */
    static final int MAX_EMPTY_SWEEPS = 2 * (FrameDescriptor.MAX_USAGE + 1);

    private final String name;
    private final Function<FrameTable, EvictionPolicy> factory;

    SpiPolicySimulator(String name, Function<FrameTable, EvictionPolicy> factory) {
        this.name = name;
        this.factory = factory;
    }

    @Override
    public long replay(Trace trace, int capacity, Progress progress) {
        int[] keys = trace.keys();
        int[] frameOf = new int[trace.distinct()];
        Arrays.fill(frameOf, -1);
        int[] keyOf = new int[capacity];
        try (FrameTable frames = new FrameTable(capacity)) {
            EvictionPolicy policy = factory.apply(frames);
            Sweep sweep = Sweep.background();
            int bound = 0;
            long hits = 0;
            for (int i = 0; i < keys.length; i++) {
                int k = keys[i];
                int frame = frameOf[k];
                if (frame >= 0) {
                    hits++;
                    policy.onHit(frame);
                } else {
                    if (bound < capacity) {
                        frame = bound++;
                        lock(frames, frame);
                    } else {
                        frame = evict(policy, frames, sweep, i);
                        frameOf[keyOf[frame]] = -1;
                    }
                    long pageKey = PageKey.of(0, k);
                    frames.setBinding(frame, pageKey);
                    policy.onFault(frame, pageKey);
                    frames.unlockExclusive(frame);
                    frameOf[k] = frame;
                    keyOf[frame] = k;
                }
                if ((i & (PROGRESS_STEP - 1)) == PROGRESS_STEP - 1) {
                    progress.advance(PROGRESS_STEP);
                }
            }
            progress.advance(keys.length & (PROGRESS_STEP - 1));
            policy.checkInvariants();
            checkBindings(frames, keyOf, frameOf, bound);
            return hits;
        }
    }

    /** Finds, locks and unbinds a victim; returns its frame, still exclusively locked. */
    private int evict(EvictionPolicy policy, FrameTable frames, Sweep sweep, int request) {
        policy.housekeeping();
        sweep.begin();
        for (int empty = 0; ; ) {
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                if (++empty == MAX_EMPTY_SWEEPS) {
                    throw new IllegalStateException(name + " found no victim in " + MAX_EMPTY_SWEEPS
                        + " full sweeps over " + frames.frameCount() + " frames, none pinned (request " + request + ")");
                }
                continue;
            }
            if (victim < 0 || victim >= frames.frameCount()) {
                throw new IllegalStateException(name + " returned frame " + victim + " outside 0.."
                    + (frames.frameCount() - 1) + " (request " + request + ")");
            }
            lock(frames, victim);
            long oldKey = frames.binding(victim);
            frames.setBinding(victim, PageKey.UNBOUND);
            policy.onEvicted(victim, oldKey);
            return victim;
        }
    }

    private void lock(FrameTable frames, int frame) {
        if (!frames.tryExclusiveLock(frame)) {
            throw new IllegalStateException(name + ": frame " + frame + " is locked, but nothing else runs here");
        }
    }

    /** Every bound frame must hold the key the simulator put there, and the reverse index agree. */
    private void checkBindings(FrameTable frames, int[] keyOf, int[] frameOf, int bound) {
        for (int f = 0; f < bound; f++) {
            if (frames.binding(f) != PageKey.of(0, keyOf[f]) || frameOf[keyOf[f]] != f) {
                throw new IllegalStateException(name + ": frame " + f + " is bound to "
                    + PageKey.toString(frames.binding(f)) + ", expected key " + keyOf[f]);
            }
        }
    }
}
