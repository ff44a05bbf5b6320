package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTableTest {
    /**
     * A bucket's hit % is rounded as the trace's table rounds hits: with --timeline at least the trace's length (one
     * bucket, the whole run) the timeline said 62.85 under a table that said 62.84 for the same 62,845 hits of 100,000.
     * The last, shorter bucket's is over its own requests.
     */
    @Test
    void aBucketsHitPercentIsRoundedAsTheTablesIs() {
        HitCount whole = new HitCount("a", 10, 62_845, 100_000, 0, "", new long[] {62_845}, 200_000);
        TraceResult r = new TraceResult("x", "lirs", 100_000, 100, List.of("a"), List.of(10), List.of("10"), List.of(whole), 0);
        assertTrue(ResultTable.render(r).lines().anyMatch(line -> line.matches("a +62\\.84")), ResultTable.render(r));
        String timeline = TimelineTable.render(r);
        assertTrue(timeline.lines().anyMatch(line -> line.matches(" *0 +62\\.84")), timeline);

        HitCount two = new HitCount("a", 10, 62_845 + 3, 100_004, 0, "", new long[] {62_845, 3}, 100_000);
        TraceResult r2 = new TraceResult("x", "lirs", 100_004, 100, List.of("a"), List.of(10), List.of("10"), List.of(two), 0);
        String timeline2 = TimelineTable.render(r2);
        assertTrue(timeline2.lines().anyMatch(line -> line.matches(" *0 +62\\.84")), timeline2);
        assertTrue(timeline2.lines().anyMatch(line -> line.matches(" *100,000 +75\\.00")), timeline2);
    }
}
