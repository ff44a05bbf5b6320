package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;
import java.util.List;

/**
 * Classic CLOCK (second chance): {@link GlobalClockPolicy} with one reference bit instead of a usage
 * count, that is max usage 1, fault usage 0 and evict threshold 0. A hit sets the bit, the arm clears
 * it and evicts the first frame whose bit was already clear, so a page faulted in and never hit again
 * goes on the arm's next pass over it. It is the CLOCK column of the refsim anchors; source: F. J.
 * Corbat&oacute;, "A Paging Experiment with the Multics System" (1968).
 */
public final class ClockPolicy extends UsageClock implements RecentReferences {
    public static final String NAME = "clock";
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "Second chance: one reference bit per frame, one shared arm.", List.of(), (frames, values) -> new ClockPolicy(frames));

    public ClockPolicy(FrameTable frames) {
        super(NAME, frames, 1, 0, 0);
    }
}
