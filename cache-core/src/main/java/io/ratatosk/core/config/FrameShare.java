package io.ratatosk.core.config;

/**
 * The value of a {@link FlagKind#FRACTION_OR_COUNT} flag: either a fraction of the frames or an
 * absolute frame count. Which one the user meant is decided by the text: a decimal point makes a
 * fraction ({@code 1.0} is every frame), none makes a count ({@code 1} is one frame).
 */
public record FrameShare(double fraction, int count) {

    /** Exactly one of the two: a fraction in (0, 1] with count 0, or a count >= 1 with fraction 0. */
    public FrameShare {
        boolean isFraction = fraction > 0 && fraction <= 1 && count == 0;
        boolean isCount = fraction == 0 && count >= 1;
        if (!isFraction && !isCount) {
            throw new IllegalArgumentException("a frame share is a fraction in (0, 1] or a count >= 1: fraction=" + fraction + ", count=" + count);
        }
    }

    public static FrameShare ofFraction(double fraction) {
        return new FrameShare(fraction, 0);
    }

    public static FrameShare ofCount(int count) {
        return new FrameShare(0, count);
    }

    public boolean isFraction() {
        return count == 0;
    }

    /** The number of frames this share stands for in a cache of {@code frames} frames: at least 1, at most {@code frames}. */
    public int of(int frames) {
        long n = isFraction() ? Math.round(fraction * frames) : count;
        return (int) Math.max(1, Math.min(n, frames));
    }

    /** The normalised text: the count, or the fraction with a decimal point ({@code 0.1}, {@code 1.0}). */
    @Override
    public String toString() {
        if (!isFraction()) {
            return Integer.toString(count);
        }
        return Flag.formatDouble(fraction);
    }
}
