package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.run.ResultDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays a {@code --dump-results} file against a {@link ReferenceGraph} the way the brief's checker
 * does: each update line is applied to the reference, each read line's rows must equal the
 * reference's answer given every update before it.
 */
final class DumpReplay {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a replay went through: reads per type (and how many had rows), updates per type. */
    record Counts(Map<QueryType, int[]> reads, Map<String, Integer> updates) {
        int updateTotal() {
            return updates.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private DumpReplay() {
    }

    static Counts replay(Path dump, ReferenceGraph reference) throws IOException {
        Map<QueryType, int[]> reads = new EnumMap<>(QueryType.class);
        Map<String, Integer> updates = new LinkedHashMap<>();
        long lineNo = 0;
        for (String line : Files.readAllLines(dump, StandardCharsets.UTF_8)) {
            lineNo++;
            JsonNode node = JSON.readTree(line);
            if (node.has("update")) {
                String type = node.get("update").asText();
                reference.apply(type, node.get("params"));
                updates.merge(type, 1, Integer::sum);
                continue;
            }
            QueryType type = QueryType.valueOf(node.get("query").asText());
            Map<String, Object> params = new LinkedHashMap<>();
            for (String name : type.parameters()) {
                JsonNode v = node.get("params").get(name);
                params.put(name, QueryType.isNumeric(name) ? (Object) v.asLong() : v.asText());
            }
            Query q = new Query(type, params);
            List<List<Object>> expected = reference.run(q);
            List<List<Object>> actual = JSON.convertValue(node.get("rows"), new TypeReference<List<List<Object>>>() {
            });
            long at = lineNo;
            assertEquals(ResultDump.line(q, LdbcTestData.canonical(type, expected)),
                ResultDump.line(q, LdbcTestData.canonical(type, actual)), () -> "dump line " + at + ": " + q);
            int[] c = reads.computeIfAbsent(type, k -> new int[2]);
            c[0]++;
            c[1] += expected.isEmpty() ? 0 : 1;
        }
        return new Counts(reads, updates);
    }
}
