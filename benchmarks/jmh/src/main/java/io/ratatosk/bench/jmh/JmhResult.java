package io.ratatosk.bench.jmh;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.sim.JsonErrors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One entry of JMH's JSON results: a benchmark at one set of parameters and one thread count, with its
 * primary score and the secondary ones (our {@code pagesRead}, the gc profiler's {@code gc.alloc.rate.norm}).
 *
 * @param benchmark the class's simple name and the method, e.g. {@code HitPathBenchmark.read}
 * @param error     half-width of JMH's 99.9% confidence interval; NaN with fewer than two iterations
 */
record JmhResult(String benchmark, Map<String, String> params, int threads, int forks, Score primary,
                 Map<String, Score> secondary, RunInfo run) {

    /** JMH's throughput mode, the only one the table compares. */
    static final String THROUGHPUT = "thrpt";
    /** The unit the table shows throughput in. */
    static final String OPS_PER_US = "ops/us";
    /** Per time unit JMH writes (-tu), the factor that makes its ops/unit ops/us. */
    private static final Map<String, Double> PER_MICROSECOND = Map.of("ns", 1e3, "us", 1.0, "ms", 1e-3, "s", 1e-6,
        "min", 1e-6 / 60);

    /** @param raw every iteration's value, fork after fork (JMH's rawData flattened); may be empty */
    record Score(double score, double error, String unit, double[] raw) {
        /** The score in ops/us if its unit is ops per a time unit; as it is otherwise (B/op, counts). */
        Score perMicrosecond() {
            Double factor = opsPerMicrosecond(unit);
            if (factor == null || factor == 1.0) {
                return factor == null ? this : new Score(score, error, OPS_PER_US, raw);
            }
            double[] scaled = raw.clone();
            for (int i = 0; i < scaled.length; i++) {
                scaled[i] *= factor;
            }
            return new Score(score * factor, error * factor, OPS_PER_US, scaled);
        }
    }

    /** The factor from {@code unit} (ops/s, ops/ms, ...) to ops/us; null if it is no throughput unit. */
    static Double opsPerMicrosecond(String unit) {
        return unit.startsWith("ops/") ? PER_MICROSECOND.get(unit.substring("ops/".length())) : null;
    }

    /** How the run was made, as JMH recorded it. */
    record RunInfo(String jmhVersion, String jdkVersion, String vmName, String vmVersion, int warmupIterations,
                   String warmupTime, int measurementIterations, String measurementTime) {
    }

    Optional<Score> secondary(String name) {
        return Optional.ofNullable(secondary.get(name));
    }

    static List<JmhResult> read(Path file) throws IOException {
        JsonNode root;
        try (JsonParser parser = new ObjectMapper().createParser(file.toFile())) {
            root = parser.getCodec().readTree(parser);
            // readTree stops after the first value: a second run's results joined after it were dropped unseen
            if (root != null && parser.nextToken() != null) {
                JsonLocation at = parser.currentTokenLocation();
                throw new IOException(file + " goes on after its " + (root.isArray() ? "array of results" : "first value")
                    + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + "): one JMH run's results per file,"
                    + " not several joined");
            }
        } catch (JsonProcessingException e) { // Jackson's message hides the file and spans lines
            throw new IOException(file + " is not JMH JSON output: " + JsonErrors.oneLine(e), e);
        }
        if (root == null || !root.isArray()) {
            throw new IOException(file + " is not JMH JSON output (expected an array of results)");
        }
        List<JmhResult> results = new ArrayList<>();
        Map<String, Integer> entries = new HashMap<>();
        for (JsonNode n : root) {
            JmhResult r = parse(file, n);
            // Two rows of one measurement would both be counted in the targets: not guessed which one is meant.
            Integer earlier = entries.putIfAbsent(r.measurement(), results.size() + 1);
            if (earlier != null) {
                throw new IOException(file + " lists " + r.describe() + " twice (entries " + earlier + " and "
                    + (results.size() + 1) + "): keep one");
            }
            results.add(r);
        }
        return results;
    }

    private static JmhResult parse(Path file, JsonNode n) throws IOException {
        JsonNode primary = n.get("primaryMetric");
        if (!n.hasNonNull("benchmark") || primary == null) {
            throw new IOException(file + ": an entry without benchmark or primaryMetric: " + n);
        }
        String fqn = n.get("benchmark").asText();
        int method = fqn.lastIndexOf('.');
        int cls = fqn.lastIndexOf('.', method - 1);
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode p = n.get("params");
        if (p != null) {
            p.fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
        }
        Map<String, Score> secondary = new LinkedHashMap<>();
        JsonNode s = n.get("secondaryMetrics");
        if (s != null) {
            s.fields().forEachRemaining(e -> secondary.put(e.getKey(), score(e.getValue())));
        }
        RunInfo run = new RunInfo(n.path("jmhVersion").asText(""), n.path("jdkVersion").asText(""),
            n.path("vmName").asText(""), n.path("vmVersion").asText(""), n.path("warmupIterations").asInt(),
            n.path("warmupTime").asText(""), n.path("measurementIterations").asInt(), n.path("measurementTime").asText(""));
        // ./bench jmh merges the forks of several rounds into one result, whose "forks" says 1: count them. A run of
        // -f 0 (inside the launcher's JVM) has a row per round too, and stays "forks 0": no fork made those.
        boolean unforked = n.has("forks") && n.get("forks").asInt() == 0;
        int forks = !unforked && primary.path("rawData").size() > 0 ? primary.path("rawData").size() : n.path("forks").asInt();
        JmhResult result = new JmhResult(fqn.substring(cls + 1), Collections.unmodifiableMap(params),
            threads(file, fqn, n.get("threads")), forks, score(primary), Collections.unmodifiableMap(secondary), run);
        return result.inOpsPerMicrosecond(file, n.path("mode").asText(THROUGHPUT), primary.get("score"),
            primary.get("scoreError"));
    }

    /**
     * The entry's thread count, 1 where it has none. asInt read "x", true and 1.5 as 1 and took 0 or -2 as they are:
     * a row of a measurement no run made.
     */
    private static int threads(Path file, String benchmark, JsonNode threads) throws IOException {
        if (threads == null) {
            return 1;
        }
        if (!threads.isIntegralNumber() || !threads.canConvertToInt() || threads.intValue() < 1) {
            throw new IOException(file + ": " + benchmark + " has the thread count " + threads + ", not a whole number of"
                + " at least 1");
        }
        return threads.intValue();
    }

    /**
     * What makes two results one measurement: the benchmark, its parameters whatever their order, and the threads. In
     * the order written, the same measurement with its parameters swapped was not seen twice: two rows of it.
     */
    String measurement() {
        return benchmark + " " + new TreeMap<>(params) + " t=" + threads;
    }

    /** "HitPathBenchmark.read side=ratatosk t=1": the benchmark, its parameters and threads, for messages. */
    String describe() {
        StringBuilder sb = new StringBuilder(benchmark);
        params.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.append(" t=").append(threads).toString();
    }

    /**
     * This result with its throughputs in ops/us, the table's unit, whatever -tu it was measured with. Refused, naming
     * it, where the table could only mislead: another mode (-bm avgt gives ms/op, which is no throughput), or a score
     * that is not a number of operations.
     */
    private JmhResult inOpsPerMicrosecond(Path file, String mode, JsonNode rawScore, JsonNode rawError) throws IOException {
        String unit = primary.unit().isEmpty() ? OPS_PER_US : primary.unit(); // no unit: as ./bench jmh writes it
        if (!mode.equals(THROUGHPUT) || opsPerMicrosecond(unit) == null) {
            throw new IOException(file + ": " + describe() + " is in mode " + mode + ", " + unit + "; the table compares"
                + " throughput (mode " + THROUGHPUT + ", ops/s, ops/ms, ops/us or ops/ns): run it with -bm thrpt");
        }
        if (!(primary.score() >= 0) || Double.isInfinite(primary.score())) {
            throw new IOException(file + ": " + describe() + " has the score " + rawScore + ", not a number of operations");
        }
        if (primary.score() == 0) { // no JMH run measures none; as a reference it made an infinite ratio the chart threw on
            throw new IOException(file + ": " + describe() + " has the score " + rawScore + ": no operation measured, no"
                + " throughput to compare");
        }
        if (primary.error() < 0) { // a half-width is never below 0: it was printed as "12.000 ± -1.000"
            throw new IOException(file + ": " + describe() + " has the score error " + rawError + ", not a half-width of 0"
                + " or more");
        }
        Map<String, Score> converted = new LinkedHashMap<>();
        secondary.forEach((name, score) -> converted.put(name, score.perMicrosecond())); // counters too: hit ratio, per CPU
        Score ops = new Score(primary.score(), primary.error(), unit, primary.raw()).perMicrosecond();
        return new JmhResult(benchmark, params, threads, forks, ops, Collections.unmodifiableMap(converted), run);
    }

    private static Score score(JsonNode m) {
        List<Double> raw = new ArrayList<>();
        for (JsonNode fork : m.path("rawData")) {
            for (JsonNode v : fork) {
                raw.add(number(v));
            }
        }
        return new Score(number(m.get("score")), number(m.get("scoreError")), m.path("scoreUnit").asText(""),
            raw.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** JMH writes "NaN" as a string where it has no number. */
    private static double number(JsonNode v) {
        if (v == null || v.isNull()) {
            return Double.NaN;
        }
        return v.isNumber() ? v.asDouble() : parseOrNaN(v.asText());
    }

    private static double parseOrNaN(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
