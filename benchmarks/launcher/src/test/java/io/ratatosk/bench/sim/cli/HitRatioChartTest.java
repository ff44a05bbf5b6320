package io.ratatosk.bench.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.bench.sim.HitCount;
import io.ratatosk.bench.sim.TraceResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class HitRatioChartTest {
    private static TraceResult trace(String name, long hits) {
        return new TraceResult(name, "lirs", 1000, 100, List.of("a"), List.of(10), List.of("10"),
            List.of(new HitCount("a", 10, hits, 1000, 0)), 0);
    }

    /**
     * Two traces of one file name in different folders ({@code lirs/x.trace.gz}, {@code cache2k/x.trace.xz}) had one
     * label, {@code x @10}, under two groups of bars: which bars were which trace's, nothing said. Such traces are
     * named whole, as --timeline-chart names their files; the others keep their short names.
     */
    @Test
    void tracesOfOneFileNameAreToldApart() {
        List<TraceResult> traces = List.of(trace("lirs/x.trace.gz", 100), trace("cache2k/x.trace.xz", 200),
            trace("lirs/cs.trace.gz", 300));
        List<?> groups = HitRatioChart.build(traces).getSeriesMap().get("a").getXData().stream().toList();
        assertEquals(List.of("lirs/x.trace.gz @10", "cache2k/x.trace.xz @10", "cs @10"), groups);
    }
}
