package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.PolicySimulator;
import io.ratatosk.bench.sim.PolicySimulator.Progress;
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
    public long replay(Trace trace, int capacity, Progress progress) {
        Cache<Integer, Integer> cache = Caffeine.newBuilder()
            .maximumSize(capacity)
            .initialCapacity(Math.min(capacity, trace.distinct()))
            .executor(Runnable::run)
            .build();
        int[] keys = trace.keys();
        long hits = 0;
        for (int i = 0; i < keys.length; i++) {
            Integer key = keys[i];
            if (cache.getIfPresent(key) != null) {
                hits++;
            } else {
                cache.put(key, key);
            }
            if ((i & (PROGRESS_STEP - 1)) == PROGRESS_STEP - 1) {
                progress.advance(PROGRESS_STEP);
            }
        }
        progress.advance(keys.length & (PROGRESS_STEP - 1));
        cache.cleanUp();
        if (cache.estimatedSize() > capacity) {
            throw new IllegalStateException("caffeine holds " + cache.estimatedSize() + " entries, over its maximum "
                + capacity);
        }
        return hits;
    }
}
