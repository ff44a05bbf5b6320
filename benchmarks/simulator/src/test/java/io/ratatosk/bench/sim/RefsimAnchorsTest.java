package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.policies.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The simulator reproduces {@code anchors/refsim-public.txt} to the last digit shown: LRU, CLOCK,
 * MUNINN4 (as muninn and as global-clock:max_usage=4), MUNINN7 and OPT. The LIRS traces run in
 * every build, from the repository's copy ({@link TestData}); the large ARC, cloudphysics and cache2k
 * ones only with {@code -Dratatosk.sim.bigAnchors=true} and the shared folder (see docs/simulator.md),
 * skipped naming the first trace missing.
 */
class RefsimAnchorsTest {

    @Test
    void pageCachePoliciesReproduceTheLirsAnchors() throws Exception {
        PolicyCatalog catalog = PolicyCatalog.standard();
        List<String> missing = missingColumns(catalog);
        List<String> mismatches = compare(catalog, true);
        assertEquals(List.of(), mismatches, "hit % that differ from refsim-public.txt");
        assumeTrue(missing.isEmpty(), "cache-policies does not provide " + missing + " yet; only their columns were skipped");
    }

    @Test
    void referenceClockThroughTheSpiDriverReproducesTheLirsAnchors() throws Exception {
        assertEquals(List.of(), compare(ReferenceClockProvider.catalog(), true), "hit % that differ from refsim-public.txt");
    }

    @Test
    @EnabledIfSystemProperty(named = "ratatosk.sim.bigAnchors", matches = "true", disabledReason = "runs with"
        + " -Dratatosk.sim.bigAnchors=true and wants the large ARC, cloudphysics and cache2k traces of ../shared/traces"
        + " (docs/simulator.md)")
    void pageCachePoliciesReproduceTheLargeTraceAnchors() throws Exception {
        PolicyCatalog catalog = PolicyCatalog.standard();
        assertEquals(List.of(), missingColumns(catalog), "policies cache-policies does not provide");
        assertEquals(List.of(), compare(catalog, false), "hit % that differ from refsim-public.txt");
    }

    private static List<String> missingColumns(PolicyCatalog catalog) {
        List<String> missing = new ArrayList<>();
        for (List<String> policies : RefsimAnchors.COLUMNS.values()) {
            for (String p : policies) {
                String name = p.contains(":") ? p.substring(0, p.indexOf(':')) : p;
                if (!catalog.names().contains(name)) {
                    missing.add(name);
                }
            }
        }
        return missing;
    }

    /** Every anchor cell whose policy the catalog has, on the LIRS traces or on the others. */
    private static List<String> compare(PolicyCatalog catalog, boolean lirs) throws IOException, InterruptedException {
        RefsimAnchors anchors = RefsimAnchors.parse(TestData.require("anchors/refsim-public.txt"));
        List<String> mismatches = new ArrayList<>();
        int compared = 0;
        for (RefsimAnchors.TraceAnchor anchor : anchors.traces()) {
            if (anchor.file().endsWith(".trace.gz") != lirs) {
                continue;
            }
            Trace trace = TraceReader.read(TestData.requireTrace(anchor.file()));
            if (trace.requests() != anchor.requests() || trace.distinct() != anchor.distinct()) {
                mismatches.add(anchor.file() + ": requests/distinct " + trace.requests() + "/" + trace.distinct()
                    + ", expected " + anchor.requests() + "/" + anchor.distinct());
                continue;
            }
            for (Map.Entry<Integer, Map<String, String>> size : anchor.percentBySize().entrySet()) {
                for (Map.Entry<String, String> column : size.getValue().entrySet()) {
                    for (String policy : RefsimAnchors.COLUMNS.get(column.getKey())) {
                        String name = policy.contains(":") ? policy.substring(0, policy.indexOf(':')) : policy;
                        if (!catalog.names().contains(name)) {
                            continue;
                        }
                        long hits = catalog.simulator(catalog.parse(policy))
                            .replay(trace, size.getKey(), PolicySimulator.Progress.NONE);
                        String percent = HitCount.percent(hits, trace.requests());
                        compared++;
                        if (!percent.equals(column.getValue())) {
                            mismatches.add(anchor.file() + " size " + size.getKey() + " " + policy + ": " + percent
                                + ", expected " + column.getValue() + " (" + column.getKey() + ")");
                        }
                    }
                }
            }
        }
        assumeTrue(compared > 0, "no anchor column to compare");
        return mismatches;
    }
}
