package io.ratatosk.bench.jmh;

import io.ratatosk.bench.jmh.JmhResult.Score;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.openjdk.jmh.util.ListStatistics;

/**
 * JMH results paired into rows of ours against a reference measured in the same run: side=ratatosk against
 * side=muninn (or side=caffeine for the key-value cache, side=agrona for the primitive maps), each policy of {@link PolicyHitPathBenchmark} against
 * global-clock, and each NVM tier of {@link NvmSwapBenchmark} against tier=file.
 *
 * <p>Two ratios per row. <em>Wall</em>: JMH's throughput, ours / reference. <em>Per CPU</em>: operations per
 * microsecond of process CPU time, computed per iteration from the {@code cpuNanos} counter and averaged, then
 * ours / reference; on a shared machine it is far steadier, because time spent descheduled by the neighbours
 * is not counted. On an idle machine at one thread the two agree. Every error is a 99.9% confidence
 * half-width (JMH's); a ratio's error combines the two sides' relative errors in quadrature. The NVM rows have
 * no per-CPU figures: the emulated device parks through long waits and spins through short ones, so CPU time
 * would count its latency for some profiles and not for others; their wall-clock ratio is the measure.
 */
final class RatioTable {
    static final String SIDE = "side";
    /** What side=ratatosk is compared with: Muninn, Caffeine (the key-value cache), agrona (the primitive maps). */
    static final List<String> SIDE_REFERENCES = List.of(CacheSide.MUNINN, KeyValueCacheBenchmark.CAFFEINE,
        PrimitiveMapBenchmark.AGRONA);
    static final String POLICY = "policy";
    static final String TIER = "tier";
    static final String PAGES_READ = "pagesRead";
    static final String SWAP_INS = "swapIns";
    static final String COMPUTES = "computes";
    /** The key-value benchmark whose {@code computes} are its misses ({@code get} counts none of its own). */
    static final String KEY_VALUE_GET_OR_COMPUTE = KeyValueCacheBenchmark.class.getSimpleName() + ".getOrCompute";
    static final String CPU_NANOS = "cpuNanos";
    static final String BYTES_PER_OP = "gc.alloc.rate.norm";
    /** Allocation per operation below this counts as none: JMH's own bookkeeping shows up as ~0.001 B/op. */
    static final double ZERO_BYTES_PER_OP = 0.5;
    private static final double CONFIDENCE = 0.999;

    /** A mean with its error; NaN where unknown. */
    record Estimate(double mean, double error) {
        static final Estimate UNKNOWN = new Estimate(Double.NaN, Double.NaN);

        boolean known() {
            return !Double.isNaN(mean);
        }

        /** this / other, with relative errors combined in quadrature. */
        Estimate over(Estimate other) {
            double ratio = mean / other.mean;
            double a = error / mean;
            double b = other.error / other.mean;
            return new Estimate(ratio, ratio * Math.sqrt(a * a + b * b));
        }
    }

    /**
     * @param reference  what ours is compared with (muninn, caffeine, global-clock or file), or null if nothing was
     * @param hitRatio   1 - misses / operations (see {@link #hitRatio}), NaN where the benchmark counts no misses
     * @param bytesPerOp gc.alloc.rate.norm, NaN where the gc profiler did not run
     * @param ourCache   whether the first figures are our cache's; false for another side run without ours (Muninn alone),
     *                   whose params then name it and which no target counts as ours
     */
    record Row(String benchmark, String params, int threads, String reference,
               Estimate ours, Estimate peer, Estimate wallRatio,
               Estimate oursPerCpu, Estimate peerPerCpu, Estimate cpuRatio,
               double oursHitRatio, double peerHitRatio, double oursBytesPerOp, double peerBytesPerOp, boolean ourCache) {

        boolean hasPeer() {
            return reference != null;
        }

        /** The ratio the targets are judged on: per CPU where measured, else wall-clock. */
        Estimate ratio() {
            return cpuRatio.known() ? cpuRatio : wallRatio;
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
        // (benchmark, params other than side/policy/tier, which of them it has) in first-seen order; within it, threads
        // ascending. Results with the choice and without it in one group were read by the first one's rule: a result
        // without a policy threw, one without a side beside ours and the peer was dropped.
        Map<String, Map<Integer, List<JmhResult>>> groups = new LinkedHashMap<>();
        for (JmhResult r : results) {
            String key = r.benchmark() + "|" + params(r, false) + "|" + choice(r);
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

    /** The parameter a result's row is compared by: side, else tier, else policy; empty where it has none of them. */
    private static String choice(JmhResult r) {
        for (String choice : List.of(SIDE, TIER, POLICY)) {
            if (r.params().containsKey(choice)) {
                return choice;
            }
        }
        return "";
    }

    /** The rows of results that differ in {@link #choice} alone, all of which have the same choice parameter. */
    private static List<Row> rowsOf(List<JmhResult> group) {
        List<Row> rows = new ArrayList<>();
        String choice = choice(group.get(0));
        if (choice.equals(SIDE)) {
            JmhResult ours = find(group, SIDE, CacheSide.RATATOSK);
            String reference = null;
            JmhResult peer = null;
            for (String r : SIDE_REFERENCES) {
                peer = find(group, SIDE, r);
                if (peer != null) {
                    reference = r;
                    break;
                }
            }
            if (ours != null) {
                rows.add(row(ours, peer, reference));
            }
            for (JmhResult r : group) { // the peer run without ours, a second peer, a side of another benchmark: no ratio
                if (r != ours && (r != peer || ours == null)) {
                    rows.add(row(r, null, null));
                }
            }
        } else if (choice.equals(TIER)) {
            JmhResult file = find(group, TIER, NvmSwapBenchmark.FILE);
            for (JmhResult r : group) {
                if (r != file) {
                    rows.add(row(r, file, file == null ? null : NvmSwapBenchmark.FILE));
                }
            }
            if (rows.isEmpty()) {
                rows.add(row(file, null, null)); // only the reference was run
            }
        } else if (choice.equals(POLICY)) {
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
        Estimate o = primary(ours);
        Estimate oCpu = perCpuComparable(ours) ? perCpu(ours) : Estimate.UNKNOWN;
        if (peer == null) {
            boolean ourCache = !ours.params().containsKey(SIDE) || CacheSide.RATATOSK.equals(ours.params().get(SIDE));
            return new Row(ours.benchmark(), params(ours, true), ours.threads(), null, o, Estimate.UNKNOWN, Estimate.UNKNOWN,
                oCpu, Estimate.UNKNOWN, Estimate.UNKNOWN, hitRatio(ours), Double.NaN, bytesPerOp(ours), Double.NaN, ourCache);
        }
        Estimate p = primary(peer);
        Estimate pCpu = perCpuComparable(peer) ? perCpu(peer) : Estimate.UNKNOWN;
        Estimate cpuRatio = oCpu.known() && pCpu.known() ? oCpu.over(pCpu) : Estimate.UNKNOWN;
        return new Row(ours.benchmark(), params(ours, true), ours.threads(), reference, o, p, o.over(p),
            oCpu, pCpu, cpuRatio, hitRatio(ours), hitRatio(peer), bytesPerOp(ours), bytesPerOp(peer), true);
    }

    private static Estimate primary(JmhResult r) {
        return new Estimate(r.primary().score(), r.primary().error());
    }

    /** False for the NVM benchmark's rows: see the class comment. */
    private static boolean perCpuComparable(JmhResult r) {
        return !r.params().containsKey(TIER);
    }

    /** Operations per microsecond of process CPU time: per iteration, then mean and 99.9% error over iterations. */
    static Estimate perCpu(JmhResult r) {
        Score cpu = r.secondary().get(CPU_NANOS);
        double[] ops = r.primary().raw();
        if (cpu == null || cpu.raw().length != ops.length || ops.length == 0) {
            return Estimate.UNKNOWN;
        }
        ListStatistics stats = new ListStatistics();
        for (int i = 0; i < ops.length; i++) {
            double cpuNanosPerMicro = cpu.raw()[i];
            if (cpuNanosPerMicro > 0) {
                stats.addValue(ops[i] / (cpuNanosPerMicro / 1000.0)); // ops/us over CPU-us/us
            }
        }
        if (stats.getN() == 0) {
            return Estimate.UNKNOWN;
        }
        return new Estimate(stats.getMean(), stats.getN() > 1 ? stats.getMeanErrorAt(CONFIDENCE) : Double.NaN);
    }

    private static JmhResult find(List<JmhResult> group, String param, String value) {
        for (JmhResult r : group) {
            if (value.equals(r.params().get(param))) {
                return r;
            }
        }
        return null;
    }

    /**
     * 1 - misses / operations. A page cache's misses are the pages read from the file plus, with the NVM tier,
     * those it swapped in, so the NVM rows and their file reference compare at the same hit ratio; the key-value
     * cache's are the values {@code getOrCompute} computed. NaN where a benchmark counts no misses.
     */
    static double hitRatio(JmhResult r) {
        Optional<Double> misses = r.benchmark().equals(KEY_VALUE_GET_OR_COMPUTE)
            ? r.secondary(COMPUTES).map(Score::score)
            : r.secondary(PAGES_READ).map(s -> s.score() + r.secondary(SWAP_INS).map(Score::score).orElse(0.0));
        return misses.map(m -> Math.max(0.0, 1.0 - m / r.primary().score())).orElse(Double.NaN);
    }

    static double bytesPerOp(JmhResult r) {
        return r.secondary(BYTES_PER_OP).map(Score::score).orElse(Double.NaN);
    }

    /**
     * The parameters as "k=v k=v", without policy, tier and side unless {@code withChoice}, and without side=ratatosk
     * (ours): a row of another side says which it is.
     */
    private static String params(JmhResult r, boolean withChoice) {
        StringJoiner j = new StringJoiner(" ");
        r.params().forEach((k, v) -> {
            boolean choice = k.equals(POLICY) || k.equals(TIER) || k.equals(SIDE);
            if (!choice || withChoice && !(k.equals(SIDE) && v.equals(CacheSide.RATATOSK))) {
                j.add(k + "=" + v);
            }
        });
        return j.toString();
    }

    // ---- rendering -------------------------------------------------------------------------------

    /** The table in Markdown (also what the command prints). */
    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | params | threads | vs | ours ops/µs | peer ops/µs | ratio (wall) | ours ops/CPU-µs"
            + " | peer ops/CPU-µs | **ratio per CPU** | hit ratio ours / peer | B/op ours / peer |\n");
        sb.append("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            sb.append("| ").append(r.benchmark())
                .append(" | ").append(r.params().isEmpty() ? "-" : r.params())
                .append(" | ").append(r.threads())
                .append(" | ").append(r.hasPeer() ? r.reference() : "-")
                .append(" | ").append(estimate(r.ours(), "%.3f"))
                .append(" | ").append(estimate(r.peer(), "%.3f"))
                .append(" | ").append(ratio(r.wallRatio()))
                .append(" | ").append(estimate(r.oursPerCpu(), "%.3f"))
                .append(" | ").append(estimate(r.peerPerCpu(), "%.3f"))
                .append(" | ").append(r.cpuRatio().known() ? "**" + ratio(r.cpuRatio()) + "**" : "-")
                .append(" | ").append(pair(r.oursHitRatio(), r.peerHitRatio(), RatioTable::percent))
                .append(" | ").append(pair(r.oursBytesPerOp(), r.peerBytesPerOp(), RatioTable::bytes))
                .append(" |\n");
        }
        return sb.toString();
    }

    /** A ratio with two decimals, or three below 0.1 (an NVM device's, say), where two would leave one digit. */
    static String ratio(Estimate e) {
        return estimate(e, Math.abs(e.mean()) < 0.1 ? "%.3f" : "%.2f");
    }

    static String estimate(Estimate e, String number) {
        if (!e.known()) {
            return "-";
        }
        return Double.isNaN(e.error()) ? format(number, e.mean()) : format(number + " ± " + number, e.mean(), e.error());
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

    // ---- share of the limit -----------------------------------------------------------------------

    static final String HIT_READ = HitPathBenchmark.class.getSimpleName() + ".read";
    static final String RAW_READ = RawMemoryBenchmark.class.getSimpleName() + ".read";

    /**
     * A read hit row against the raw memory limit at the same page count and thread count: each side's
     * throughput over the raw loop's, per CPU where both were measured, else wall-clock.
     *
     * @param params the hit row's parameters ("hugePages=auto pages=256"), not its page count alone: with
     *               {@code -p hugePages=auto,off} two hit rows share one raw row, and the page count alone labelled
     *               both the same
     */
    record LimitRow(String params, int threads, Estimate raw, Estimate oursShare, Estimate peerShare, String reference) {
    }

    List<LimitRow> limitRows() {
        List<LimitRow> out = new ArrayList<>();
        for (Row hit : rows) {
            if (!hit.benchmark().equals(HIT_READ) || !hit.ourCache()) { // Muninn run alone is no share of ours
                continue;
            }
            Row raw = rows.stream().filter(r -> r.benchmark().equals(RAW_READ) && r.params().equals(pagesOf(hit.params()))
                && r.threads() == hit.threads()).findFirst().orElse(null);
            if (raw == null) {
                continue;
            }
            boolean perCpu = raw.oursPerCpu().known() && hit.oursPerCpu().known() && (!hit.hasPeer() || hit.peerPerCpu().known());
            Estimate limit = perCpu ? raw.oursPerCpu() : raw.ours();
            Estimate ours = perCpu ? hit.oursPerCpu() : hit.ours();
            Estimate peer = hit.hasPeer() ? (perCpu ? hit.peerPerCpu() : hit.peer()) : Estimate.UNKNOWN;
            out.add(new LimitRow(hit.params(), hit.threads(), limit, ours.over(limit),
                peer.known() ? peer.over(limit) : Estimate.UNKNOWN, hit.reference()));
        }
        return out;
    }

    /** The {@code pages=N} of a row's parameters: what a hit path row and its raw limit have in common. */
    private static String pagesOf(String params) {
        for (String p : params.split(" ")) {
            if (p.startsWith("pages=")) {
                return p;
            }
        }
        return params;
    }

    /** The read hit path as a share of what the memory gives the same loop (see {@link RawMemoryBenchmark}). */
    String limitMarkdown() {
        List<LimitRow> limits = limitRows();
        if (limits.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("| read hit | threads | raw ops/µs (per CPU where measured) | **ours / raw** | peer / raw |\n");
        sb.append("| --- | ---: | ---: | ---: | ---: |\n");
        for (LimitRow r : limits) {
            sb.append("| ").append(r.params().isEmpty() ? "-" : r.params())
                .append(" | ").append(r.threads())
                .append(" | ").append(estimate(r.raw(), "%.3f"))
                .append(" | **").append(ratio(r.oursShare())).append("**")
                .append(" | ").append(r.peerShare().known() ? ratio(r.peerShare()) + " (" + r.reference() + ")" : "-")
                .append(" |\n");
        }
        return sb.toString();
    }

    // ---- targets ---------------------------------------------------------------------------------

    /**
     * One of the targets, checked against the rows it concerns; or, where {@code information}, a
     * summary of rows that have no target (never met).
     */
    record Target(String description, List<Row> rows, boolean met, String evidence, boolean information) {
        Target(String description, List<Row> rows, boolean met, String evidence) {
            this(description, rows, met, evidence, false);
        }
    }

    List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        targets.add(ratioTarget("read hit path >= 1.5x Muninn", HIT_READ, 1.5));
        targets.add(ratioTarget("write hit path >= 1.0x Muninn", "HitPathBenchmark.write", 1.0));
        targets.add(ratioTarget("fault path (evictor on) >= 1.0x Muninn", "FaultPathBenchmark.read", 1.0));
        targets.add(ratioTarget("cooperative eviction (evictor off) >= 1.0x Muninn", "CooperativeEvictionBenchmark.read", 1.0));
        List<Row> hitPaths = new ArrayList<>();
        for (Row r : rows) {
            if (r.ourCache() && (r.benchmark().startsWith("HitPathBenchmark.") || r.benchmark().startsWith("PolicyHitPathBenchmark."))) {
                hitPaths.add(r);
            }
        }
        double worst = hitPaths.stream().mapToDouble(Row::oursBytesPerOp).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        boolean measured = !Double.isNaN(worst);
        targets.add(new Target("0 B/op on every hit path (ours)", hitPaths, measured && worst < ZERO_BYTES_PER_OP,
            measured ? format("largest: %.3f B/op over %d rows", worst, hitPaths.size()) : "not measured (run with -prof gc)"));
        targets.add(limitTarget("read hit, 256 pages: ours / raw >= 0.6", "pages=256", 0.6));
        targets.add(limitTarget("read hit, 4,096 pages: ours / raw >= 0.5", "pages=4096", 0.5));
        // Issue 15: the default policy's hit and fault paths against global-clock's, in the same run.
        String defaultPolicy = POLICY + "=" + PolicyRegistry.DEFAULT_POLICY;
        // A row's params are "k=v" words (the fault path's frames among them): the default policy's rows have its word.
        Predicate<Row> ofDefaultPolicy = r -> List.of(r.params().split(" ")).contains(defaultPolicy);
        targets.add(ratioTarget("default policy (" + PolicyRegistry.DEFAULT_POLICY + ") read hit >= 0.9x global-clock",
            "PolicyHitPathBenchmark.read", ofDefaultPolicy, 0.9));
        targets.add(ratioTarget("default policy (" + PolicyRegistry.DEFAULT_POLICY + ") fault path >= 0.9x global-clock",
            "PolicyFaultPathBenchmark.read", ofDefaultPolicy, 0.9));
        targets.add(nvmSwapCost());
        return targets;
    }

    /** The NVM tier's rows, per benchmark method: the range of their wall-clock ratios to tier=file. */
    private Target nvmSwapCost() {
        String description = "NVM tier vs swap=file: read = swap-in, write = swap-in + swap-out (information, no target)";
        Map<String, List<Row>> byBenchmark = new LinkedHashMap<>();
        List<Row> matching = new ArrayList<>();
        for (Row r : rows) {
            if (r.benchmark().startsWith(NvmSwapBenchmark.class.getSimpleName() + ".") && r.hasPeer()) {
                byBenchmark.computeIfAbsent(r.benchmark().substring(r.benchmark().indexOf('.') + 1), k -> new ArrayList<>()).add(r);
                matching.add(r);
            }
        }
        if (matching.isEmpty()) {
            return new Target(description, matching, false, "not measured", true);
        }
        StringJoiner evidence = new StringJoiner("; ");
        byBenchmark.forEach((method, rs) -> {
            Comparator<Row> byRatio = Comparator.comparingDouble(r -> r.ratio().mean());
            Row low = rs.stream().min(byRatio).orElseThrow();
            Row high = rs.stream().max(byRatio).orElseThrow();
            evidence.add(low == high ? method + " " + ratioAt(low) : method + " " + ratioAt(low) + " to " + ratioAt(high));
        });
        return new Target(description, matching, false, "wall ratio " + evidence, true);
    }

    private static String ratioAt(Row r) {
        return format("%s (%s t=%d)", ratio(r.ratio()), r.params(), r.threads());
    }

    private Target limitTarget(String description, String params, double min) {
        List<LimitRow> matching = limitRows().stream().filter(r -> pagesOf(r.params()).equals(params)).toList();
        List<Row> hitRows = rows.stream().filter(r -> r.benchmark().equals(HIT_READ) && r.ourCache()
            && pagesOf(r.params()).equals(params)).toList();
        if (matching.isEmpty()) {
            return new Target(description, hitRows, false, "not measured (run RawMemoryBenchmark with HitPathBenchmark)");
        }
        LimitRow worst = matching.stream().min(Comparator.comparingDouble(r -> r.oursShare().mean())).orElseThrow();
        boolean met = matching.stream().allMatch(r -> r.oursShare().mean() >= min);
        return new Target(description, hitRows, met, format("lowest %s at %s t=%d", ratio(worst.oursShare()), worst.params(),
            worst.threads()));
    }

    private Target ratioTarget(String description, String benchmark, double min) {
        return ratioTarget(description, benchmark, r -> true, min);
    }

    private Target ratioTarget(String description, String benchmark, Predicate<Row> which, double min) {
        List<Row> matching = new ArrayList<>();
        for (Row r : rows) {
            if (r.benchmark().equals(benchmark) && r.hasPeer() && which.test(r)) {
                matching.add(r);
            }
        }
        if (matching.isEmpty()) {
            return new Target(description, matching, false, "not measured");
        }
        Row worst = matching.stream().min(Comparator.comparingDouble(r -> r.ratio().mean())).orElseThrow();
        boolean met = matching.stream().allMatch(r -> r.ratio().mean() >= min);
        return new Target(description, matching, met,
            format("lowest %s %s (wall %s) at %st=%d", worst.cpuRatio().known() ? "per-CPU ratio" : "ratio",
                ratio(worst.ratio()), ratio(worst.wallRatio()),
                worst.params().isEmpty() ? "" : worst.params() + " ", worst.threads()));
    }

    String targetsMarkdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| target | rows | met | evidence |\n| --- | ---: | --- | --- |\n");
        for (Target t : targets()) {
            sb.append("| ").append(t.description()).append(" | ").append(t.rows().size()).append(" | ")
                .append(t.rows().isEmpty() || t.information() ? "-" : t.met() ? "yes" : "**no**").append(" | ").append(t.evidence()).append(" |\n");
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
