package io.ratatosk.policies.clockpro;

import io.ratatosk.core.config.Flags;
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
    /** The cold minimum's share of the frames, and its floor, unless set. */
    static final double DEFAULT_COLD_MIN_SHARE = 0.01;
    static final int DEFAULT_COLD_MIN_FLOOR = 2;

    /**
     * @param coldMaxShare the policy's default highest cold share (0.99 clock-pro, 0.5 clock-pro-plus)
     * @param ghostsPerFrame the policy's default ghost capacity per frame (2.0, 1.0)
     * @throws IllegalArgumentException naming the flags when the cold bounds contradict each other
     */
    static ClockProSizing read(int frames, PolicySettings settings, double coldMaxShare, double ghostsPerFrame) {
        int defaultMin = Math.min(frames, Math.max(DEFAULT_COLD_MIN_FLOOR, (int) (frames * DEFAULT_COLD_MIN_SHARE)));
        int coldMin = settings.getFrameCount(COLD_MIN_FLAG, frames, defaultMin);
        int defaultMax = Math.max(coldMin, Math.min((int) (frames * coldMaxShare), frames - coldMin));
        // Above frames - cold_min the hot pages could not leave the cold minimum: capped there.
        int coldMax = Math.min(settings.getFrameCount(COLD_MAX_FLAG, frames, defaultMax), Math.max(coldMin, frames - coldMin));
        if (coldMax < coldMin) {
            throw new IllegalArgumentException(COLD_MAX_FLAG + " (" + coldMax + " frames) must be at least "
                + COLD_MIN_FLAG + " (" + coldMin + " frames)");
        }
        double ghosts = settings.getDouble(GHOSTS_FLAG, ghostsPerFrame);
        if (!(ghosts >= 0.5 && ghosts <= 4)) {
            throw new IllegalArgumentException(GHOSTS_FLAG + "=" + ghosts + " must be in [0.5, 4]");
        }
        int ghostCapacity = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 8, (long) (frames * ghosts)));
        return new ClockProSizing(settings.getBoolean(ADAPTIVE_FLAG, true), coldMin, coldMax, ghostCapacity);
    }
}
