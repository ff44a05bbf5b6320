package io.ratatosk.policies.clockpro;

import io.ratatosk.core.config.Flags;
import io.ratatosk.core.config.PolicySizes;
import io.ratatosk.policies.PolicySettings;

/**
 * The sizes a CLOCK-Pro clock runs with, read from the {@code pagecache.clockpro.*} flags with the
 * defaults of the policy at hand, and checked against each other.
 *
 * @param adaptive      whether the cold target moves
 * @param coldMin       lowest cold target; the fixed one when not adaptive; what a filling cache leaves cold
 * @param coldMax       highest cold target
 * @param ghostCapacity ghosts kept
 */
record ClockProSizing(boolean adaptive, int coldMin, int coldMax, int ghostCapacity) {
    static final String ADAPTIVE_FLAG = Flags.CLOCKPRO_ADAPTIVE.name();
    static final String COLD_MIN_FLAG = Flags.CLOCKPRO_COLD_MIN.name();
    static final String COLD_MAX_FLAG = Flags.CLOCKPRO_COLD_MAX.name();
    static final String GHOSTS_FLAG = Flags.CLOCKPRO_GHOSTS.name();

    /**
     * The sizes, with defaults and bounds from {@link PolicySizes}. A config that
     * {@code PageCacheConfig} parsed never fails here: it checks the same rules, naming the flags;
     * these checks guard settings that come from elsewhere (the simulator's {@link PolicySettings#of}).
     *
     * @param coldMaxShare the policy's default highest cold share (0.99 clock-pro, 0.5 clock-pro-plus)
     * @param ghostsPerFrame the policy's default ghost capacity per frame (2.0, 1.0)
     * @throws IllegalArgumentException naming the flags when the cold bounds contradict each other,
     *                                  or when the ghosts do not fit beside the frames
     */
    static ClockProSizing read(int frames, PolicySettings settings, double coldMaxShare, double ghostsPerFrame) {
        int coldMin = settings.getFrameCount(COLD_MIN_FLAG, frames, PolicySizes.defaultColdMin(frames));
        int defaultMax = PolicySizes.defaultColdMax(frames, coldMin, coldMaxShare);
        // Above frames - cold_min the hot pages could not leave the cold minimum: capped there.
        int coldMax = Math.min(settings.getFrameCount(COLD_MAX_FLAG, frames, defaultMax), PolicySizes.coldMaxCap(frames, coldMin));
        if (coldMax < coldMin) {
            throw new IllegalArgumentException(COLD_MAX_FLAG + " (" + coldMax + " frames) must be at least "
                + COLD_MIN_FLAG + " (" + coldMin + " frames)");
        }
        double ghosts = settings.getDouble(GHOSTS_FLAG, ghostsPerFrame);
        if (!(ghosts >= 0.5 && ghosts <= 4)) {
            throw new IllegalArgumentException(GHOSTS_FLAG + "=" + ghosts + " must be in [0.5, 4]");
        }
        long ghostCapacity = PolicySizes.ghostCapacity(frames, ghosts);
        if (ghostCapacity > PolicySizes.maxGhosts(frames)) {
            throw new IllegalArgumentException(GHOSTS_FLAG + "=" + ghosts + " keeps " + ghostCapacity + " ghosts beside "
                + frames + " frames; at most " + Math.max(0, PolicySizes.maxGhosts(frames)) + " fit");
        }
        return new ClockProSizing(settings.getBoolean(ADAPTIVE_FLAG, true), coldMin, coldMax, (int) ghostCapacity);
    }
}
