package io.ratatosk.bench.sim;

import io.ratatosk.core.PageKey;
import io.ratatosk.policies.tinylfu.ShadowTinyLfuSet;

/**
 * W-TinyLFU as its paper and Caffeine's simulator describe it, the reference column
 * {@code w-tinylfu-exact}: exact LRU order in the window (1% of the entries, rounded as Caffeine's
 * simulator rounds it), probation and protected (80% of the main region), and the sketch counting
 * every request, halved every 10 x capacity counted uses. Keys only, no frames: it is the algorithm
 * the frame policy {@code w-tinylfu} approximates with clocks and hit counts deferred to its hands,
 * so the two columns side by side measure what that approximation costs. The model is
 * cache-policies' own ({@link ShadowTinyLfuSet}, the miniatures {@code w-tinylfu-adaptive} runs), not a
 * second implementation.
 */
final class ExactTinyLfuSimulator implements PolicySimulator {
    static final String NAME = "w-tinylfu-exact";
    private static final double MAIN_SHARE = 0.99;
    private static final double PROTECTED_SHARE = 0.8;
    private static final int SKETCH_PERIOD = 10;

    @Override
    public Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket) {
        int windowMax = capacity - (int) (MAIN_SHARE * capacity);
        ShadowTinyLfuSet cache = new ShadowTinyLfuSet(capacity, new int[] {windowMax}, PROTECTED_SHARE, (long) SKETCH_PERIOD * capacity);
        int[] keys = trace.keys();
        ReplayTicks ticks = new ReplayTicks(progress, timelineBucket, keys.length);
        for (int i = 0; i < keys.length; i++) {
            long key = keys[i];
            cache.access(key, PageKey.hash(key));
            if (i + 1 == ticks.next()) {
                ticks.tick(i + 1, cache.hits(0));
            }
        }
        long[] timeline = ticks.finish(keys.length, cache.hits(0));
        return new Outcome(cache.hits(0), "", timeline);
    }
}
