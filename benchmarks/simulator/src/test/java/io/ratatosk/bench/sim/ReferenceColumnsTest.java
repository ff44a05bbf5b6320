package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Exact LRU, exact W-TinyLFU and Belady's OPT on traces small enough to check by hand or by brute force. */
class ReferenceColumnsTest {
    /** Silberschatz's reference string: with 3 frames, OPT has 9 faults, LRU 12 (of 20 requests). */
    private static final long[] TEXTBOOK = {7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1};

    private static long hits(PolicySimulator sim, Trace trace, int capacity) {
        return sim.replay(trace, capacity, PolicySimulator.Progress.NONE);
    }

    @Test
    void optHasNineFaultsOnTheTextbookBeladyExample() {
        assertEquals(20 - 9, hits(new OptSimulator(), Trace.of("textbook", TEXTBOOK), 3));
    }

    @Test
    void lruHasTwelveFaultsOnTheTextbookBeladyExample() {
        assertEquals(20 - 12, hits(new ExactLruSimulator(), Trace.of("textbook", TEXTBOOK), 3));
    }

    @Test
    void lruHitsNothingOnALoopOneLargerThanTheCacheWhileOptKeepsMost() {
        long[] loop = new long[1100];
        for (int i = 0; i < loop.length; i++) {
            loop[i] = i % 11;
        }
        Trace trace = Trace.of("loop", loop);
        assertEquals(0, hits(new ExactLruSimulator(), trace, 10));
        assertTrue(hits(new OptSimulator(), trace, 10) > 900);
    }

    @Test
    void lruKeepsTheMostRecentlyUsedKeys() {
        // 1 2 3 | 1 (hit, 2 is now oldest) | 4 evicts 2 | 1 hit, 3 hit, 2 miss
        assertEquals(3, hits(new ExactLruSimulator(), Trace.of("t", 1, 2, 3, 1, 4, 1, 3, 2), 3));
    }

    @Test
    void everythingHitsOnceResidentWhenTheCacheHoldsEveryKey() {
        Trace trace = randomTrace(3, 5000, 300);
        long expected = trace.requests() - trace.distinct();
        assertEquals(expected, hits(new ExactLruSimulator(), trace, 300));
        assertEquals(expected, hits(new OptSimulator(), trace, 300));
        assertEquals(expected, hits(new OptSimulator(), trace, 10_000));
    }

    @Test
    void optMatchesABruteForceBeladyOnRandomTraces() {
        for (int seed = 0; seed < 30; seed++) {
            Trace trace = randomTrace(seed, 600, 40);
            for (int capacity : new int[] {1, 2, 5, 17, 39}) {
                assertEquals(bruteForceOpt(trace, capacity), hits(new OptSimulator(), trace, capacity),
                    "seed " + seed + " capacity " + capacity);
            }
        }
    }

    @Test
    void optIsNeverWorseThanLru() {
        for (int seed = 0; seed < 20; seed++) {
            Trace trace = randomTrace(100 + seed, 4000, 500);
            for (int capacity : new int[] {10, 50, 200}) {
                long opt = hits(new OptSimulator(), trace, capacity);
                assertTrue(opt >= hits(new ExactLruSimulator(), trace, capacity), "lru beat opt, seed " + seed);
            }
        }
    }

    @Test
    void exactTinyLfuMissesOnlyFirstUsesWhenEveryKeyFits() {
        Trace trace = randomTrace(5, 5000, 300);
        assertEquals(trace.requests() - trace.distinct(), hits(new ExactTinyLfuSimulator(), trace, 300));
    }

    @Test
    void exactTinyLfuKeepsAHotSetThroughScansThatFlushLru() {
        // 50 hot keys, each used between bursts of 200 keys never seen again: LRU at 100 entries loses the hot
        // set to every burst, TinyLFU's admission keeps it (a scan key is used once, a hot key many times).
        List<Long> raw = new ArrayList<>();
        long scanKey = 1_000;
        for (int round = 0; round < 40; round++) {
            for (long hot = 0; hot < 50; hot++) {
                raw.add(hot);
            }
            for (int i = 0; i < 200; i++) {
                raw.add(scanKey++);
            }
        }
        Trace trace = Trace.of("hot-and-scans", raw.stream().mapToLong(Long::longValue).toArray());
        assertEquals(0, hits(new ExactLruSimulator(), trace, 100));
        long tinyLfu = hits(new ExactTinyLfuSimulator(), trace, 100);
        assertTrue(tinyLfu >= 50 * 36, "hot keys should hit from the third round or so on: " + tinyLfu);
        assertTrue(tinyLfu <= hits(new OptSimulator(), trace, 100), "beat OPT: " + tinyLfu);
    }

    @Test
    void exactTinyLfuHoldsAtMostItsCapacity() {
        // A loop one larger than the cache: whatever it keeps, at most 10 of the 11 keys are ever resident, so at
        // most 10 hits per pass after the first.
        long[] loop = new long[1100];
        for (int i = 0; i < loop.length; i++) {
            loop[i] = i % 11;
        }
        long hits = hits(new ExactTinyLfuSimulator(), Trace.of("loop", loop), 10);
        assertTrue(hits <= 99 * 10, "more hits than 10 entries allow: " + hits);
        assertTrue(hits > 0, "a loop slightly larger than a frequency-admitting cache keeps part of it");
    }

    /** Skewed random keys (a few hot ones), so that policies differ. */
    private static Trace randomTrace(long seed, int requests, int keys) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] raw = new long[requests];
        for (int i = 0; i < requests; i++) {
            double u = random.nextDouble();
            raw[i] = (long) (keys * u * u * u);
        }
        return Trace.of("random-" + seed, raw);
    }

    /** MIN by scanning every resident key's next use on each eviction: O(n * capacity * n). */
    private static long bruteForceOpt(Trace trace, int capacity) {
        int[] keys = trace.keys();
        List<Integer> resident = new ArrayList<>();
        long hits = 0;
        for (int i = 0; i < keys.length; i++) {
            if (resident.contains(keys[i])) {
                hits++;
                continue;
            }
            if (resident.size() == capacity) {
                int victim = 0;
                int farthest = -1;
                for (int r = 0; r < resident.size(); r++) {
                    int next = keys.length;
                    for (int j = i + 1; j < keys.length; j++) {
                        if (keys[j] == resident.get(r)) {
                            next = j;
                            break;
                        }
                    }
                    if (next > farthest) {
                        farthest = next;
                        victim = r;
                    }
                }
                resident.remove(victim);
            }
            resident.add(keys[i]);
        }
        return hits;
    }
}
