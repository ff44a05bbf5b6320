package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;

/**
 * W-TinyLFU whose window share moves by hill climbing on the observed hit ratio, so that one policy
 * serves recency-heavy workloads (a large window: close to LRU, which wins on zigzag and back-and-forth
 * traces) and frequency-heavy ones (a small window: the sketch keeps loops, scans and one-hit wonders
 * out of the main region). After each sample of {@code climb_period} x frames requests the window
 * moves one step in the direction that last raised the hit ratio, and turns when the ratio fell; the
 * step decays by 2% a sample so the window settles, and starts again at full size when the ratio jumps
 * by 5 points (the workload changed). Source: G. Einziger, O. Eytan, R. Friedman, B. Manes, "Adaptive
 * Software Cache Management", Middleware 2018 (the simple hill climber that Caffeine ships).
 */
public final class AdaptiveTinyLfuPolicy extends TinyLfuRegions {
    public static final String NAME = "w-tinylfu-adaptive";
    static final double RESTART_THRESHOLD = 0.05;
    static final double STEP_DECAY = 0.98;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "W-TinyLFU whose admission window grows or shrinks by hill climbing on the hit ratio (Einziger, Eytan, Friedman and Manes 2018), as Caffeine does.",
        List.of(ReadFlag.of(TinyLfuFlags.WINDOW), ReadFlag.of(TinyLfuFlags.PROTECTED), ReadFlag.of(TinyLfuFlags.SKETCH_PERIOD),
            ReadFlag.of(TinyLfuFlags.CLIMB_PERIOD), ReadFlag.of(TinyLfuFlags.CLIMB_STEP)),
        AdaptiveTinyLfuPolicy::create);

    private final long samplePeriod;
    private final double fullStep;
    // Guarded by the regions' lock (called from the miss path only).
    private double step;
    private double previousHitRatio;
    /** The window target before rounding, so that steps below one frame still add up. */
    private double window;

    AdaptiveTinyLfuPolicy(FrameTable frames, TinyLfuSizing sizing, double climbPeriod, double climbStep) {
        super(NAME, frames, sizing);
        this.samplePeriod = Math.max(1, (long) (climbPeriod * frames.frameCount()));
        this.fullStep = climbStep * frames.frameCount();
        this.step = fullStep;
        this.window = sizing.window();
    }

    /** With the {@code pagecache.tinylfu.*} flags, at their defaults where unset. */
    public static AdaptiveTinyLfuPolicy create(FrameTable frames, FlagValues settings) {
        return new AdaptiveTinyLfuPolicy(frames, TinyLfuSizing.read(frames.frameCount(), settings),
            settings.getDouble(TinyLfuFlags.CLIMB_PERIOD, 1), settings.getDouble(TinyLfuFlags.CLIMB_STEP, 0.0625));
    }

    @Override
    long samplePeriod() {
        return samplePeriod;
    }

    /**
     * One hill-climbing step: keep the direction if the hit ratio did not fall, turn otherwise; a jump
     * of {@link #RESTART_THRESHOLD} restarts at the full step, anything less decays it.
     */
    @Override
    int windowAfterSample(int current, double hitRatio) {
        double change = hitRatio - previousHitRatio;
        double amount = change >= 0 ? step : -step;
        step = Math.abs(change) >= RESTART_THRESHOLD ? Math.copySign(fullStep, amount) : STEP_DECAY * amount;
        previousHitRatio = hitRatio;
        this.window = Math.max(1, Math.min(frameCount, this.window + amount));
        return (int) Math.round(this.window);
    }
}
