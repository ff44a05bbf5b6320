package io.ratatosk.bench.jmh;

import io.ratatosk.bench.jmh.JmhResult.Score;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * JMH results paired into rows of ours against a reference, measured in the same run: side=ratatosk
 * against side=muninn, and each policy of {@link PolicyHitPathBenchmark} against global-clock. The
 * ratio is ours / reference; its error combines the two 99.9% confidence half-widths in quadrature
 * (relative errors), which is what "error" means throughout the report.
 */
final class RatioTable {
    static final String SIDE = "side";
    static final String POLICY = "policy";
    /** Allocation per operation below this counts as none: JMH's own bookkeeping shows up as ~0.001 B/op. */
    static final double ZERO_BYTES_PER_OP = 0.5;

    /**
     * @param reference   what ours is compared with (muninn, or global-clock), or null if nothing was
     * @param hitRatio    1 - pages read / operations, NaN where the benchmark does not report pages read
     * @param bytesPerOp  gc.alloc.rate.norm, NaN where the gc profiler did not run
     */
    record Row(String benchmark, String params, int threads, String reference, Score ours, Score peer,
               double ratio, double ratioError, double oursHitRatio, double peerHitRatio,
               double oursBytesPerOp, double peerBytesPerOp) {

        boolean hasPeer() {
            return peer != null;
        }

        String label() {
            return benchmark + (params.isEmpty() ? "" : " " + params) + " t=" + threads;
        }
    }

    private final List<Row> rows;

    private RatioTable(List<Row> rows) {
        this.rows = rows;
    }

    List<Row> rows() {
        return rows;
    }

    static RatioTable of(List<JmhResult> results) {
        // (benchmark, params other than side/policy) in first-seen order; within it, threads ascending
        Map<String, Map<Integer, List<JmhResult>>> groups = new LinkedHashMap<>();
        for (JmhResult r : results) {
            String key = r.benchmark() + "|" + otherParams(r);
            groups.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(r.threads(), t -> new ArrayList<>()).add(r);
        }
        List<Row> rows = new ArrayList<>();
        for (Map<Integer, List<JmhResult>> byThreads : groups.values()) {
            for (List<JmhResult> group : byThreads.values()) {
                rows.addAll(rowsOf(group));
            }
        }
        return new RatioTable(rows);
    }

    private static List<Row> rowsOf(List<JmhResult> group) {
        List<Row> rows = new ArrayList<>();
        JmhResult first = group.get(0);
        if (first.params().containsKey(SIDE)) {
            JmhResult ours = find(group, SIDE, CacheSide.RATATOSK);
            JmhResult peer = find(group, SIDE, CacheSide.MUNINN);
            if (ours != null) {
                rows.add(row(ours, peer, CacheSide.MUNINN));
            } else if (peer != null) {
                rows.add(row(peer, null, null)); // only the peer was run: show it without a ratio
            }
        } else if (first.params().containsKey(POLICY)) {
            JmhResult baseline = find(group, POLICY, PolicyHitPathBenchmark.BASELINE);
            List<JmhResult> sorted = new ArrayList<>(group);
            sorted.sort(Comparator.comparing((JmhResult r) -> !r.params().get(POLICY).equals(PolicyHitPathBenchmark.BASELINE))
                .thenComparing(r -> r.params().get(POLICY)));
            for (JmhResult r : sorted) {
                rows.add(row(r, baseline, PolicyHitPathBenchmark.BASELINE));
            }
        } else {
            for (JmhResult r : group) {
                rows.add(row(r, null, null));
            }
        }
        return rows;
    }

    private static Row row(JmhResult ours, JmhResult peer, String reference) {
        double ratio = Double.NaN;
        double error = Double.NaN;
        if (peer != null) {
            double o = ours.primary().score();
            double p = peer.primary().score();
            ratio = o / p;
            double ro = ours.primary().error() / o;
            double rp = peer.primary().error() / p;
            error = ratio * Math.sqrt(ro * ro + rp * rp);
        }
        return new Row(shortName(ours.benchmark()), displayParams(ours), ours.threads(), peer == null ? null : reference,
            ours.primary(), peer == null ? null : peer.primary(), ratio, error,
            hitRatio(ours), peer == null ? Double.NaN : hitRatio(peer),
            bytesPerOp(ours), peer == null ? Double.NaN : bytesPerOp(peer));
    }

    private static JmhResult find(List<JmhResult> group, String param, String value) {
        for (JmhResult r : group) {
            if (value.equals(r.params().get(param))) {
                return r;
            }
        }
        return null;
    }

    static double hitRatio(JmhResult r) {
        return r.secondary("pagesRead")
            .map(s -> Math.max(0.0, 1.0 - s.score() / r.primary().score()))
            .orElse(Double.NaN);
    }

    static double bytesPerOp(JmhResult r) {
        return r.secondary("gc.alloc.rate.norm").map(Score::score).orElse(Double.NaN);
    }

    private static String otherParams(JmhResult r) {
        StringJoiner j = new StringJoiner(" ");
        r.params().forEach((k, v) -> {
            if (!k.equals(SIDE) && !k.equals(POLICY)) {
                j.add(k + "=" + v);
            }
        });
        return j.toString();
    }

    private static String displayParams(JmhResult r) {
        StringJoiner j = new StringJoiner(" ");
        r.params().forEach((k, v) -> {
            if (!k.equals(SIDE)) {
                j.add(k + "=" + v);
            }
        });
        return j.toString();
    }

    static String shortName(String benchmark) {
        return benchmark.replace("Benchmark.", ".");
    }

    // ---- rendering -------------------------------------------------------------------------------

    /** The table in Markdown (also what the command prints). */
    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | params | threads | ours (ops/µs) | vs | peer (ops/µs) | ratio ours/peer | hit ratio ours / peer | B/op ours / peer |\n");
        sb.append("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append("| ").append(r.benchmark())
                .append(" | ").append(r.params().isEmpty() ? "-" : r.params())
                .append(" | ").append(r.threads())
                .append(" | ").append(scoreText(r.ours()))
                .append(" | ").append(r.hasPeer() ? r.reference() : "-")
                .append(" | ").append(r.hasPeer() ? scoreText(r.peer()) : "-")
                .append(" | ").append(r.hasPeer() ? ratioText(r.ratio(), r.ratioError()) : "-")
                .append(" | ").append(pair(r.oursHitRatio(), r.peerHitRatio(), RatioTable::percent))
                .append(" | ").append(pair(r.oursBytesPerOp(), r.peerBytesPerOp(), RatioTable::bytes))
                .append(" |\n");
        }
        return sb.toString();
    }

    static String scoreText(Score s) {
        return Double.isNaN(s.error())
            ? format("%.3f", s.score())
            : format("%.3f ± %.3f", s.score(), s.error());
    }

    static String ratioText(double ratio, double error) {
        return Double.isNaN(error) ? format("%.2f", ratio) : format("%.2f ± %.2f", ratio, error);
    }

    private interface Formatter {
        String apply(double v);
    }

    private static String pair(double ours, double peer, Formatter f) {
        if (Double.isNaN(ours) && Double.isNaN(peer)) {
            return "-";
        }
        String o = Double.isNaN(ours) ? "-" : f.apply(ours);
        return Double.isNaN(peer) ? o : o + " / " + f.apply(peer);
    }

    private static String percent(double v) {
        return format("%.1f%%", 100 * v);
    }

    private static String bytes(double v) {
        return v < 0.005 ? "0" : format("%.2f", v);
    }

    private static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }

    // ---- targets ---------------------------------------------------------------------------------

    /** One of the targets, checked against the rows it concerns. */
    record Target(String description, List<Row> rows, boolean met, String evidence) {
    }

    List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        targets.add(ratioTarget("read hit path >= 1.2x Muninn", "HitPath.read", 1.2));
        targets.add(ratioTarget("write hit path >= 1.0x Muninn", "HitPath.write", 1.0));
        targets.add(ratioTarget("fault path (evictor on) >= 1.0x Muninn", "FaultPath.read", 1.0));
        targets.add(ratioTarget("cooperative eviction (evictor off) >= 1.0x Muninn", "CooperativeEviction.read", 1.0));
        List<Row> hitPaths = new ArrayList<>();
        for (Row r : rows) {
            if (r.benchmark().startsWith("HitPath.") || r.benchmark().startsWith("PolicyHitPath.")) {
                hitPaths.add(r);
            }
        }
        boolean measured = hitPaths.stream().anyMatch(r -> !Double.isNaN(r.oursBytesPerOp()));
        double worst = hitPaths.stream().mapToDouble(Row::oursBytesPerOp).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        targets.add(new Target("0 B/op on every hit path (ours)", hitPaths,
            measured && worst < ZERO_BYTES_PER_OP,
            measured ? format("largest: %.3f B/op over %d rows", worst, hitPaths.size()) : "not measured (run with -prof gc)"));
        return targets;
    }

    private Target ratioTarget(String description, String benchmark, double min) {
        List<Row> matching = new ArrayList<>();
        for (Row r : rows) {
            if (r.benchmark().equals(benchmark) && r.hasPeer()) {
                matching.add(r);
            }
        }
        if (matching.isEmpty()) {
            return new Target(description, matching, false, "not measured");
        }
        Row worst = matching.stream().min(Comparator.comparingDouble(Row::ratio)).orElseThrow();
        boolean met = matching.stream().allMatch(r -> r.ratio() >= min);
        return new Target(description, matching, met,
            format("lowest ratio %s (%s)", ratioText(worst.ratio(), worst.ratioError()),
                (worst.params().isEmpty() ? "" : worst.params() + " ") + "t=" + worst.threads()));
    }

    String targetsMarkdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| target | rows | met | evidence |\n| --- | ---: | --- | --- |\n");
        for (Target t : targets()) {
            sb.append("| ").append(t.description()).append(" | ").append(t.rows().size()).append(" | ")
                .append(t.rows().isEmpty() ? "-" : t.met() ? "yes" : "**no**").append(" | ").append(t.evidence()).append(" |\n");
        }
        return sb.toString();
    }

    /** Distinct run settings found, e.g. "forks 1, warmup 2 x 500 ms, measurement 3 x 500 ms". */
    static String runSummary(List<JmhResult> results) {
        Set<String> settings = new LinkedHashSet<>();
        Set<String> vms = new LinkedHashSet<>();
        for (JmhResult r : results) {
            JmhResult.RunInfo run = r.run();
            settings.add(format("forks %d, warmup %d x %s, measurement %d x %s", r.forks(), run.warmupIterations(),
                run.warmupTime(), run.measurementIterations(), run.measurementTime()));
            vms.add("JMH " + run.jmhVersion() + ", JDK " + run.jdkVersion() + " (" + run.vmName() + " " + run.vmVersion() + ")");
        }
        return String.join("; ", vms) + "; " + String.join("; ", settings);
    }
}
