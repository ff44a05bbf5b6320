package io.ratatosk.bench.ldbc.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link LdbcRun#checkFlags}: the early check of the flags, before the cache's size is known. */
class LdbcRunFlagsTest {
    private static final PolicyCatalog CATALOG = PolicyCatalog.standard();

    /** The stand-in size the early check parses at, as the page cache writes it: no size the user gave. */
    private static final String STAND_IN = "pagecache.memory=549755813888";

    /**
     * A flag refused for the stand-in size's frame count was refused by the early check naming that size ("must be less
     * than the frame count, 67108864 (pagecache.memory=549755813888 / ...)", "cold_min=0.5 (33554432 frames)"), which the
     * user never gave, and the run's own check, after loading, named it again; it is refused at the size of the cache
     * that cannot hold it.
     */
    @Test
    void aFrameCountTooLargeIsRefusedNamingTheCachesSizeNotTheStandIn() {
        List<Map.Entry<Map<String, String>, PolicySpec>> cases = List.of(
            Map.entry(Map.of("pagecache.evictor.keep_free", "100000000"), CATALOG.parse("clock")),
            Map.entry(Map.of(), CATALOG.parse("clock-pro:cold_max=100000000")),
            Map.entry(Map.of(), CATALOG.parse("clock-pro:cold_min=100:cold_max=0.5")));
        for (Map.Entry<Map<String, String>, PolicySpec> c : cases) {
            int pageSize = LdbcRun.checkFlags(c.getKey(), Map.of(), List.of(c.getValue()), false);
            assertEquals(8192, pageSize);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LdbcRun.checkSizes(
                c.getKey(), List.of(c.getValue()), CacheSpec.parseList(List.of("1m")), pageSize));
            assertTrue(refused.getMessage().startsWith(c.getValue().text() + " @ 1m: "), refused.getMessage());
            assertTrue(refused.getMessage().contains("pagecache.memory=1048576"), refused.getMessage());
            // a share of the store, once the store's size is known: named at that size too
            LdbcRun run = new LdbcRun(new LdbcRun.Settings(null, null, 1, null, null, 42, false, c.getKey(), Map.of(),
                List.of()), null);
            refused = assertThrows(IllegalArgumentException.class, () -> run.checkRuns(List.of(c.getValue()),
                CacheSpec.parseList(List.of("10%")), 10L << 20));
            assertTrue(refused.getMessage().startsWith(c.getValue().text() + " @ 10%: "), refused.getMessage());
            assertFalse(refused.getMessage().contains(STAND_IN), refused.getMessage());
        }
    }

    /**
     * What no cache size holds (cold_min above cold_max as fractions; a cold_max below cold_min's default of 1%) was left
     * to the real size with what depends on it, so with a share of the store (the default --cache 10%) it was refused only
     * after minutes of generating and loading. It is refused early, naming the flags as given, not the stand-in; what
     * holds at some sizes still waits (cold_max=3000: too many frames below 3000, fewer than cold_min's 1% above 300000).
     */
    @Test
    void whatNoSizeHoldsIsRefusedEarly() {
        for (String policy : List.of("clock-pro:cold_min=0.5:cold_max=0.1", "clock-pro:cold_max=0.001")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LdbcRun.checkFlags(
                Map.of(), Map.of(), List.of(CATALOG.parse(policy)), false), policy);
            assertTrue(refused.getMessage().startsWith("--policies " + policy + ": pagecache.clockpro.cold_m"),
                refused.getMessage());
            assertTrue(refused.getMessage().contains("at every cache size"), refused.getMessage());
            assertFalse(refused.getMessage().contains(STAND_IN), refused.getMessage());
        }
        assertEquals(8192, LdbcRun.checkFlags(Map.of(), Map.of(), List.of(CATALOG.parse("clock-pro:cold_max=3000")), false));
    }

    /**
     * A page size below the store's was refused after the parse at the stand-in, whose frame count at 1k (536870912) is
     * too many for clock-pro's default ghosts: that refusal, of a flag the user did not set and so could not be left out,
     * was said instead, naming the stand-in. The page size's own refusal is said.
     */
    @Test
    void aSmallPageSizeIsRefusedBeforeTheStandInsFrameCount() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LdbcRun.checkFlags(
            Map.of("pagecache.page_size", "1k"), Map.of(), List.of(CATALOG.parse("clock-pro")), false));
        assertTrue(refused.getMessage().startsWith("pagecache.page_size=1k: the store's pages are 8192 bytes"),
            refused.getMessage());
        assertFalse(refused.getMessage().contains(STAND_IN), refused.getMessage());
    }

    /** Beside a refusal of the stand-in's frame count, another flag's refusal is said, and only it. */
    @Test
    void anotherFlagsRefusalIsSaidWithoutTheStandInSize() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LdbcRun.checkFlags(
            Map.of("pagecache.evictor.keep_free", "100000000", "pagecache.evictor.enabled", "maybe"), Map.of(),
            List.of(CATALOG.parse("clock")), false));
        assertTrue(refused.getMessage().contains("pagecache.evictor.enabled=maybe"), refused.getMessage());
        assertFalse(refused.getMessage().contains(STAND_IN), refused.getMessage());
    }
}
