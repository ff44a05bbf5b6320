package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class PolicyCatalogTest {
    private final PolicyCatalog catalog = PolicyCatalog.standard();

    private static IllegalArgumentException refused(Executable e, String... fragments) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(x.getMessage().contains(f), () -> "message lacks '" + f + "': " + x.getMessage());
        }
        return x;
    }

    @Test
    void listsItsOwnColumnsAndEveryPolicyOfTheCache() {
        List<String> names = catalog.names();
        assertTrue(names.containsAll(List.of("lru", "w-tinylfu-exact", "opt")), names.toString());
        assertTrue(names.containsAll(PolicyRegistry.NAMES), names.toString());
    }

    @Test
    void defaultNamesTheDefaultPolicyUnderItsRealName() {
        PolicySpec spec = catalog.parse("default");
        assertEquals(PolicyRegistry.DEFAULT_POLICY, spec.name());
        assertEquals(PolicyRegistry.DEFAULT_POLICY, spec.text());
        PolicySpec withFlag = catalog.parse("default:margin=0.05");
        assertEquals(PolicyRegistry.DEFAULT_POLICY + ":margin=0.05", withFlag.text());
        assertEquals(Map.of("pagecache.bestof.margin", "0.05"), withFlag.flags());
        assertEquals(Map.of("pagecache.clock.max_usage", "7"), catalog.parse("best-of:max_usage=7").flags(),
            "best-of takes the flags its experts read");
    }

    /** "default:bogus=1" was refused as "unknown flag 'bogus' for policy best-of": a name the user never typed. */
    @Test
    void aBadDefaultSpecIsRefusedInTheUsersOwnWords() {
        refused(() -> catalog.parse("default:bogus=1"), "'default:bogus=1' (" + PolicyRegistry.DEFAULT_ALIAS + " is "
            + PolicyRegistry.DEFAULT_POLICY + "): unknown flag 'bogus'");
        refused(() -> catalog.parsePageCachePolicy(" default:margin"), "'default:margin' (", "is not key=value");
        refused(() -> catalog.parse("best-of:bogus=1"), "unknown flag 'bogus' for policy best-of");
    }

    @Test
    void defaultComesFirstInAListAndARepeatOfItIsDropped() {
        List<String> texts = catalog.parseList("--policies", "lru,clock-pro, default ," + PolicyRegistry.DEFAULT_POLICY)
            .stream().map(PolicySpec::text).toList();
        assertEquals(List.of(PolicyRegistry.DEFAULT_POLICY, "lru", "clock-pro"), texts);
    }

    /** Written differently, one policy ran as two columns, each taking the other's wins. */
    @Test
    void aRepeatWrittenDifferentlyIsDropped() {
        List<String> texts = catalog.parseList("--policies", "global-clock:max_usage=4,global-clock:max_usage=04,"
            + "global-clock:clock.max_usage=4, global-clock: max_usage = 4 ,global-clock:max_usage=5").stream()
            .map(PolicySpec::text).toList();
        assertEquals(List.of("global-clock:max_usage=4", "global-clock:max_usage=5"), texts);
        // a flag at the policy's own default is the policy as it is: muninn counts to 4, global-clock to 7
        assertEquals(List.of("muninn", "global-clock", "global-clock:max_usage=4"), catalog.parseList("--policies",
            "muninn,muninn:max_usage=4,global-clock,global-clock:max_usage=7,global-clock:max_usage=4").stream()
            .map(PolicySpec::text).toList());
    }

    /**
     * best-of's s3-fifo expert moves a page to the main FIFO after one hit unless move_threshold is set, where s3-fifo
     * alone takes two: best-of's entry declared s3-fifo's default, 2, so best-of:move_threshold=2, which runs otherwise,
     * was dropped as a repeat of best-of, while best-of:move_threshold=1, which runs the same, was kept.
     */
    @Test
    void aRepeatOfBestOfIsJudgedByTheMoveThresholdItsExpertRunsWith() {
        assertEquals(List.of("best-of", "best-of:move_threshold=2"), catalog.parseList("--policies",
            "best-of,best-of:move_threshold=2,best-of:move_threshold=1").stream().map(PolicySpec::text).toList());
        assertEquals(List.of("s3-fifo", "s3-fifo:move_threshold=1"), catalog.parseList("--policies",
            "s3-fifo,s3-fifo:move_threshold=2,s3-fifo:move_threshold=1").stream().map(PolicySpec::text).toList());
    }

    /**
     * best-of's miniature of w-tinylfu-adaptive runs its window simulations in a quarter of the miniature's frames (at
     * least 256) unless tinylfu.shadow_entries is set, not in w-tinylfu-adaptive's own 2048: best-of's entry declared
     * 2048, so best-of:tinylfu.shadow_entries=2048, whose miniature simulates every key it sees (a miniature over 256
     * frames: caches of 1,024 frames and more), was dropped as a repeat of best-of.
     */
    @Test
    void aRepeatOfBestOfIsJudgedByTheShadowEntriesItsMiniatureRunsWith() {
        assertEquals(List.of("best-of", "best-of:tinylfu.shadow_entries=2048"), catalog.parseList("--policies",
            "best-of,best-of:tinylfu.shadow_entries=2048").stream().map(PolicySpec::text).toList());
        assertEquals(List.of("w-tinylfu-adaptive"), catalog.parseList("--policies",
            "w-tinylfu-adaptive,w-tinylfu-adaptive:tinylfu.shadow_entries=2048").stream().map(PolicySpec::text).toList());
    }

    /** A blank list (a script's unset variable) ran every policy, where "," was refused. */
    @Test
    void aBlankListIsRefused() {
        for (String blank : new String[] {"", " ", ","}) {
            refused(() -> catalog.parseList("--policies", blank), "--policies names no policy: '" + blank + "'; leave it out");
        }
    }

    @Test
    void defaultListIsEveryPolicyAndTheReferenceColumnsButTheExactTinyLfu() {
        List<String> expected = new ArrayList<>(catalog.names());
        expected.remove("w-tinylfu-exact");
        assertEquals(expected, catalog.parseList("--policies", null).stream().map(PolicySpec::text).toList());
        assertEquals(List.of("w-tinylfu-exact"), catalog.parseList("--policies", "w-tinylfu-exact").stream()
            .map(PolicySpec::text).toList(), "named, it runs");
    }

    @Test
    void unknownPolicyIsRefusedWithTheListOfValidOnes() {
        String[] expected = catalog.names().toArray(new String[0]);
        refused(() -> catalog.parse("lfu"), expected);
        refused(() -> catalog.parseList("--policies", "lru,lfu:max_usage=3"), "lfu");
        refused(() -> catalog.parse("clockpro"), "unknown policy 'clockpro' (did you mean 'clock-pro'?); valid policies: ");
        refused(() -> catalog.parse("w-tinylfu-adaptve:window=0.01"), "did you mean 'w-tinylfu-adaptive'?");
        assertFalse(assertThrows(IllegalArgumentException.class, () -> catalog.parse("nothing-like-it")).getMessage()
            .contains("did you mean"));
    }

    @Test
    void shortOverrideResolvesToTheFlagEndingInIt() {
        PolicySpec spec = catalog.parse("global-clock:max_usage=4");
        assertEquals("global-clock:max_usage=4", spec.text());
        assertEquals("global-clock", spec.name());
        assertEquals(Map.of("pagecache.clock.max_usage", "4"), spec.flags());
    }

    @Test
    void severalOverridesAndFullFlagNamesAreAccepted() {
        PolicySpec spec = catalog.parse("global-clock:max_usage=7:pagecache.clock.fault_usage=2:evict_threshold=0");
        assertEquals(Map.of("pagecache.clock.max_usage", "7", "pagecache.clock.fault_usage", "2",
            "pagecache.clock.evict_threshold", "0"), spec.flags());
    }

    @Test
    void unknownShortKeyIsRefusedListingThePolicysFlags() {
        refused(() -> catalog.parse("global-clock:hand=2"), "hand", "pagecache.clock.max_usage",
            "pagecache.clock.fault_usage", "pagecache.clock.evict_threshold");
        refused(() -> catalog.parse("muninn:fault_usage=2"), "fault_usage", "pagecache.clock.max_usage");
    }

    @Test
    void ambiguousShortKeyIsRefusedListingTheCandidates() {
        PolicyFlags flags = new PolicyFlags(List.of("pagecache.clockpro.cold_max", "pagecache.history.cold_max"));
        refused(() -> flags.resolve("future-policy", "cold_max"), "ambiguous", "pagecache.clockpro.cold_max",
            "pagecache.history.cold_max");
    }

    @Test
    void outOfRangeValueIsRefusedNamingTheFlag() {
        refused(() -> catalog.parse("global-clock:max_usage=9"), "pagecache.clock.max_usage", "9");
    }

    @Test
    void policiesWithoutFlagsAndOwnColumnsRefuseOverrides() {
        refused(() -> catalog.parse("clock:max_usage=2"), "clock", "no flags");
        refused(() -> catalog.parse("opt:max_usage=2"), "opt", "no flags");
    }

    @Test
    void malformedOverrideIsRefused() {
        refused(() -> catalog.parse("global-clock:max_usage"), "key=value");
        refused(() -> catalog.parse("global-clock:max_usage=4:max_usage=5"), "twice");
    }

    @Test
    void overridesReachThePolicy() {
        Trace trace = Trace.of("t", 1, 2, 1, 3, 1, 4, 2, 5, 1, 2, 3, 4, 5, 1, 1, 2, 6, 7, 1, 2);
        long clock7 = catalog.simulator(catalog.parse("global-clock")).replay(trace, 3, PolicySimulator.Progress.NONE);
        long explicit7 = catalog.simulator(catalog.parse("global-clock:max_usage=7"))
            .replay(trace, 3, PolicySimulator.Progress.NONE);
        long muninn = catalog.simulator(catalog.parse("muninn")).replay(trace, 3, PolicySimulator.Progress.NONE);
        long clock4 = catalog.simulator(catalog.parse("global-clock:max_usage=4"))
            .replay(trace, 3, PolicySimulator.Progress.NONE);
        assertEquals(clock7, explicit7);
        assertEquals(muninn, clock4);
    }

    @Test
    void aRunReportsWhatThePolicySaysOfItsStateAndTheTableShowsIt() {
        Trace trace = Trace.of("t", 1, 2, 1, 3, 1, 4, 2, 5, 1, 2, 3, 4, 5, 1, 1, 2, 6, 7, 1, 2);
        PolicySimulator.Outcome bestOf = catalog.simulator(catalog.parse("best-of")).run(trace, 3, PolicySimulator.Progress.NONE);
        assertEquals(catalog.simulator(catalog.parse("best-of")).replay(trace, 3, PolicySimulator.Progress.NONE), bestOf.hits());
        assertTrue(bestOf.state().matches("following [a-z0-9-]+, \\d+ switch(es)?, \\d+ sampled requests simulated"
            + "(; miniatures' hit ratios: clock-pro [\\d.]+%, muninn [\\d.]+%, w-tinylfu-adaptive [\\d.]+%, s3-fifo [\\d.]+%)?"),
            bestOf.state());
        assertEquals("", catalog.simulator(catalog.parse("muninn")).run(trace, 3, PolicySimulator.Progress.NONE).state(),
            "a policy with nothing to say says nothing");
        assertEquals("", catalog.simulator(catalog.parse("lru")).run(trace, 3, PolicySimulator.Progress.NONE).state());

        TraceResult result = new TraceResult("t", "lirs", trace.requests(), trace.distinct(), List.of("best-of", "muninn"),
            List.of(3), List.of("3"), List.of(new HitCount("best-of", 3, bestOf.hits(), trace.requests(), 0, bestOf.state()),
            new HitCount("muninn", 3, 1, trace.requests(), 0)), 0);
        String table = ResultTable.render(result);
        assertTrue(table.contains("best-of @ 3: " + bestOf.state()), table);
        assertTrue(!table.contains("muninn @"), table);
    }
}
