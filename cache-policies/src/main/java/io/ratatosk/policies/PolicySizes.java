package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;

/**
 * The sizes the policies derive from the frame count when a flag is unset, and the most their
 * preallocated structures hold. The policies' rules across flags and the policies themselves both
 * read them here, so that the parser refuses exactly the configurations a policy could not build,
 * and says so with the same numbers the policy would use.
 */
public final class PolicySizes {

    // ---------------------------------------------------------------- clock-pro, clock-pro-plus

    /** {@code pagecache.clockpro.cold_min} when unset: this share of the frames, rounded down... */
    public static final double COLD_MIN_SHARE = 0.01;
    /** ... but at least this many frames (at most every frame). */
    public static final int COLD_MIN_FLOOR = 2;
    /** clock-pro's highest cold share when {@code pagecache.clockpro.cold_max} is unset. */
    public static final double CLOCK_PRO_COLD_MAX_SHARE = 0.99;
    /** clock-pro-plus's highest cold share when {@code pagecache.clockpro.cold_max} is unset. */
    public static final double CLOCK_PRO_PLUS_COLD_MAX_SHARE = 0.5;
    /** clock-pro's ghosts per frame when {@code pagecache.clockpro.ghosts} is unset. */
    public static final double CLOCK_PRO_GHOSTS = 2.0;
    /** clock-pro-plus's ghosts per frame when {@code pagecache.clockpro.ghosts} is unset. */
    public static final double CLOCK_PRO_PLUS_GHOSTS = 1.0;
    /**
     * The most ghosts a CLOCK-Pro clock keeps: its ghost index has two cells per ghost, rounded up
     * to a power of two, in one long array, and 2^30 is the largest power of two an array holds.
     */
    public static final int MAX_GHOSTS = 1 << 29;

    // ---------------------------------------------------------------- bitset-history, bitset-history-exact

    /** Bits per frame of {@code pagecache.history.bits} when unset, rounded up to a power of two. */
    public static final int HISTORY_BITS_PER_FRAME = 8;
    /** The most bits of the history's bitset. */
    public static final int MAX_HISTORY_BITS = 1 << 30;
    /**
     * The most bits of the history's bitset per frame, before rounding up to a power of two: eight
     * times the default, and a bitset (preallocated) in proportion to the cache it serves.
     */
    public static final int MAX_HISTORY_BITS_PER_FRAME = 64;
    /**
     * The most entries a history remembers: the exact history's ring holds up to four entries per
     * remembered page and its key table two cells per ring entry, rounded up to a power of two,
     * which reaches 2^30 cells (the largest power-of-two array) at this capacity.
     */
    public static final int MAX_HISTORY_CAPACITY = 1 << 28;
    /**
     * The most entries a history remembers per frame, as the CLOCK-Pro ghosts (at most 4 x the
     * frame count): the history's arrays are preallocated at its capacity, and this keeps them in
     * proportion to the cache they serve.
     */
    public static final int HISTORY_CAPACITY_PER_FRAME = 4;

    private PolicySizes() {
    }

    /** {@code pagecache.clockpro.cold_min} when unset: 1% of the frames, at least 2, at most every frame. */
    public static int defaultColdMin(int frames) {
        return Math.min(frames, Math.max(COLD_MIN_FLOOR, (int) (frames * COLD_MIN_SHARE)));
    }

    /**
     * The highest cold target a clock of {@code frames} frames may have with cold minimum
     * {@code coldMin}: above {@code frames - coldMin} the hot pages could not leave the cold
     * minimum. Never below {@code coldMin}, so capping a {@code cold_max} here cannot put it below
     * {@code cold_min}.
     */
    public static int coldMaxCap(int frames, int coldMin) {
        return Math.max(coldMin, frames - coldMin);
    }

    /** {@code pagecache.clockpro.cold_max} when unset: {@code share} of the frames, within [coldMin, cap]. */
    public static int defaultColdMax(int frames, int coldMin, double share) {
        return Math.max(coldMin, Math.min((int) (frames * share), frames - coldMin));
    }

    /** The highest cold share of {@code policy} when {@code pagecache.clockpro.cold_max} is unset. */
    public static double defaultColdMaxShare(String policy) {
        return "clock-pro-plus".equals(policy) ? CLOCK_PRO_PLUS_COLD_MAX_SHARE : CLOCK_PRO_COLD_MAX_SHARE;
    }

    /** The ghosts per frame of {@code policy} when {@code pagecache.clockpro.ghosts} is unset. */
    public static double defaultGhosts(String policy) {
        return "clock-pro-plus".equals(policy) ? CLOCK_PRO_PLUS_GHOSTS : CLOCK_PRO_GHOSTS;
    }

    /** Ghosts kept for {@code ghostsPerFrame} x {@code frames}, rounded down, at least 1; may exceed {@link #maxGhosts}. */
    public static long ghostCapacity(int frames, double ghostsPerFrame) {
        return Math.max(1, (long) (frames * ghostsPerFrame));
    }

    /**
     * The most ghosts a clock of {@code frames} frames can keep: {@link #MAX_GHOSTS}, and the clock's
     * node arrays (one node per frame and per ghost slot, ghosts + 1 slots) within
     * {@link FrameTable#MAX_FRAMES} elements. Below 1 when the frames alone leave no room.
     */
    public static long maxGhosts(int frames) {
        return Math.min(MAX_GHOSTS, (long) FrameTable.MAX_FRAMES - frames - 1);
    }

    /** {@code pagecache.history.bits} when unset: 8 x frames rounded up to a power of two, in [64, 2^30]. */
    public static int defaultHistoryBits(int frames) {
        long wanted = Math.max(Long.SIZE, (long) HISTORY_BITS_PER_FRAME * frames);
        return (int) Math.min(MAX_HISTORY_BITS, Long.highestOneBit(wanted - 1) << 1);
    }

    /** The most {@code pagecache.history.bits} may be for {@code frames} frames: 64 x frames rounded up to a power of two, at most 2^30. */
    public static int maxHistoryBits(int frames) {
        long wanted = Math.max(Long.SIZE, (long) MAX_HISTORY_BITS_PER_FRAME * frames);
        return (int) Math.min(MAX_HISTORY_BITS, Long.highestOneBit(wanted - 1) << 1);
    }

    /** {@code pagecache.history.capacity} when unset: the frame count, at most {@link #MAX_HISTORY_CAPACITY}. */
    public static int defaultHistoryCapacity(int frames) {
        return Math.min(frames, MAX_HISTORY_CAPACITY);
    }

    /** The most {@code pagecache.history.capacity} may be for {@code frames} frames: 4 x frames, at most 2^28. */
    public static int maxHistoryCapacity(int frames) {
        return (int) Math.min(MAX_HISTORY_CAPACITY, (long) HISTORY_CAPACITY_PER_FRAME * frames);
    }
}
