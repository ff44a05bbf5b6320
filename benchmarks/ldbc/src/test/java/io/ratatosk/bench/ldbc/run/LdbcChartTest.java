package io.ratatosk.bench.ldbc.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The charts drew their ticks in the default locale: "12,5" and "1.000" under de_DE, unlike summary.json. */
class LdbcChartTest {
    @Test
    void chartsFormatTheirTicksTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals(Locale.ROOT, LdbcChart.chart("t", "hit %", List.of(), r -> 0, 0.0, 100.0).getStyler().getLocale());
        } finally {
            Locale.setDefault(before);
        }
    }
}
