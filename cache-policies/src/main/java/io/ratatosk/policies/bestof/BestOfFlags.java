package io.ratatosk.policies.bestof;

import io.ratatosk.core.config.Flag;

/** The flags of best-of. */
public final class BestOfFlags {
    public static final Flag SHADOW_ENTRIES = Flag.integer("pagecache.bestof.shadow_entries", "2048", 16, 1 << 20,
            "Frames each miniature simulation of best-of holds at most; they hold a quarter of the frames (at least 256, or every frame of a smaller cache) and see the requests whose key hash falls in that share.");

    public static final Flag ADAPT_PERIOD = Flag.decimal("pagecache.bestof.adapt_period", "1.0", 0.1, 100,
            "Sampled requests between two choices of best-of's policy, as a multiple of the miniature simulations' size.");

    public static final Flag MARGIN = Flag.decimal("pagecache.bestof.margin", "0.1", 0, 1,
            "Share of the current policy's (decayed) misses another must save in best-of's miniature simulations before the frames switch to it.");

    public static final Flag MIN_GAIN = Flag.decimal("pagecache.bestof.min_gain", "0.01", 0, 1,
            "Hit ratio (share of the sampled requests) by which another policy must lead in best-of's miniature simulations, once they have seen a full window of requests, for the frames to switch to it even where that lead is under the margin of the misses.");

    public static final Flag SIGNIFICANCE = Flag.decimal("pagecache.bestof.significance", "8.0", 0, 1000,
            "How many standard errors another policy's lead over the current one in best-of's miniature simulations must reach, counted on the (decayed) requests where exactly one of the two hit, for the frames to switch to it at once (a paired sign test, checked every 16 sampled requests); 0 turns this rule off.");

    private BestOfFlags() {
    }
}
