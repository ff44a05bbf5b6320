package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.util.List;

/**
 * Neo4j 5's page cache clock, the baseline every other policy is compared with: the usage rules of
 * {@link GlobalClockPolicy} fixed at fault usage 1 and evict threshold 1, counting to 4 by default.
 * Where global-clock shares one arm among all evicting threads, only Muninn's background evictor
 * keeps a persistent arm, and a thread evicting cooperatively starts each episode at a random frame
 * with an arm of its own, which costs hit ratio under concurrency. On one thread, with the
 * background sweep doing every eviction, it is exactly {@code global-clock} with max usage 4.
 * Source: Larsson and Gustavsson (2024), sections 2.5 and 4.1, listing A.1 (docs/references.md).
 */
public final class MuninnPolicy extends UsageClock implements RecentReferences {
    public static final String NAME = "muninn";
    public static final int DEFAULT_MAX_USAGE = 4;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "Neo4j 5's clock: usage counts up to 4, the evictor's arm plus a random arm per cooperative eviction.",
        List.of(new PolicyEntry.ReadFlag(ClockFlags.MAX_USAGE, String.valueOf(DEFAULT_MAX_USAGE))),
        (frames, values) -> new MuninnPolicy(frames, values.getInt(ClockFlags.MAX_USAGE, DEFAULT_MAX_USAGE)));
    private static final int FAULT_USAGE = 1;
    private static final int EVICT_THRESHOLD = 1;

    /** @param maxUsage a hit raises usage up to this, in [1, 7] ({@value #DEFAULT_MAX_USAGE} in Neo4j) */
    public MuninnPolicy(FrameTable frames, int maxUsage) {
        super(NAME, frames, maxUsage, FAULT_USAGE, EVICT_THRESHOLD);
    }

    /** The background evictor steps the policy's persistent arm; a cooperative episode its own. */
    @Override
    public int nextVictim(Sweep sweep) {
        return sweep.isBackground() ? super.nextVictim(sweep) : nextCooperativeVictim(sweep);
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
            if (step(frame)) {
                victim = frame;
            }
        }
        sweep.position(position);
        return victim;
    }
}
