package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.config.Flag;

/** The flags of w-tinylfu and w-tinylfu-adaptive. */
public final class TinyLfuFlags {
    public static final Flag WINDOW = Flag.frameShare("pagecache.tinylfu.window", null,
            "Admission window: pages that enter before the frequency filter judges them (w-tinylfu: fixed; w-tinylfu-adaptive: until the first choice).")
            .derivedDefault("1% of frames, at least 1");

    public static final Flag PROTECTED = Flag.decimal("pagecache.tinylfu.protected", "0.8", 0, 1,
            "Share of the main region kept for pages used again since they entered it (protected); the rest is probation.");

    public static final Flag SKETCH_PERIOD = Flag.decimal("pagecache.tinylfu.sketch_period", "10.0", 1, 100,
            "Uses counted by the frequency sketch between two halvings of its counters, as a multiple of the frame count.");

    public static final Flag SHADOW_ENTRIES = Flag.integer("pagecache.tinylfu.shadow_entries", "2048", 16, 1 << 20,
            "Keys each miniature simulation of w-tinylfu-adaptive holds at most; above this frame count the requests are sampled by key hash.");

    public static final Flag ADAPT_PERIOD = Flag.decimal("pagecache.tinylfu.adapt_period", "1.0", 0.1, 100,
            "Sampled requests between two choices of the window, as a multiple of the miniature simulations' size.");

    private TinyLfuFlags() {
    }
}
