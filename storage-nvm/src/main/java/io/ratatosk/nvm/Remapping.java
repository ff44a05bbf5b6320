package io.ratatosk.nvm;

/**
 * How logical NVM slots map to physical slots ({@code pagecache.nvm.remapping}), so that a hot
 * logical slot does not wear out one physical slot.
 */
public enum Remapping {
    /**
     * Start-gap wear levelling (Qureshi et al., "Enhancing Lifetime and Security of PCM-Based Main
     * Memory with Start-Gap Wear Leveling", MICRO 2009): one spare physical slot, the gap, moves
     * down by one slot every {@code gapInterval} writes, so over time every logical slot rotates
     * through every physical slot at a cost of one extra read and write per move.
     */
    START_GAP("start-gap"),
    /** Identity mapping; for tests and to show what levelling buys. */
    NONE("none");

    private final String flagValue;

    Remapping(String flagValue) {
        this.flagValue = flagValue;
    }

    public String flagValue() {
        return flagValue;
    }
}
