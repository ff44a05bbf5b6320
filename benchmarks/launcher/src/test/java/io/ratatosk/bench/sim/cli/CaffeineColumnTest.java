package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.OptSimulator;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySimulator;
import io.ratatosk.bench.sim.Trace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Caffeine peer column: found on ./bench's class path, listed before OPT, and never better than OPT. */
class CaffeineColumnTest {
    private final PolicyCatalog catalog = PolicyCatalog.standard();

    @Test
    void theStandardCatalogListsCaffeineBetweenTheCachesPoliciesAndOpt() {
        List<String> names = catalog.names();
        assertEquals("lru", names.get(0), names.toString());
        assertEquals(List.of("caffeine", "opt"), names.subList(names.size() - 2, names.size()), names.toString());
        assertInstanceOf(CaffeineSimulator.class, catalog.simulator(catalog.parse("caffeine")));
    }

    @Test
    void caffeineTakesNoFlags() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> catalog.parse("caffeine:max_usage=4"));
        assertTrue(refused.getMessage().contains("policy caffeine takes no flags"), refused.getMessage());
    }

    @Test
    void optIsNeverWorseThanCaffeine() {
        for (int seed = 0; seed < 20; seed++) {
            Trace trace = randomTrace(100 + seed, 4000, 500);
            for (int capacity : new int[] {10, 50, 200}) {
                long opt = new OptSimulator().replay(trace, capacity, PolicySimulator.Progress.NONE);
                long caffeine = new CaffeineSimulator().replay(trace, capacity, PolicySimulator.Progress.NONE);
                assertTrue(opt >= caffeine, "caffeine beat opt, seed " + seed);
            }
        }
    }

    @Test
    void caffeinesTimelineAddsUpToItsHits() {
        Trace trace = randomTrace(7, 4000, 500);
        PolicySimulator.Outcome timed = new CaffeineSimulator().run(trace, 50, PolicySimulator.Progress.NONE, 1_500);
        assertEquals(3, timed.timeline().length, "4,000 requests in buckets of 1,500");
        assertEquals(timed.hits(), timed.timeline()[0] + timed.timeline()[1] + timed.timeline()[2]);
        assertTrue(timed.hits() > 0);
    }

    /** Skewed random keys (a few hot ones), as ReferenceColumnsTest draws them. */
    private static Trace randomTrace(long seed, int requests, int keys) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] raw = new long[requests];
        for (int i = 0; i < requests; i++) {
            double u = random.nextDouble();
            raw[i] = (long) (keys * u * u * u);
        }
        return Trace.of("random-" + seed, raw);
    }
}
