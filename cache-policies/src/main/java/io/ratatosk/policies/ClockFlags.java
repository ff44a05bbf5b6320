package io.ratatosk.policies;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.RuleContext;
import java.util.List;

/** The flags of the usage-count clocks ({@link UsageClock}: muninn, global-clock, the histories), and their rule. */
public final class ClockFlags {
    public static final Flag MAX_USAGE = Flag.integer("pagecache.clock.max_usage", null, 1, FrameDescriptor.MAX_USAGE,
            "Highest usage count a hit raises a page to.")
            .derivedDefault("4 for muninn, 7 for global-clock and bitset-history");

    public static final Flag FAULT_USAGE = Flag.integer("pagecache.clock.fault_usage", "1", 0, FrameDescriptor.MAX_USAGE,
            "Usage count a page starts with after a fault.")
            .accepting("an integer in [0, pagecache.clock.max_usage]");

    public static final Flag EVICT_THRESHOLD = Flag.integer("pagecache.clock.evict_threshold", "1", 0, FrameDescriptor.MAX_USAGE,
            "A sweep may evict a page whose usage count, before the sweep decrements it, is at most this.")
            .accepting("an integer in [0, pagecache.clock.max_usage]");

    /** fault_usage and evict_threshold may not exceed max_usage when it is set (their own bounds cap them at 7 otherwise). */
    public static final List<FlagRule> RULES = List.of(
            (context, problems) -> atMostMaxUsage(FAULT_USAGE, context, problems),
            (context, problems) -> atMostMaxUsage(EVICT_THRESHOLD, context, problems));

    private ClockFlags() {
    }

    /** A flag whose value may not exceed an explicit max_usage. */
    static void atMostMaxUsage(Flag flag, RuleContext context, List<FlagProblem> problems) {
        Object value = context.values().given(flag);
        Object maxUsage = context.values().given(MAX_USAGE);
        if (value != null && maxUsage != null && (Integer) value > (Integer) maxUsage) {
            problems.add(new FlagProblem(flag.name(), context.values().text(flag),
                    context.named(flag) + ": must be an integer in [0, " + MAX_USAGE.name() + "=" + maxUsage + "]"));
        }
    }
}
