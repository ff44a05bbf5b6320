package io.ratatosk.policies.clockpro;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import io.ratatosk.policies.PolicySizes;
import java.util.List;

/**
 * CLOCK-Pro: where CLOCK keeps one reference bit per page, CLOCK-Pro also sorts pages into hot and
 * cold by reuse distance. A new page is cold and in a test period until the hot hand passes it; a
 * hit in that period promotes it to hot when the cold hand comes by, and a page evicted in it leaves
 * a ghost whose re-fault brings it back hot. The hot hand demotes unreferenced hot pages to keep
 * them under their target, the test hand trims ghosts, and the cold target adapts: +1 for an access
 * in a test period, -1 for a test period that ends unused (a fixed {@code cold_min} when
 * {@code pagecache.clockpro.adaptive=false}).
 *
 * <p>Here the clock positions are frames, so a page keeps its frame where the paper moves it to the
 * list head, and ghosts (by default twice the frame count, as in Caffeine's simulator) sit in a
 * fixed table at the frame they were evicted from. Source: S. Jiang, F. Chen, X. Zhang, "CLOCK-Pro:
 * An Effective Improvement of the CLOCK Replacement", USENIX ATC 2005; Larsson and Gustavsson (2024), sections 2.4.6
 * and 3.4.5, listings A.3 and B.5.
 */
public final class ClockProPolicy extends ClockProClock {
    public static final String NAME = "clock-pro";
    public static final double DEFAULT_COLD_MAX_SHARE = PolicySizes.CLOCK_PRO_COLD_MAX_SHARE;
    public static final double DEFAULT_GHOSTS = PolicySizes.CLOCK_PRO_GHOSTS;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "CLOCK-Pro (Jiang, Chen and Zhang 2005): hot and cold pages by reuse distance, ghosts for the test period, an adaptive cold target.",
        List.of(ReadFlag.of(ClockProFlags.ADAPTIVE), ReadFlag.of(ClockProFlags.AUTHORS_CORRELATION), ReadFlag.of(ClockProFlags.COLD_MIN),
            new ReadFlag(ClockProFlags.COLD_MAX, "99% of frames"), new ReadFlag(ClockProFlags.GHOSTS, String.valueOf(DEFAULT_GHOSTS))),
        ClockProPolicy::create, (frames, settings) -> create(frames, settings, true));

    ClockProPolicy(FrameTable frames, ClockProSizing sizing) {
        this(frames, sizing, false);
    }

    private ClockProPolicy(FrameTable frames, ClockProSizing sizing, boolean guardedByOwner) {
        super(NAME, frames, sizing, guardedByOwner);
    }

    /** With the {@code pagecache.clockpro.*} flags, at clock-pro's defaults where unset. */
    public static ClockProPolicy create(FrameTable frames, FlagValues settings) {
        return create(frames, settings, false);
    }

    private static ClockProPolicy create(FrameTable frames, FlagValues settings, boolean guardedByOwner) {
        return new ClockProPolicy(frames,
            ClockProSizing.read(frames.frameCount(), settings, DEFAULT_COLD_MAX_SHARE, DEFAULT_GHOSTS), guardedByOwner);
    }

    @Override
    int onTestPageReferenced() {
        return 1;
    }

    @Override
    int onGhostRefault(int ghostCount, int demotedCount) {
        return 1;
    }

    @Override
    int onTestPeriodEnded(boolean referenced) {
        return referenced ? 1 : -1;
    }

    @Override
    int onDemotedReferenced(int ghostCount, int demotedCount) {
        return 0;
    }

    @Override
    boolean tracksDemotion() {
        return false;
    }
}
