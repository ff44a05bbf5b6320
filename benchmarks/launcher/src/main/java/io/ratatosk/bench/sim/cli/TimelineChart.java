package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.HitCount;
import io.ratatosk.bench.sim.TraceResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.stream.Collectors;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The {@code --timeline-chart} file: each policy's hit ratio per timeline bucket, one line per policy, for one trace at
 * one cache size. Several traces or sizes give one file each, named {@code STEM-TRACE-SIZE.EXT}. PNG or SVG by the
 * file's extension.
 */
final class TimelineChart {
    private TimelineChart() {
    }

    /**
     * Whether {@code other} may be one of the files {@code file} stands for when there are several charts: in its folder,
     * named as they are ({@code STEM-*.EXT}). Their traces' names and sizes are known only once the traces are read.
     */
    static boolean mayWrite(Path file, Path other) {
        String name = file.getFileName().toString();
        String otherName = other.getFileName() == null ? "" : other.getFileName().toString();
        Path folder = file.toAbsolutePath().normalize().getParent();
        return folder != null && folder.equals(other.toAbsolutePath().normalize().getParent())
            && otherName.startsWith(name.substring(0, name.length() - 4) + "-")
            && otherName.endsWith(name.substring(name.length() - 4));
    }

    /**
     * The most bytes a chart's file name may take when {@code file} stands for several ({@code STEM-TRACE-SIZE.EXT}):
     * each trace named as {@link #write} names it, by its short name where no other trace's is the same, else by its
     * short or its whole name (which one, known once the traces are read: a trace skipped leaves the others'), and a size
     * of {@code sizeDigits} digits.
     */
    static int mostNameBytes(Path file, Collection<String> traces, int sizeDigits) {
        String name = file.getFileName().toString();
        int stem = (name.substring(0, name.length() - 4) + "-" + "-" + name.substring(name.length() - 4))
            .getBytes(StandardCharsets.UTF_8).length;
        Map<String, Long> shortNames = traces.stream().collect(Collectors.groupingBy(ChartFile::shortName,
            Collectors.counting()));
        int longestTrace = traces.stream().mapToInt(t -> {
            int shortBytes = ChartFile.shortName(t).getBytes(StandardCharsets.UTF_8).length;
            return shortNames.get(ChartFile.shortName(t)) == 1 ? shortBytes : Math.max(shortBytes, wholeName(t).length());
        }).max().orElse(0);
        return stem + longestTrace + sizeDigits;
    }

    private static String wholeName(String trace) {
        return trace.replaceAll("[^A-Za-z0-9._-]+", "-");
    }

    /** Writes the charts; returns the files written. */
    static List<Path> write(Path file, List<TraceResult> traces) throws IOException {
        boolean svg = ChartFile.isSvg(file, "timeline chart");
        String name = file.getFileName().toString();
        int charts = traces.stream().mapToInt(t -> t.sizes().size()).sum();
        List<Path> written = new ArrayList<>();
        // By the trace's file name without its extensions where that tells the traces apart; else by the whole name
        // (lirs/x.trace.gz and cache2k/x.trace.xz): the second trace's charts were written over the first's.
        Map<String, Long> shortNames = traces.stream()
            .collect(Collectors.groupingBy(t -> ChartFile.shortName(t.trace()), Collectors.counting()));
        for (TraceResult t : traces) {
            String traceName = shortNames.get(ChartFile.shortName(t.trace())) == 1 ? ChartFile.shortName(t.trace())
                : wholeName(t.trace());
            for (int size : t.sizes()) {
                Path target = charts == 1 ? file : file.resolveSibling(name.substring(0, name.length() - 4) + "-"
                    + traceName + "-" + size + name.substring(name.length() - 4));
                ChartFile.save(build(t, size), target, svg);
                written.add(target);
            }
        }
        return written;
    }

    static XYChart build(TraceResult t, int size) {
        HitCount first = t.find(t.policies().get(0), size).orElseThrow();
        XYChart chart = new XYChartBuilder().width(1100).height(560)
            .title(String.format(Locale.ROOT, "Hit ratio per %,d requests: %s at %,d entries", first.timelineBucket(), t.trace(), size))
            .xAxisTitle("request").yAxisTitle("hit % in the bucket").build();
        chart.getStyler().setLocale(Locale.ROOT); // ticks "1,000,000" as the title says it; not "1.000.000" under de_DE
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        for (String policy : t.policies()) {
            HitCount h = t.find(policy, size).orElseThrow();
            double[] x = new double[h.timeline().length];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = (double) i * h.timelineBucket();
                y[i] = 100 * h.bucketHitRatio(i);
            }
            XYSeries series = chart.addSeries(policy, x, y);
            series.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }
}
