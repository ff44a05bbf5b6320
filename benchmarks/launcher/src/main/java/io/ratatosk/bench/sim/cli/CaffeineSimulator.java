package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.PolicySimulator;
import io.ratatosk.bench.sim.PolicySimulator.Progress;
import io.ratatosk.bench.sim.ReplayTicks;
import io.ratatosk.bench.sim.Trace;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The real Caffeine cache (W-TinyLFU) as a peer column: {@code maximumSize = capacity}, maintenance
 * run on the calling thread. A hit is {@code getIfPresent != null}; a miss puts the key. Boxing is
 * accepted here: this column measures Caffeine's policy, not our speed.
 */
final class CaffeineSimulator implements PolicySimulator {
    @Override
    public Outcome run(Trace trace, int capacity, Progress progress, int timelineBucket) {
        Cache<Integer, Integer> cache = Caffeine.newBuilder()
            .maximumSize(capacity)
            .initialCapacity(Math.min(capacity, trace.distinct()))
            .executor(Runnable::run)
            .build();
        int[] keys = trace.keys();
        ReplayTicks ticks = new ReplayTicks(progress, timelineBucket, keys.length);
        long hits = 0;
        for (int i = 0; i < keys.length; i++) {
            Integer key = keys[i];
            if (cache.getIfPresent(key) != null) {
                hits++;
            } else {
                cache.put(key, key);
            }
            if (i + 1 == ticks.next()) {
                ticks.tick(i + 1, hits);
            }
        }
        long[] timeline = ticks.finish(keys.length, hits);
        cache.cleanUp();
        if (cache.estimatedSize() > capacity) {
            throw new IllegalStateException("caffeine holds " + cache.estimatedSize() + " entries, over its maximum "
                + capacity);
        }
        return new Outcome(hits, "", timeline);
    }
}
