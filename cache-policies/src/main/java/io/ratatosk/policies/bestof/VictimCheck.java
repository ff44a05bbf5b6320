package io.ratatosk.policies.bestof;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;

/**
 * The check of a victim that best-of takes from a policy of its own (a miniature's, or the outgoing expert's at a
 * switch) before it touches the frame: one outside the policy's frame table (a bug in the policy) had its binding read
 * and, in a miniature, overwritten at that index, native memory outside the table, which can crash the JVM later.
 */
final class VictimCheck {
    private VictimCheck() {
    }

    /**
     * {@code victim}, which {@code policy} named over {@code frames}: {@link EvictionPolicy#NO_VICTIM} or a frame of the
     * table. Builds nothing unless it throws: a miniature's eviction allocates nothing.
     *
     * @param role what the policy is to best-of, for the message: "the miniature of", "the outgoing expert"
     * @throws IllegalStateException naming the policy, the victim and the table's frames, when it is neither
     */
    static int checked(int victim, String role, EvictionPolicy policy, FrameTable frames) {
        if (victim != EvictionPolicy.NO_VICTIM && (victim < 0 || victim >= frames.frameCount())) {
            throw new IllegalStateException(BestOfPolicy.NAME + ": " + role + " " + policy.name() + " named frame " + victim
                + " as its victim, which is no frame of its table (0 to " + (frames.frameCount() - 1) + "): a bug in the"
                + " policy; nothing was evicted");
        }
        return victim;
    }
}
