package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.config.FlagValues;

/**
 * The sizes a W-TinyLFU policy starts with, from the {@code pagecache.tinylfu.*} flags.
 *
 * @param window         window target in frames, in [1, frames]
 * @param protectedShare share of the main region for protected pages
 * @param sketchPeriod   sketch increments between halvings
 */
record TinyLfuSizing(int window, double protectedShare, long sketchPeriod) {
    /** The default window: 1% of the frames rounded up, at least 1. */
    static int defaultWindow(int frames) {
        return Math.max(1, (int) Math.ceil(frames * 0.01));
    }

    static TinyLfuSizing read(int frames, FlagValues settings) {
        int window = Math.max(1, Math.min(frames, settings.getFrameCount(TinyLfuFlags.WINDOW, frames, defaultWindow(frames))));
        double protectedShare = settings.getDouble(TinyLfuFlags.PROTECTED);
        long sketchPeriod = Math.max(1, (long) (settings.getDouble(TinyLfuFlags.SKETCH_PERIOD) * frames));
        return new TinyLfuSizing(window, protectedShare, sketchPeriod);
    }
}
