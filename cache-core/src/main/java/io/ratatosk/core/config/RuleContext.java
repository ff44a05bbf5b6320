package io.ratatosk.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What a {@link FlagRule} sees: the values of one parse, which flags were refused on their own (a rule
 * skips them, so a bad value gets one message, not two), the policy chosen, and the frame count with
 * the words that explain where it comes from.
 *
 * @param values     the flags given
 * @param refused    flags whose own value was refused
 * @param policy     the eviction policy chosen
 * @param frames     the cache's frame count, or 0 when it is unknown (memory or page size refused)
 * @param pageSize   the page size in bytes (of a frame, and of an NVM slot)
 * @param frameCount the frame count for a message: "8192 (pagecache.memory=64m / pagecache.page_size=8192)"
 */
public record RuleContext(FlagValues values, Set<Flag> refused, String policy, int frames, long pageSize, String frameCount) {
    /** For a parse with no memory or page size of its own (the simulator's): {@code frames} frames. */
    public static RuleContext forFrames(FlagValues values, String policy, int frames, long pageSize) {
        return new RuleContext(values, Set.of(), policy, frames, pageSize, String.valueOf(frames));
    }

    /** Whether a rule may look at {@code flag}: its own value was not refused. */
    public boolean usable(Flag flag) {
        return !refused.contains(flag);
    }

    /** The flag as the message names it: "name=text" as given, or "name=default" when unset. */
    public String named(Flag flag) {
        String text = values.text(flag);
        return flag.name() + "=" + (text != null ? text : flag.defaultValue());
    }

    /**
     * The rule every fraction-or-count flag obeys: a count given in frames is at most the frame count.
     * Returns the flags that broke it, so the caller can keep other rules off them.
     */
    public static List<Flag> checkFrameCounts(Collection<Flag> flags, RuleContext context, List<FlagProblem> problems) {
        List<Flag> broken = new ArrayList<>();
        if (context.frames() <= 0) {
            return broken;
        }
        for (Flag flag : flags) {
            if (context.values().given(flag) instanceof FrameShare share && !share.isFraction() && share.count() > context.frames()) {
                problems.add(new FlagProblem(flag.name(), context.values().text(flag),
                        context.named(flag) + ": must be at most the frame count, " + context.frameCount()));
                broken.add(flag);
            }
        }
        return broken;
    }

    /** "1 frame", "12 frames". */
    public static String framesOf(long count) {
        return count + (count == 1 ? " frame" : " frames");
    }
}
