package io.ratatosk.pagecache.writeaware;

import org.agrona.collections.Int2IntHashMap;

/**
 * The benchmarks' access to how ARI sizes its shadow clocks and builds their id index; it lives in the
 * write-aware package (in the benchmark module) for that access alone.
 */
public final class ShadowClockAccess {
    private ShadowClockAccess() {
    }

    /** Pages per shadow clock of a cache of {@code frames} frames, as {@link AriSampler} sizes them. */
    public static int shadowFrames(int frames) {
        return Math.max(1, (int) Math.round((double) frames / AriSampler.rateFor(frames)));
    }

    /** A shadow clock's id index for {@code maxEntries} pages, as {@link ShadowClock} builds it. */
    public static Int2IntHashMap idIndex(int maxEntries) {
        return ShadowClock.idIndex(maxEntries);
    }
}
