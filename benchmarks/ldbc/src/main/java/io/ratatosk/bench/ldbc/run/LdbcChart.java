package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.sim.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The runner's charts: {@code hit-ratio.png} and {@code throughput.png}, grouped bars with one
 * group per cache size and one bar per policy.
 */
public final class LdbcChart {
    private LdbcChart() {
    }

    /** Writes both charts into {@code dir}; returns their paths. */
    public static List<Path> write(Path dir, String title, List<RunResult> runs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path hit = dir.resolve("hit-ratio.png");
        Path ops = dir.resolve("throughput.png");
        double lowest = runs.stream().mapToDouble(r -> 100 * r.measured().hitRatio()).min().orElse(0);
        save(hit, chart("Hit ratio: " + title, "hit %", runs, r -> 100 * r.measured().hitRatio(),
            Math.max(0, Math.floor(lowest / 5) * 5 - 5), 100.0));
        save(ops, chart("Throughput: " + title, "ops/s", runs, RunResult::opsPerSecond, 0.0, null));
        return List.of(hit, ops);
    }

    static CategoryChart chart(String title, String yTitle, List<RunResult> runs, ToDoubleFunction<RunResult> metric,
                               Double min, Double max) {
        Set<String> groups = new LinkedHashSet<>();
        Set<String> policies = new LinkedHashSet<>();
        for (RunResult r : runs) {
            groups.add(group(r));
            policies.add(r.policy());
        }
        int width = Math.max(900, Math.min(6000, 200 + groups.size() * (policies.size() * 40 + 40)));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(560).title(title)
            .xAxisTitle("cache size").yAxisTitle(yTitle).build();
        chart.getStyler().setLocale(Locale.ROOT); // ticks "12.5", as summary.json; not "12,5" under de_DE
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setAvailableSpaceFill(0.85);
        if (min != null) {
            chart.getStyler().setYAxisMin(min);
        }
        if (max != null) {
            chart.getStyler().setYAxisMax(max);
        }
        List<String> groupList = new ArrayList<>(groups);
        for (String policy : policies) {
            List<Double> values = new ArrayList<>();
            for (String g : groupList) {
                values.add(runs.stream().filter(r -> r.policy().equals(policy) && group(r).equals(g))
                    .mapToDouble(metric).findFirst().orElse(0));
            }
            chart.addSeries(policy, groupList, values);
        }
        return chart;
    }

    private static String group(RunResult r) {
        return r.cacheSpec() + " (" + LdbcReport.mib(r.cacheBytes()) + ")";
    }

    /** Whole or not at all, as summary.json: a run stopped while it writes leaves the chart before it. */
    private static void save(Path file, CategoryChart chart) throws IOException {
        OutputFile.replace(file, own -> {
            try (OutputStream out = Files.newOutputStream(own)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        });
    }
}
