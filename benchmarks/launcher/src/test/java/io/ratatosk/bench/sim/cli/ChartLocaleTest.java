package io.ratatosk.bench.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.bench.sim.HitCount;
import io.ratatosk.bench.sim.TraceResult;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * sim's charts drew their axis ticks in the default locale: "12,5" and "1.000.000" under de_DE, beside a title and
 * tables that say "1,000,000" and "12.50".
 */
class ChartLocaleTest {
    @Test
    void chartsFormatTheirTicksTheSameInEveryLocale() {
        TraceResult t = new TraceResult("t", "lirs", 1000, 100, List.of("a"), List.of(10), List.of("10"),
            List.of(new HitCount("a", 10, 400, 1000, 0, "", new long[] {200, 200}, 500)), 0);
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals(Locale.ROOT, HitRatioChart.build(List.of(t)).getStyler().getLocale());
            assertEquals(Locale.ROOT, TimelineChart.build(t, 10).getStyler().getLocale());
        } finally {
            Locale.setDefault(before);
        }
    }
}
