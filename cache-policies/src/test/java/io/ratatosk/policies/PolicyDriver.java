package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.replay.PolicyReplay;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Drives one policy request by request through {@link PolicyReplay}, the way a one-thread page cache
 * does (the simulator's rules), and keeps what the policy tests look at: the pages evicted, in order,
 * and where each resident page is. Page {@code p} is {@code PageKey.of(0, p)}. For the hand-made
 * traces of the policy tests.
 */
public final class PolicyDriver implements AutoCloseable {
    public final FrameTable frames;
    public final EvictionPolicy policy;
    private final PolicyReplay replay;
    private final List<Long> evicted = new ArrayList<>();

    public PolicyDriver(int frameCount, Function<FrameTable, EvictionPolicy> factory) {
        this.replay = new PolicyReplay(frameCount, factory);
        this.frames = replay.frames();
        this.policy = replay.policy();
    }

    public static PolicyDriver of(int frameCount, String policy, Map<String, String> flags) {
        return new PolicyDriver(frameCount, frames -> PolicyRegistry.create(policy, frames, PolicyRegistry.parse(flags)));
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
        long evictionsBefore = replay.evictions();
        boolean hit = replay.read(Math.toIntExact(page));
        if (replay.evictions() != evictionsBefore) {
            evicted.add((long) replay.lastEvicted());
        }
        return hit;
    }

    /**
     * Requests pages 0..{@code pages - 1} up and down again, {@code rounds} times: only the most recent pages are
     * ever reused, so LRU is optimal (the LIRS traces' zigzag in miniature).
     */
    public void zigzag(int pages, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (int p = 0; p < pages; p++) {
                request(p);
            }
            for (int p = pages - 1; p >= 0; p--) {
                request(p);
            }
        }
    }

    public boolean isResident(long page) {
        return replay.frameOf(Math.toIntExact(page)) >= 0;
    }

    /** The frame holding {@code page}; fails if it is not resident. */
    public int frameOf(long page) {
        int frame = replay.frameOf(Math.toIntExact(page));
        if (frame < 0) {
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
        return replay.hits();
    }

    public long requests() {
        return replay.requests();
    }

    @Override
    public void close() {
        replay.close();
    }
}
