package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replay's progress in steps and its hits per timeline bucket, as every simulator's loop reports them. */
class ReplayTicksTest {
    /** Runs the loop every simulator runs over {@code requests} requests, every third one a hit. */
    private static long[] loop(int requests, int bucket, List<Long> steps) {
        ReplayTicks ticks = new ReplayTicks(steps::add, bucket, requests);
        long hits = 0;
        for (int i = 0; i < requests; i++) {
            if (i % 3 == 0) {
                hits++;
            }
            if (i + 1 == ticks.next()) {
                ticks.tick(i + 1, hits);
            }
        }
        return ticks.finish(requests, hits);
    }

    @Test
    void progressComesInStepsAndAddsUpToTheRequests() {
        List<Long> steps = new ArrayList<>();
        int requests = 2 * PolicySimulator.PROGRESS_STEP + 5;
        assertNull(loop(requests, 0, steps), "no timeline asked for");
        assertEquals(List.of((long) PolicySimulator.PROGRESS_STEP, (long) PolicySimulator.PROGRESS_STEP, 5L), steps);
    }

    @Test
    void bucketsCountTheirOwnHitsAndTheLastOneTheRest() {
        List<Long> steps = new ArrayList<>();
        long[] timeline = loop(10, 4, steps);
        // Hits at requests 0, 3, 6, 9: buckets [0..3], [4..7], [8..9].
        assertArrayEquals(new long[] {2, 1, 1}, timeline);
        assertEquals(List.of(10L), steps);
        assertArrayEquals(new long[] {1, 1, 1, 1}, loop(12, 3, new ArrayList<>()), "buckets that divide the requests");
        assertArrayEquals(new long[] {4}, loop(10, 100, new ArrayList<>()), "one bucket larger than the trace");
    }

    @Test
    void bucketsAcrossProgressStepsAddUpToTheHits() {
        int requests = 3 * PolicySimulator.PROGRESS_STEP + 17;
        long[] timeline = loop(requests, 10_000, new ArrayList<>());
        assertEquals((requests + 9_999) / 10_000, timeline.length);
        long sum = 0;
        for (long bucket : timeline) {
            sum += bucket;
        }
        assertEquals((requests + 2) / 3, sum);
    }

    @Test
    void aNegativeBucketIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReplayTicks(PolicySimulator.Progress.NONE, -1, 10));
    }

    /**
     * Every simulator the catalog builds counts the same hits with a timeline as without (random aside), and its
     * buckets add up to them.
     */
    @Test
    void everySimulatorsTimelineAddsUpToItsHits() {
        PolicyCatalog catalog = PolicyCatalog.standard();
        long[] keys = new long[20_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (i * 2_654_435_761L) % 997 % (i % 5 == 0 ? 997 : 120);
        }
        Trace trace = Trace.of("mix", keys);
        for (String name : catalog.names()) {
            if (name.equals("caffeine")) {
                continue; // the launcher's column: CaffeineColumnTest
            }
            PolicySimulator simulator = catalog.simulator(catalog.parse(name));
            long plain = simulator.replay(trace, 64, PolicySimulator.Progress.NONE);
            PolicySimulator.Outcome timed = simulator.run(trace, 64, PolicySimulator.Progress.NONE, 3_000);
            if (!name.equals("random")) { // a new random seed each run
                assertEquals(plain, timed.hits(), name);
            }
            assertEquals(7, timed.timeline().length, name);
            long sum = 0;
            for (long bucket : timed.timeline()) {
                sum += bucket;
            }
            assertEquals(timed.hits(), sum, name);
        }
    }
}
