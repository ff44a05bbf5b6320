package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.TraceResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The {@code --chart} file: grouped bars of hit ratio, one group per trace and size, one bar per
 * policy. PNG or SVG by the file's extension.
 */
final class HitRatioChart {
    private HitRatioChart() {
    }

    static void write(Path file, List<TraceResult> traces) throws IOException {
        boolean svg = ChartFile.isSvg(file, "chart");
        ChartFile.save(build(traces), file, svg);
    }

    static CategoryChart build(List<TraceResult> traces) {
        // By the trace's file name without its extensions where that tells the traces apart; else by its whole name
        // (lirs/x.trace.gz and cache2k/x.trace.xz): both were "x @10", two groups of bars under one label.
        Map<String, Long> shortNames = traces.stream()
            .collect(Collectors.groupingBy(t -> ChartFile.shortName(t.trace()), Collectors.counting()));
        List<String> groups = new ArrayList<>();
        for (TraceResult t : traces) {
            String traceName = shortNames.get(ChartFile.shortName(t.trace())) == 1 ? ChartFile.shortName(t.trace())
                : t.trace();
            for (int size : t.sizes()) {
                groups.add(traces.size() == 1 ? "size " + size : traceName + " @" + size);
            }
        }
        List<String> policies = traces.get(0).policies();
        int width = Math.max(900, Math.min(12_000, 60 + groups.size() * (policies.size() * 9 + 30)));
        String title = traces.size() == 1 ? "Hit ratio: " + traces.get(0).trace() : "Hit ratio per trace and cache size";
        CategoryChart chart = new CategoryChartBuilder().width(width).height(560).title(title)
            .xAxisTitle(traces.size() == 1 ? "cache size (entries)" : "trace @ cache size (entries)")
            .yAxisTitle("hit %").build();
        chart.getStyler().setLocale(Locale.ROOT); // tick labels "12.5", as the tables; not "12,5" under de_DE
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        chart.getStyler().setXAxisLabelRotation(groups.size() > 6 ? 45 : 0);
        chart.getStyler().setAvailableSpaceFill(0.85);
        for (String policy : policies) {
            List<Double> values = new ArrayList<>();
            for (TraceResult t : traces) {
                for (int size : t.sizes()) {
                    values.add(100 * t.find(policy, size).orElseThrow().hitRatio());
                }
            }
            chart.addSeries(policy, groups, values);
        }
        return chart;
    }
}
