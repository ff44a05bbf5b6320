package io.ratatosk.bench.jmh;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * The report's chart: one bar per row that has a reference, its ratio ours / reference (per CPU where
 * measured, else wall clock, said in the bar's label; see {@link RatioTable}) with the error as an error bar, one colour
 * per thread count, and a line at 1.0 (parity).
 */
final class RatioChart {
    private RatioChart() {
    }

    static void write(Path file, RatioTable table) throws IOException {
        if (!file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new IllegalArgumentException("chart file must end in .png: " + file);
        }
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = build(table);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** Whether {@code table} has a row with a reference, a bar to draw: with none the chart library throws. */
    static boolean hasBars(RatioTable table) {
        return table.rows().stream().anyMatch(RatioTable.Row::hasPeer);
    }

    static CategoryChart build(RatioTable table) {
        if (!hasBars(table)) {
            throw new IllegalArgumentException("no row has a reference: nothing to chart");
        }
        List<String> groups = new ArrayList<>();
        List<Integer> threads = new ArrayList<>();
        for (RatioTable.Row r : table.rows()) {
            if (!r.hasPeer()) {
                continue;
            }
            String group = group(r);
            if (!groups.contains(group)) {
                groups.add(group);
            }
            if (!threads.contains(r.threads())) {
                threads.add(r.threads());
            }
        }
        threads.sort(null);
        List<String> labels = groups.stream().map(g -> label(table, g)).toList();
        int width = Math.max(900, Math.min(6000, 240 + groups.size() * (threads.size() * 30 + 50)));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(900)
            .title("Throughput per CPU second (wall clock where marked), ours / reference (same run); bars: 99.9% error")
            .xAxisTitle("benchmark, parameters, reference").yAxisTitle("ratio").build();
        CategoryStyler styler = chart.getStyler();
        styler.setLocale(Locale.ROOT); // ticks "1.5", as the ratio table; not "1,5" under de_DE
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setXAxisLabelRotation(60);
        styler.setYAxisMin(0.0);
        styler.setAvailableSpaceFill(0.8);
        styler.setOverlapped(false);
        for (int t : threads) {
            List<Double> ratios = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String group : groups) {
                RatioTable.Row row = find(table, group, t);
                RatioTable.Estimate ratio = row == null ? RatioTable.Estimate.UNKNOWN : row.ratio();
                // No ratio at this thread count (its run failed, or was not made): no bar. A 0 drew ours as nothing to
                // the peer's. NaN, not null: XChart draws no bar of it, where a null fails its range with error bars.
                ratios.add(ratio.known() ? ratio.mean() : Double.NaN);
                errors.add(ratio.known() && !Double.isNaN(ratio.error()) ? ratio.error() : 0.0);
            }
            chart.addSeries(t + (t == 1 ? " thread" : " threads"), labels, ratios, errors);
        }
        styler.setAnnotationLineColor(Color.DARK_GRAY);
        styler.setAnnotationLineStroke(
            new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        chart.addAnnotation(new AnnotationLine(1.0, false, false));
        return chart;
    }

    private static String group(RatioTable.Row r) {
        return r.benchmark().replace("Benchmark.", ".") + (r.params().isEmpty() ? "" : " " + r.params()) + " vs " + r.reference();
    }

    /**
     * A group's label on the axis: the group, and "(wall clock)" where a bar of it is not per CPU (the NVM tiers, a
     * benchmark without the cpuNanos counter such as the key-value cache's), which the title claimed of all but the NVM
     * tiers' bars.
     */
    private static String label(RatioTable table, String group) {
        boolean wall = table.rows().stream().anyMatch(r -> r.hasPeer() && group(r).equals(group) && !r.cpuRatio().known());
        return wall ? group + " (wall clock)" : group;
    }

    private static RatioTable.Row find(RatioTable table, String group, int threads) {
        for (RatioTable.Row r : table.rows()) {
            if (r.hasPeer() && r.threads() == threads && group(r).equals(group)) {
                return r;
            }
        }
        return null;
    }
}
