package io.ratatosk.bench.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --json} file. One trace: a trace object. Several (or {@code --trace-dir}):
 * {@code {"traces": [trace objects], "summary": {...}}}. The shapes are in docs/simulator.md.
 */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    public static void write(Path file, List<TraceResult> traces, SimulationSummary summary) throws IOException {
        ObjectNode root;
        if (summary == null) {
            root = trace(traces.get(0));
        } else {
            root = MAPPER.createObjectNode();
            ArrayNode array = root.putArray("traces");
            traces.forEach(t -> array.add(trace(t)));
            root.set("summary", summary(summary));
        }
        try (OutputStream out = Files.newOutputStream(file)) { // NIO's exceptions say why, for OutputFile.write
            MAPPER.writeValue(out, root);
        }
    }

    static ObjectNode trace(TraceResult t) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("trace", t.trace());
        node.put("format", t.format());
        node.put("requests", t.requests());
        node.put("distinct", t.distinct());
        ArrayNode results = node.putArray("results");
        for (String policy : t.policies()) {
            for (int size : t.sizes()) {
                HitCount h = t.find(policy, size).orElseThrow();
                ObjectNode r = results.addObject();
                r.put("policy", policy);
                r.put("size", size);
                r.put("hits", h.hits());
                r.put("hitRatio", ratioOfPercent(h.hitPercent()));
                if (!h.state().isEmpty()) {
                    r.put("state", h.state());
                }
                if (h.timeline() != null) {
                    ObjectNode timeline = r.putObject("timeline");
                    timeline.put("bucket", h.timelineBucket());
                    ArrayNode hits = timeline.putArray("hits");
                    for (long bucketHits : h.timeline()) {
                        hits.add(bucketHits);
                    }
                }
            }
        }
        return node;
    }

    private static ObjectNode summary(SimulationSummary s) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("baseline", s.baseline());
        ArrayNode policies = node.putArray("policies");
        for (SimulationSummary.PolicyScore p : s.scores()) {
            ObjectNode o = policies.addObject();
            o.put("policy", p.policy());
            o.put("geometricMean", round4(p.geometricMean()));
            o.put("arithmeticMean", round4(p.arithmeticMean()));
            o.put("pairs", p.pairs());
            o.put("wins", p.wins());
        }
        ArrayNode winners = node.putArray("winners");
        for (SimulationSummary.Winner w : s.winners()) {
            ObjectNode o = winners.addObject();
            o.put("trace", w.trace());
            o.put("size", w.size());
            o.put("sizeSpec", w.sizeText());
            ArrayNode names = o.putArray("policies");
            w.policies().forEach(names::add);
            o.put("hitRatio", ratioOfPercent(w.hitPercent()));
        }
        return node;
    }

    /**
     * A hit ratio with 4 decimals, the table's hit % ({@link HitCount#percent}) over 100: rounded here on its own
     * (half-even from the shortest decimal of hits / requests), it said 0.6286 where the table said 62.85 (62,855 of
     * 100,000), one in twenty results of 100,000 requests.
     */
    private static BigDecimal ratioOfPercent(String percent) {
        return new BigDecimal(percent).movePointLeft(2);
    }

    private static BigDecimal round4(double v) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_EVEN) : null;
    }
}
