package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;

/**
 * Classic CLOCK (second chance): {@link GlobalClockPolicy} with one reference bit instead of a usage
 * count, that is max usage 1, fault usage 0 and evict threshold 0. A hit sets the bit, the arm clears
 * it and evicts the first frame whose bit was already clear, so a page faulted in and never hit again
 * goes on the arm's next pass over it. It is the CLOCK column of the refsim anchors; source: F. J.
 * Corbat&oacute;, "A Paging Experiment with the Multics System" (1968).
 */
public final class ClockPolicy implements EvictionPolicy {
    public static final String NAME = "clock";

    private final GlobalClockPolicy clock;

    public ClockPolicy(FrameTable frames) {
        this.clock = new GlobalClockPolicy(NAME, frames, 1, 0, 0);
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
        return clock.nextVictim(sweep);
    }

    @Override
    public void checkInvariants() {
        clock.checkInvariants();
    }
}
