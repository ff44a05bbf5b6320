package io.ratatosk.policies.clockpro;

import static io.ratatosk.policies.clockpro.ClockProFlags.ADAPTIVE;
import static io.ratatosk.policies.clockpro.ClockProFlags.AUTHORS_CORRELATION;
import static io.ratatosk.policies.clockpro.ClockProFlags.COLD_MAX;
import static io.ratatosk.policies.clockpro.ClockProFlags.COLD_MIN;
import static io.ratatosk.policies.clockpro.ClockProFlags.GHOSTS;

import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicySizes;

/**
 * The sizes a CLOCK-Pro clock runs with, read from the {@code pagecache.clockpro.*} flags with the
 * defaults of the policy at hand, and checked against each other.
 *
 * @param adaptive      whether the cold target moves
 * @param coldMin       lowest cold target; the fixed one when not adaptive; what a filling cache leaves cold
 * @param coldMax       highest cold target
 * @param ghostCapacity ghosts kept
 * @param authorsCorrelation a correlated reference ends at any other page's hit (else at another page's first hit
 *                      since its reference bit was cleared)
 */
record ClockProSizing(boolean adaptive, int coldMin, int coldMax, int ghostCapacity, boolean authorsCorrelation) {
    /**
     * The sizes, with defaults and bounds from {@link PolicySizes}. Values that passed the registry's
     * rules ({@link ClockProFlags#RULES}) never fail here: these checks only guard against a caller that
     * skipped them.
     *
     * @param coldMaxShare the policy's default highest cold share (0.99 clock-pro, 0.5 clock-pro-plus)
     * @param ghostsPerFrame the policy's default ghost capacity per frame (2.0, 1.0)
     * @throws IllegalArgumentException naming the flags when the cold bounds contradict each other,
     *                                  or when the ghosts do not fit beside the frames
     */
    static ClockProSizing read(int frames, FlagValues settings, double coldMaxShare, double ghostsPerFrame) {
        int coldMin = settings.getFrameCount(COLD_MIN, frames, PolicySizes.defaultColdMin(frames));
        int defaultMax = PolicySizes.defaultColdMax(frames, coldMin, coldMaxShare);
        // Above frames - cold_min the hot pages could not leave the cold minimum: capped there.
        int coldMax = Math.min(settings.getFrameCount(COLD_MAX, frames, defaultMax), PolicySizes.coldMaxCap(frames, coldMin));
        if (coldMax < coldMin) {
            throw new IllegalArgumentException(COLD_MAX + " (" + coldMax + " frames) must be at least "
                + COLD_MIN + " (" + coldMin + " frames)");
        }
        double ghosts = settings.getDouble(GHOSTS, ghostsPerFrame);
        if (!(ghosts >= 0.5 && ghosts <= 4)) {
            throw new IllegalArgumentException(GHOSTS + "=" + ghosts + " must be in [0.5, 4]");
        }
        long ghostCapacity = PolicySizes.ghostCapacity(frames, ghosts);
        if (ghostCapacity > PolicySizes.maxGhosts(frames)) {
            throw new IllegalArgumentException(GHOSTS + "=" + ghosts + " keeps " + ghostCapacity + " ghosts beside "
                + frames + " frames; at most " + Math.max(0, PolicySizes.maxGhosts(frames)) + " fit");
        }
        return new ClockProSizing(settings.getBoolean(ADAPTIVE), coldMin, coldMax, (int) ghostCapacity,
            settings.getBoolean(AUTHORS_CORRELATION));
    }
}
