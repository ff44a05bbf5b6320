package io.ratatosk.policies.clockpro;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import io.ratatosk.policies.PolicySizes;
import java.util.List;

/**
 * CLOCK-Pro+: {@link ClockProPolicy} with a utility-driven adaptation instead of counting test
 * periods. The hot hand marks the pages it demotes; a ghost's re-fault (more cold space would have
 * kept it) raises the cold target by max(1, demoted / ghosts), and a demoted page found referenced
 * (more hot space would have kept it hot) lowers it by max(1, ghosts / demoted). Test periods
 * ending and test-period hits change nothing; the cold target stays at most half the frames, and
 * ghosts default to one per frame, as in the author's code.
 *
 * <p>The thesis writes min{1, ...}; this follows the author's code, max(1, floor(...)). Source:
 * C. Li, "CLOCK-Pro+: Improving CLOCK-Pro Cache Replacement with Utility-Driven Adaptation",
 * SYSTOR 2019; Larsson and Gustavsson (2024), section 2.4.7, listing A.4 (docs/references.md).
 */
public final class ClockProPlusPolicy extends ClockProClock {
    public static final String NAME = "clock-pro-plus";
    public static final double DEFAULT_COLD_MAX_SHARE = PolicySizes.CLOCK_PRO_PLUS_COLD_MAX_SHARE;
    public static final double DEFAULT_GHOSTS = PolicySizes.CLOCK_PRO_PLUS_GHOSTS;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "CLOCK-Pro+ (Li 2019): CLOCK-Pro with a utility-driven adaptation of the cold target.",
        List.of(ReadFlag.of(ClockProFlags.ADAPTIVE), ReadFlag.of(ClockProFlags.AUTHORS_CORRELATION), ReadFlag.of(ClockProFlags.COLD_MIN),
            new ReadFlag(ClockProFlags.COLD_MAX, "50% of frames"), new ReadFlag(ClockProFlags.GHOSTS, String.valueOf(DEFAULT_GHOSTS))),
        ClockProPlusPolicy::create);

    ClockProPlusPolicy(FrameTable frames, ClockProSizing sizing) {
        super(NAME, frames, sizing, false);
    }

    /** With the {@code pagecache.clockpro.*} flags, at clock-pro-plus's defaults where unset. */
    public static ClockProPlusPolicy create(FrameTable frames, FlagValues settings) {
        return new ClockProPlusPolicy(frames,
            ClockProSizing.read(frames.frameCount(), settings, DEFAULT_COLD_MAX_SHARE, DEFAULT_GHOSTS));
    }

    @Override
    int onTestPageReferenced() {
        return 0;
    }

    @Override
    int onGhostRefault(int ghostCount, int demotedCount) {
        return Math.max(1, ghostCount == 0 ? 0 : demotedCount / ghostCount);
    }

    @Override
    int onTestPeriodEnded(boolean referenced) {
        return 0;
    }

    @Override
    int onDemotedReferenced(int ghostCount, int demotedCount) {
        return -Math.max(1, demotedCount == 0 ? 0 : ghostCount / demotedCount);
    }

    @Override
    boolean tracksDemotion() {
        return true;
    }
}
