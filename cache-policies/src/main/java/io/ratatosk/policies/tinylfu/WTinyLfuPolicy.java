package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;

/**
 * W-TinyLFU with a fixed window: a small admission window (1% of the frames), a segmented main
 * region (probation and protected, 80% of it), and a count-min sketch of 4-bit counters that admits
 * the window's oldest page to the main region only if it was used more often than the main region's
 * victim. The window lets bursts of new pages prove themselves; the filter keeps one-hit wonders and
 * scans out of the main region. Source: G. Einziger, R. Friedman, B. Manes, "TinyLFU: A Highly
 * Efficient Cache Admission Policy", ACM Transactions on Storage 13(4), 2017.
 */
public final class WTinyLfuPolicy extends TinyLfuRegions {
    public static final String NAME = "w-tinylfu";
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "W-TinyLFU (Einziger, Friedman and Manes 2017): a 1% admission window, a segmented main region, a count-min sketch admitting the window's oldest page against the main region's victim.",
        List.of(ReadFlag.of(TinyLfuFlags.WINDOW), ReadFlag.of(TinyLfuFlags.PROTECTED), ReadFlag.of(TinyLfuFlags.SKETCH_PERIOD)),
        WTinyLfuPolicy::create);

    WTinyLfuPolicy(FrameTable frames, TinyLfuSizing sizing) {
        super(NAME, frames, sizing, false);
    }

    /** With the {@code pagecache.tinylfu.*} flags, at their defaults where unset. */
    public static WTinyLfuPolicy create(FrameTable frames, FlagValues settings) {
        return new WTinyLfuPolicy(frames, TinyLfuSizing.read(frames.frameCount(), settings));
    }

    @Override
    long faultBits(long hash) {
        return 0;
    }

    @Override
    void afterHit(int frame) {
    }

    @Override
    int windowAfterFault(long pageKey, long hash, int window) {
        return window;
    }
}
