package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;

/**
 * Neo4j 5's page cache clock, the baseline every other policy is compared with: the usage rules of
 * {@link GlobalClockPolicy} fixed at fault usage 1 and evict threshold 1, counting to 4 by default.
 * Where global-clock shares one arm among all evicting threads, only Muninn's background evictor
 * keeps a persistent arm, and a thread evicting cooperatively starts each episode at a random frame
 * with an arm of its own, which costs hit ratio under concurrency. On one thread, with the
 * background sweep doing every eviction, it is exactly {@code global-clock} with max usage 4.
 * Source: thesis 001, sections 2.5 and 4.1, listing A.1.
 */
public final class MuninnPolicy implements EvictionPolicy {
    public static final String NAME = "muninn";
    public static final int DEFAULT_MAX_USAGE = 4;
    private static final int FAULT_USAGE = 1;
    private static final int EVICT_THRESHOLD = 1;

    private final FrameTable frames;
    /** The usage rules and, in its shared arm, the background evictor's persistent arm. */
    private final GlobalClockPolicy clock;

    /** @param maxUsage a hit raises usage up to this, in [1, 7] ({@value #DEFAULT_MAX_USAGE} in Neo4j) */
    public MuninnPolicy(FrameTable frames, int maxUsage) {
        this.clock = new GlobalClockPolicy(NAME, frames, maxUsage, FAULT_USAGE, EVICT_THRESHOLD);
        this.frames = frames;
    }

    @Override
    public String name() {
        return clock.name();
    }

    @Override
    public void onHit(int frame) {
        clock.onHit(frame);
    }

    @Override
    public void onFault(int frame, long pageKey) {
        clock.onFault(frame, pageKey);
    }

    @Override
    public void onEvicted(int frame, long pageKey) {
        clock.onEvicted(frame, pageKey);
    }

    @Override
    public int nextVictim(Sweep sweep) {
        return sweep.isBackground() ? clock.nextVictim(sweep) : nextCooperativeVictim(sweep);
    }

    /** The episode's own arm: a random start, then its position kept in the sweep between calls. */
    private int nextCooperativeVictim(Sweep sweep) {
        int frameCount = frames.frameCount();
        long position;
        if (sweep.isFresh()) {
            sweep.started();
            position = sweep.randomFrame(frameCount);
        } else {
            position = sweep.position();
        }
        int victim = NO_VICTIM;
        for (int i = 0; i < frameCount && victim == NO_VICTIM; i++) {
            int frame = Math.floorMod(position++, frameCount);
            if (clock.step(frame)) {
                victim = frame;
            }
        }
        sweep.position(position);
        return victim;
    }

    @Override
    public void checkInvariants() {
        clock.checkInvariants();
    }
}
