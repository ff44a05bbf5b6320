package io.ratatosk.bench.jmh;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.sim.JsonErrors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of JMH's JSON results: a benchmark at one set of parameters and one thread count, with its
 * primary score and the secondary ones (our {@code pagesRead}, the gc profiler's {@code gc.alloc.rate.norm}).
 *
 * @param benchmark the class's simple name and the method, e.g. {@code HitPathBenchmark.read}
 * @param error     half-width of JMH's 99.9% confidence interval; NaN with fewer than two iterations
 */
record JmhResult(String benchmark, Map<String, String> params, int threads, int forks, Score primary,
                 Map<String, Score> secondary, RunInfo run) {

    /** @param raw every iteration's value, fork after fork (JMH's rawData flattened); may be empty */
    record Score(double score, double error, String unit, double[] raw) {
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
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (JsonProcessingException e) { // Jackson's message hides the file and spans lines
            throw new IOException(file + " is not JMH JSON output: " + JsonErrors.oneLine(e), e);
        }
        if (root == null || !root.isArray()) {
            throw new IOException(file + " is not JMH JSON output (expected an array of results)");
        }
        List<JmhResult> results = new ArrayList<>();
        for (JsonNode n : root) {
            results.add(parse(file, n));
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
        // ./bench jmh merges the forks of several rounds into one result, whose "forks" says 1: count them
        int forks = primary.path("rawData").size() > 0 ? primary.path("rawData").size() : n.path("forks").asInt();
        return new JmhResult(fqn.substring(cls + 1), Collections.unmodifiableMap(params), n.path("threads").asInt(1),
            forks, score(primary), Collections.unmodifiableMap(secondary), run);
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
