package io.ratatosk.policies.clockpro;

import static io.ratatosk.core.config.RuleContext.framesOf;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.FrameShare;
import io.ratatosk.core.config.RuleContext;
import io.ratatosk.policies.PolicySizes;
import java.util.List;

/** The flags of clock-pro and clock-pro-plus, and their rules. */
public final class ClockProFlags {
    public static final Flag ADAPTIVE = Flag.bool("pagecache.clockpro.adaptive", "true",
            "Let the cold target follow the workload (each policy by its own rule); false keeps it at pagecache.clockpro.cold_min.");

    public static final Flag AUTHORS_CORRELATION = Flag.bool("pagecache.clockpro.authors_correlation", "false",
            "End a correlated reference (a page hit again right after its fault, which does not count) at any other page's hit, as the"
            + " authors' code and Caffeine's simulator do, so every hit reaches the policy; false ends it at another page's first hit"
            + " since its reference bit was cleared, so a hit on a referenced page changes nothing and the page cache skips it.");

    public static final Flag COLD_MIN = Flag.frameShare("pagecache.clockpro.cold_min", null,
            "Lowest cold target (resident cold pages), the fixed cold target when not adaptive, and what a filling cache leaves cold.")
            .derivedDefault("1% of frames, at least 2");

    public static final Flag COLD_MAX = Flag.frameShare("pagecache.clockpro.cold_max", null,
            "Highest cold target; a value above the frame count less pagecache.clockpro.cold_min is capped there.")
            .accepting("a fraction of the frames in (0, 1] like 0.1, or a frame count >= 1; at least pagecache.clockpro.cold_min")
            .derivedDefault("99% of frames for clock-pro, 50% for clock-pro-plus");

    public static final Flag GHOSTS = Flag.decimal("pagecache.clockpro.ghosts", null, 0.5, 4,
            "Ghost entries (pages evicted in their test period) kept, as a multiple of the frame count.")
            .accepting("a number in [0.5, 4.0]; ghosts x frames at most " + PolicySizes.MAX_GHOSTS
                    + ", and frames + ghosts x frames below " + FrameTable.MAX_FRAMES)
            .derivedDefault("2.0 for clock-pro, 1.0 for clock-pro-plus");

    public static final List<FlagRule> RULES = List.of(ClockProFlags::coldBounds, ClockProFlags::ghosts);

    private ClockProFlags() {
    }

    /**
     * An explicit cold_max comes to at least as many frames as cold_min, set or at its default (the same
     * for both CLOCK-Pro policies). Checked whatever the policy, like every rule between flags that are
     * set, so that changing only the policy keeps a config valid. A cold_max above its cap (frames -
     * cold_min) is capped, never refused: the cap is at least cold_min.
     */
    private static void coldBounds(RuleContext context, List<FlagProblem> problems) {
        int frames = context.frames();
        Object max = context.values().given(COLD_MAX);
        if (frames <= 0 || max == null || !context.usable(COLD_MAX) || !context.usable(COLD_MIN)) {
            return;
        }
        int coldMax = ((FrameShare) max).of(frames);
        Object min = context.values().given(COLD_MIN);
        int coldMin = min != null ? ((FrameShare) min).of(frames) : PolicySizes.defaultColdMin(frames);
        if (coldMin <= coldMax) {
            return;
        }
        String maxText = context.named(COLD_MAX) + " (" + framesOf(coldMax) + ")";
        String frameCount = "; the frame count is " + context.frameCount();
        if (min != null) {
            problems.add(new FlagProblem(COLD_MIN.name(), context.values().text(COLD_MIN),
                    context.named(COLD_MIN) + " (" + framesOf(coldMin) + ") must be at most " + maxText + frameCount));
        } else {
            problems.add(new FlagProblem(COLD_MAX.name(), context.values().text(COLD_MAX),
                    maxText + " must be at least " + COLD_MIN.name() + ", unset, which defaults to "
                            + framesOf(coldMin) + " (" + COLD_MIN.defaultText() + ")" + frameCount));
        }
    }

    /**
     * The ghosts a CLOCK-Pro clock keeps (ghosts x frames) fit its ghost index and, with the frames, its
     * node arrays. Checked when ghosts is set, whatever the policy, and at the policy's default when the
     * policy is clock-pro or clock-pro-plus.
     */
    private static void ghosts(RuleContext context, List<FlagProblem> problems) {
        int frames = context.frames();
        if (frames <= 0 || !context.usable(GHOSTS)) {
            return;
        }
        Object given = context.values().given(GHOSTS);
        String policy = context.policy();
        if (given == null && !ClockProPolicy.NAME.equals(policy) && !ClockProPlusPolicy.NAME.equals(policy)) {
            return;
        }
        double perFrame = given != null ? (Double) given : PolicySizes.defaultGhosts(policy);
        long ghosts = PolicySizes.ghostCapacity(frames, perFrame);
        long most = PolicySizes.maxGhosts(frames);
        if (ghosts <= most) {
            return;
        }
        String flag = given != null
                ? context.named(GHOSTS)
                : GHOSTS.name() + ", unset, which defaults to " + GHOSTS.format(perFrame) + " for pagecache.policy=" + policy + ",";
        String fit = most < 1
                ? "no ghost fits beside so many frames: the clock's arrays hold frames + ghosts + 1 <= " + FrameTable.MAX_FRAMES
                        + " nodes; lower pagecache.memory or raise pagecache.page_size"
                : "at most " + most + " fit (" + PolicySizes.MAX_GHOSTS + " in the ghost index, and frames + ghosts + 1 <= "
                        + FrameTable.MAX_FRAMES + " nodes in the clock's arrays)";
        problems.add(new FlagProblem(GHOSTS.name(), context.values().text(GHOSTS),
                flag + " keeps " + ghosts + " ghosts for the frame count, " + context.frameCount() + "; " + fit));
    }
}
