package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Drives one policy request by request the way a one-thread page cache does (the simulator's
 * rules): a miss takes the next free frame in order 0..n-1, or else runs housekeeping, asks
 * {@code nextVictim} until it names a frame, evicts it and faults the page in there. Page {@code p}
 * is {@code PageKey.of(0, p)}. For the hand-made traces of the policy tests.
 */
public final class PolicyDriver implements AutoCloseable {
    public final FrameTable frames;
    public final EvictionPolicy policy;
    private final Map<Long, Integer> frameOfPage = new HashMap<>();
    private final Sweep sweep = Sweep.background();
    private final List<Long> evicted = new ArrayList<>();
    private int filled;
    private long hits;
    private long requests;

    public PolicyDriver(int frameCount, Function<FrameTable, EvictionPolicy> factory) {
        this.frames = new FrameTable(frameCount);
        this.policy = factory.apply(frames);
    }

    public static PolicyDriver of(int frameCount, String policy, Map<String, String> flags) {
        return new PolicyDriver(frameCount, frames -> EvictionPolicies.create(policy, frames, PolicySettings.of(flags)));
    }

    /** Requests every page in turn. */
    public PolicyDriver access(long... pages) {
        for (long page : pages) {
            request(page);
        }
        return this;
    }

    /** Requests {@code page}; true if it was resident. */
    public boolean request(long page) {
        requests++;
        Integer frame = frameOfPage.get(page);
        if (frame != null) {
            hits++;
            policy.onHit(frame);
            return true;
        }
        int target;
        if (filled < frames.frameCount()) {
            target = filled++;
        } else {
            target = evictOne();
        }
        long key = PageKey.of(0, page);
        lock(target);
        frames.setBinding(target, key);
        policy.onFault(target, key);
        frames.unlockExclusive(target);
        frameOfPage.put(page, target);
        return false;
    }

    private int evictOne() {
        policy.housekeeping();
        sweep.begin();
        for (int pass = 0; pass < 2 * (FrameDescriptor.MAX_USAGE + 1); pass++) {
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM || !frames.tryExclusiveLock(victim)) {
                continue;
            }
            long old = frames.binding(victim);
            frames.setBinding(victim, PageKey.UNBOUND);
            policy.onEvicted(victim, old);
            frames.unlockExclusive(victim);
            frameOfPage.remove(PageKey.pageId(old));
            evicted.add(PageKey.pageId(old));
            return victim;
        }
        throw new IllegalStateException(policy.name() + " named no victim");
    }

    private void lock(int frame) {
        if (!frames.tryExclusiveLock(frame)) {
            throw new IllegalStateException("frame " + frame + " is locked");
        }
    }

    public boolean isResident(long page) {
        return frameOfPage.containsKey(page);
    }

    /** The frame holding {@code page}; fails if it is not resident. */
    public int frameOf(long page) {
        Integer frame = frameOfPage.get(page);
        if (frame == null) {
            throw new AssertionError("page " + page + " is not resident");
        }
        return frame;
    }

    public long policyWord(long page) {
        return frames.policyWord(frameOf(page));
    }

    /** Pages evicted so far, in eviction order. */
    public List<Long> evicted() {
        return evicted;
    }

    public long hits() {
        return hits;
    }

    public long requests() {
        return requests;
    }

    @Override
    public void close() {
        frames.close();
    }
}
