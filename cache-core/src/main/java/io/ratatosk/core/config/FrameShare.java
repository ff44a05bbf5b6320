package io.ratatosk.core.config;

/**
 * The value of a {@link FlagKind#FRACTION_OR_COUNT} flag: either a fraction of the frames or an
 * absolute frame count. Which one the user meant is decided by the text: a decimal point makes a
 * fraction ({@code 1.0} is every frame), none makes a count ({@code 1} is one frame).
 */
public record FrameShare(double fraction, int count) {

    public static FrameShare ofFraction(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction must be in (0, 1]: " + fraction);
        }
        return new FrameShare(fraction, 0);
    }

    public static FrameShare ofCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1: " + count);
        }
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
        String text = Flag.formatDouble(fraction);
        return text.indexOf('.') >= 0 ? text : text + ".0";
    }
}
