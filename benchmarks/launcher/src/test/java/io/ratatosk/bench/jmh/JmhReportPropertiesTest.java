package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ratatosk.bench.BenchRun;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * {@code ./bench jmh-report --print-only} on JMH results where one value anywhere is replaced by another of any JSON
 * type (a word, a negative or huge number, null, an empty array or object), or removed, or the text is cut: it prints
 * the table (exit 0) or refuses in one line starting with the command's name (exit 1 or 2), never with a stack trace or
 * an exception's class name.
 */
class JmhReportPropertiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private Path dir;

    @BeforeProperty
    void folder() throws IOException {
        dir = Files.createTempDirectory("jmh-report-properties");
    }

    @AfterProperty
    void deleteFolder() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 40)
    void resultsWithAnyValueChangedArePrintedOrRefusedInOneLine(@ForAll long seed,
                                                                @ForAll @IntRange(min = 0, max = 9) int cut) throws IOException {
        Random random = new Random(seed);
        JsonNode results = JSON.readTree("[" + entry("ratatosk", 12.5) + "," + entry("muninn", 10.0) + "]");
        List<JsonNode> containers = new ArrayList<>();
        collect(results, containers);
        ContainerNode<?> target = (ContainerNode<?>) containers.get(random.nextInt(containers.size()));
        JsonNode replacement = anyValue(random);
        if (target instanceof ObjectNode object && object.size() > 0) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = names.get(random.nextInt(names.size()));
            if (random.nextInt(4) == 0) {
                object.remove(name);
            } else {
                object.set(name, replacement);
            }
        } else if (target instanceof ArrayNode array && array.size() > 0) {
            array.set(random.nextInt(array.size()), replacement);
        }
        String text = JSON.writeValueAsString(results);
        if (cut == 0) { // a file cut short, a tenth of the tries
            text = text.substring(0, random.nextInt(text.length()));
        }
        Path file = dir.resolve("results-" + seed + ".json");
        Files.writeString(file, text);
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "jmh-report", file.toString(), "--print-only");
        String said = err.toString();
        assertTrue(run.status() == 0 || run.status() == 1 || run.status() == 2, run.status() + " " + said + " for " + text);
        assertTrue(!said.contains("\tat ") && !said.matches("(?s).*[a-z]+\\.[A-Za-z.]*(Exception|Error)\\b.*"),
            said + " for " + text);
        if (run.status() != 0) {
            assertTrue(said.startsWith("bench jmh-report: ") && said.strip().lines().count() <= 2, said + " for " + text);
        }
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.elements().forEachRemaining(child -> collect(child, containers));
        }
    }

    private static JsonNode anyValue(Random random) {
        return switch (random.nextInt(12)) {
            case 0 -> NODES.textNode("x");
            case 1 -> NODES.numberNode(-1);
            case 2 -> NODES.numberNode(0);
            case 3 -> NODES.numberNode(1e308);
            case 4 -> NODES.nullNode();
            case 5 -> NODES.arrayNode();
            case 6 -> NODES.objectNode();
            case 7 -> NODES.booleanNode(true);
            case 8 -> NODES.textNode("NaN");
            case 9 -> NODES.numberNode(Long.MAX_VALUE);
            case 10 -> NODES.textNode("ops/s");
            default -> NODES.arrayNode().add(NODES.arrayNode().add("x"));
        };
    }

    /** One JMH result of HitPathBenchmark.read on {@code side}, as JMH writes it. */
    private static String entry(String side, double score) {
        return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"io.ratatosk.bench.jmh.HitPathBenchmark.read\",\"mode\":\"thrpt\","
            + "\"threads\":1,\"forks\":2,\"jdkVersion\":\"17\",\"vmName\":\"OpenJDK\",\"vmVersion\":\"17\","
            + "\"warmupIterations\":2,\"warmupTime\":\"500 ms\",\"measurementIterations\":2,\"measurementTime\":\"500 ms\","
            + "\"params\":{\"side\":\"" + side + "\",\"pages\":\"256\"},"
            + "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":0.5,\"scoreUnit\":\"ops/us\",\"rawData\":[["
            + score + "," + score + "],[" + score + "," + score + "]]},"
            + "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":0.001,\"scoreError\":0.0,\"scoreUnit\":\"B/op\","
            + "\"rawData\":[[0.001,0.001],[0.001,0.001]]}}}";
    }
}
