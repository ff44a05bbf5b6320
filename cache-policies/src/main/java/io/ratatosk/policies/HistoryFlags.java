package io.ratatosk.policies;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.RuleContext;
import java.util.List;

/** The flags of bitset-history and bitset-history-exact (beside the clock flags they also read), and their rules. */
public final class HistoryFlags {
    public static final Flag BITS = Flag.powerOfTwoInteger("pagecache.history.bits", null, 64, PolicySizes.MAX_HISTORY_BITS,
            "Bits in bitset-history's bitset of recently evicted pages; more bits, fewer collisions.")
            .accepting("a power of two in [64, " + PolicySizes.MAX_HISTORY_BITS + "], at most "
                    + PolicySizes.MAX_HISTORY_BITS_PER_FRAME + " x the frame count rounded up to a power of two")
            .derivedDefault("8 x frames rounded up to a power of two, at most 2^30");

    public static final Flag CAPACITY = Flag.integer("pagecache.history.capacity", null, 1, PolicySizes.MAX_HISTORY_CAPACITY,
            "Evicted pages the history remembers; housekeeping forgets the oldest beyond this.")
            .accepting("an integer in [1, " + PolicySizes.MAX_HISTORY_CAPACITY + "], at most "
                    + PolicySizes.HISTORY_CAPACITY_PER_FRAME + " x the frame count")
            .derivedDefault("the frame count, at most " + PolicySizes.MAX_HISTORY_CAPACITY);

    public static final Flag BOOST_USAGE = Flag.integer("pagecache.history.boost_usage", null, 0, FrameDescriptor.MAX_USAGE,
            "Usage count a page starts with when its fault finds it in the history.")
            .accepting("an integer in [0, pagecache.clock.max_usage]")
            .derivedDefault("7, or pagecache.clock.max_usage when that is lower");

    public static final List<FlagRule> RULES = List.of(
            (context, problems) -> ClockFlags.atMostMaxUsage(BOOST_USAGE, context, problems),
            HistoryFlags::sizes);

    private HistoryFlags() {
    }

    /**
     * An explicit history.bits is at most 64 x the frames rounded up to a power of two, and an explicit
     * history.capacity at most 4 x the frames (and both within their own bounds), whatever the policy:
     * the history's structures are preallocated at these sizes.
     */
    private static void sizes(RuleContext context, List<FlagProblem> problems) {
        int frames = context.frames();
        if (frames <= 0) {
            return;
        }
        Object bits = context.values().given(BITS);
        int mostBits = PolicySizes.maxHistoryBits(frames);
        if (bits != null && (Integer) bits > mostBits) {
            problems.add(new FlagProblem(BITS.name(), context.values().text(BITS),
                    context.named(BITS) + ": must be at most " + mostBits + ", " + PolicySizes.MAX_HISTORY_BITS_PER_FRAME
                            + " x the frame count rounded up to a power of two; the frame count is " + context.frameCount()));
        }
        Object capacity = context.values().given(CAPACITY);
        int most = PolicySizes.maxHistoryCapacity(frames);
        if (capacity != null && (Integer) capacity > most) {
            problems.add(new FlagProblem(CAPACITY.name(), context.values().text(CAPACITY),
                    context.named(CAPACITY) + ": must be at most " + most + ", " + PolicySizes.HISTORY_CAPACITY_PER_FRAME
                            + " x the frame count; the frame count is " + context.frameCount()));
        }
    }
}
