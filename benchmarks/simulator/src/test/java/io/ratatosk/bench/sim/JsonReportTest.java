package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonReportTest {
    /**
     * The JSON's hitRatio is the table's hit % over 100, the same rounding: 62,855 of 100,000 is 62.85 in the table
     * (rounded from the double's exact binary value, as the anchors were printed) and was 0.6286 in the JSON (rounded
     * half-even from the shortest decimal of another double), in results and in the summary's winners alike.
     */
    @Test
    void hitRatiosAreTheTablesHitPercentOverAHundred(@TempDir Path dir) throws Exception {
        List<HitCount> hits = List.of(new HitCount("a", 10, 62_855, 100_000, 0), new HitCount("opt", 10, 70_000, 100_000, 0));
        TraceResult r = new TraceResult("x", "lirs", 100_000, 100, List.of("a", "opt"), List.of(10), List.of("10"), hits, 0);
        String table = ResultTable.render(r);
        assertTrue(table.lines().anyMatch(line -> line.matches("a +62\\.85 +89\\.8")), table);
        Path file = dir.resolve("r.json");
        JsonReport.write(file, List.of(r, r), SimulationSummary.of(List.of(r, r)));
        JsonNode root = new ObjectMapper().readTree(Files.readString(file));
        JsonNode result = root.get("traces").get(0).get("results").get(0);
        assertEquals("0.6285", result.get("hitRatio").decimalValue().toPlainString(), result.toString());
        JsonNode winner = root.get("summary").get("winners").get(0);
        assertEquals("0.6285", winner.get("hitRatio").decimalValue().toPlainString(), winner.toString());
    }
}
