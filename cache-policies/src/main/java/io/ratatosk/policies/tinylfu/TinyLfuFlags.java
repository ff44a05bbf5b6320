package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.config.Flag;

/** The flags of w-tinylfu and w-tinylfu-adaptive. */
public final class TinyLfuFlags {
    public static final Flag WINDOW = Flag.frameShare("pagecache.tinylfu.window", null,
            "Admission window: pages that enter before the frequency filter judges them (w-tinylfu: fixed; w-tinylfu-adaptive: where the hill climber starts).")
            .derivedDefault("1% of frames, at least 1");

    public static final Flag PROTECTED = Flag.decimal("pagecache.tinylfu.protected", "0.8", 0, 1,
            "Share of the main region kept for pages used again since they entered it (protected); the rest is probation.");

    public static final Flag SKETCH_PERIOD = Flag.decimal("pagecache.tinylfu.sketch_period", "10", 1, 100,
            "Uses counted by the frequency sketch between two halvings of its counters, as a multiple of the frame count.");

    public static final Flag CLIMB_PERIOD = Flag.decimal("pagecache.tinylfu.climb_period", "1", 0.1, 100,
            "Requests per hill-climbing sample, as a multiple of the frame count: after each, the window moves by a step.");

    public static final Flag CLIMB_STEP = Flag.decimal("pagecache.tinylfu.climb_step", "0.0625", 0.001, 0.5,
            "First step of the hill climber, as a share of the frames; it decays by 2% a sample and restarts on a jump of the hit ratio.");

    private TinyLfuFlags() {
    }
}
