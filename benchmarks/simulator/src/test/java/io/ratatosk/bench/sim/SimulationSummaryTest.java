package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationSummaryTest {
    /** A trace result of 1000 requests at one size, policies a, b and opt with these hits. */
    private static TraceResult result(String trace, long a, long b, long opt) {
        List<HitCount> hits = new ArrayList<>();
        hits.add(new HitCount("a", 10, a, 1000, 0));
        hits.add(new HitCount("b", 10, b, 1000, 0));
        hits.add(new HitCount("opt", 10, opt, 1000, 0));
        return new TraceResult(trace, "lirs", 1000, 100, List.of("a", "b", "opt"), List.of(10), List.of("10"), hits, 0);
    }

    @Test
    void geometricMeanOfHitsOverOptFloorsATotalLoss() {
        SimulationSummary s = SimulationSummary.of(List.of(result("x", 400, 0, 800), result("y", 200, 200, 800)));
        assertEquals(Math.sqrt(0.5 * 0.25), s.scores().get(0).geometricMean(), 1e-12);
        assertEquals(Math.sqrt(SimulationSummary.FLOOR * 0.25), s.scores().get(1).geometricMean(), 1e-12);
        assertEquals(1.0, s.scores().get(2).geometricMean(), 1e-12);
        assertEquals((0.5 + 0.25) / 2, s.scores().get(0).arithmeticMean(), 1e-12);
        assertEquals(0.25 / 2, s.scores().get(1).arithmeticMean(), 1e-12);
    }

    @Test
    void tracesWhereOptHitsNothingAreLeftOutOfTheMean() {
        SimulationSummary s = SimulationSummary.of(List.of(result("x", 0, 0, 0), result("y", 400, 200, 800)));
        assertEquals(1, s.scores().get(0).pairs());
        assertEquals(0.5, s.scores().get(0).geometricMean(), 1e-12);
        // every policy tied at 0 hits there and took a win: 1 pair, 2 wins
        assertEquals(1, s.scores().get(0).wins());
        assertEquals(0, s.scores().get(1).wins());
        assertEquals(List.of("y"), s.winners().stream().map(SimulationSummary.Winner::trace).toList());
    }

    /** Where OPT hit nothing on every trace, the means printed "NaN", read as a broken result; "-" as in the tables. */
    @Test
    void meansOverNoTraceAreShownAsADashWithANote() {
        String text = SimulationSummary.of(List.of(result("x", 0, 0, 0), result("y", 0, 0, 0))).render();
        assertFalse(text.contains("NaN"), text);
        assertTrue(text.lines().anyMatch(line -> line.matches("a +- +- +0 +\\d+")), text);
        assertTrue(text.contains("-: no trace and size to average over (OPT hit nothing on any)"), text);
        String some = SimulationSummary.of(List.of(result("y", 400, 200, 800))).render();
        assertFalse(some.contains("-: no trace"), some);
    }

    @Test
    void winnersLeaveOptAsideAndShareTies() {
        SimulationSummary s = SimulationSummary.of(List.of(result("x", 400, 300, 800), result("y", 200, 200, 800)));
        assertEquals(List.of("a"), s.winners().get(0).policies());
        assertEquals(List.of("a", "b"), s.winners().get(1).policies());
        assertEquals(2, s.scores().get(0).wins());
        assertEquals(1, s.scores().get(1).wins());
        assertEquals(0, s.scores().get(2).wins());
    }

    /**
     * A winner's hit % is the trace table's for the same hits: 62,845 of 100,000 is 62.84 there (rounded from the
     * double's exact binary value, as the anchors were printed; docs/simulator.md), and the winners' line said 62.85.
     */
    @Test
    void aWinnersHitPercentIsTheTablesRounding() {
        List<HitCount> hits = List.of(new HitCount("a", 10, 62_845, 100_000, 0), new HitCount("opt", 10, 70_000, 100_000, 0));
        TraceResult r = new TraceResult("x", "lirs", 100_000, 100, List.of("a", "opt"), List.of(10), List.of("10"), hits, 0);
        String table = ResultTable.render(r);
        assertTrue(table.lines().anyMatch(line -> line.matches("a +62\\.84 +89\\.8")), table);
        String text = SimulationSummary.of(List.of(r)).render();
        assertTrue(text.lines().anyMatch(line -> line.matches("x +10 +62\\.84 +a")), text);
    }
}
