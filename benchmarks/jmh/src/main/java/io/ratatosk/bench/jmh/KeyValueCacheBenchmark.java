package io.ratatosk.bench.jmh;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.ratatosk.policies.deferredlru.DeferredLruCache;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * DeferredLRU as a key-value memoization cache ({@link DeferredLruCache}) against Caffeine on the same
 * workload: {@value #CAPACITY} entries, Zipf keys over four times as many, pre-boxed so neither side
 * pays for boxing. {@code getOrCompute}: the memoization call (compute on a miss, then cached);
 * {@code get}: a plain lookup. Caffeine runs with its defaults (maintenance on the common pool), as
 * an application would use it. {@code computes} counts misses per iteration, so the hit ratio is
 * {@code 1 - computes / ops}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class KeyValueCacheBenchmark {
    static final String CAFFEINE = "caffeine";
    static final int CAPACITY = 1 << 16;
    static final long KEYS = CAPACITY * 4L;
    private static final int KEYS_PER_THREAD = PageIds.LENGTH; // 2^20 draws: the stream must miss, not cycle through keys that all fit

    @Param({CacheSide.RATATOSK, CAFFEINE})
    public String side;

    KeyValueCache cache;

    /** The two caches behind one interface; each fork loads one side, so calls stay monomorphic. */
    interface KeyValueCache {
        Long get(Long key);

        Long getOrCompute(Long key, Function<Long, Long> compute);
    }

    @Setup(Level.Trial)
    public void open() {
        if (CacheSide.RATATOSK.equals(side)) {
            DeferredLruCache<Long, Long> deferred = new DeferredLruCache<>(CAPACITY);
            cache = new KeyValueCache() {
                @Override
                public Long get(Long key) {
                    return deferred.get(key);
                }

                @Override
                public Long getOrCompute(Long key, Function<Long, Long> compute) {
                    return deferred.computeIfAbsent(key, compute);
                }
            };
        } else if (CAFFEINE.equals(side)) {
            Cache<Long, Long> caffeine = Caffeine.newBuilder().maximumSize(CAPACITY).build();
            cache = new KeyValueCache() {
                @Override
                public Long get(Long key) {
                    return caffeine.getIfPresent(key);
                }

                @Override
                public Long getOrCompute(Long key, Function<Long, Long> compute) {
                    return caffeine.get(key, compute);
                }
            };
        } else {
            throw new IllegalArgumentException("side must be " + CacheSide.RATATOSK + " or " + CAFFEINE + ": side=" + side);
        }
        PageIds warm = PageIds.of(PageIds.ZIPF, KEYS, 1_000);
        for (int i = 0; i < CAPACITY * 4; i++) {
            long k = warm.next();
            cache.getOrCompute(k, key -> key * 31);
        }
    }

    @Benchmark
    public Long getOrCompute(Keys keys) {
        return cache.getOrCompute(keys.next(), keys.compute);
    }

    @Benchmark
    public Long get(Keys keys) {
        return cache.get(keys.next());
    }

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Keys {
        /** Values computed (misses of getOrCompute) in the iteration. */
        public long computes;
        private Long[] keys;
        private int next;
        final Function<Long, Long> compute = key -> {
            computes++;
            return key * 31;
        };

        @Setup(Level.Trial)
        public void open(ThreadParams thread) {
            PageIds ids = PageIds.of(PageIds.ZIPF, KEYS, thread.getThreadIndex());
            keys = new Long[KEYS_PER_THREAD];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = ids.next();
            }
        }

        @Setup(Level.Iteration)
        public void startIteration() {
            computes = 0;
        }

        Long next() {
            Long k = keys[next];
            next = (next + 1) & (KEYS_PER_THREAD - 1);
            return k;
        }

        @TearDown(Level.Trial)
        public void close() {
            keys = null;
        }
    }
}
