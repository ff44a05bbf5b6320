package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.replay.PolicyReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Pins the issue-15 policies to Caffeine's simulator ({@code anchors/caffeine-sim-lirs.txt}): w-tinylfu
 * within 1.0 point of W-TinyLfu1% on the LIRS traces where the frame-array build follows the reference at
 * every size (docs/policies.md tells where it does not, and why), s3-fifo within 0.1 of S3Fifo (which follows
 * the authors' code) on every LIRS trace at every size, and w-tinylfu-adaptive within 1 point of the best
 * peer, Opt aside, on at least 36 of the 52 LIRS cells, with no collapse on the recency traces where LRU is
 * optimal.
 */
class TinyLfuAndS3FifoReferenceTest {
    private static final Map<String, Double> TOLERANCE = Map.of("w-tinylfu", 1.0, "s3-fifo", 0.1);
    private static final List<String> LIRS_TRACES = List.of("2_pools", "backf", "cpp", "cs", "gli", "loop", "multi1", "multi2",
        "multi3", "ps", "scan", "sprite", "zigzag");
    private static final Pattern TRACE_HEADER = Pattern.compile("# \\.\\./traces/(\\S+)\\.trace\\.gz .*");
    private static final Pattern SIZE_ROW = Pattern.compile("size=(\\d+) \\| (.*)");
    private static final Map<String, List<String>> FOLLOWED = Map.of(
        "w-tinylfu", List.of("2_pools", "cpp", "cs", "gli", "multi1", "ps"),
        "s3-fifo", LIRS_TRACES);
    private static final Map<String, String> COLUMN = Map.of("w-tinylfu", "WTinyLfu1%", "s3-fifo", "S3Fifo");
    private static final Map<String, int[]> TRACES = new HashMap<>();

    /** Per trace and size, every column of the anchors. */
    private static Map<String, Map<Integer, Map<String, Double>>> anchors() throws IOException {
        Path file = TestData.require("anchors/caffeine-sim-lirs.txt");
        Map<String, Map<Integer, Map<String, Double>>> cells = new LinkedHashMap<>();
        String trace = null;
        for (String line : Files.readAllLines(file)) {
            Matcher header = TRACE_HEADER.matcher(line);
            Matcher row = SIZE_ROW.matcher(line);
            if (header.matches()) {
                trace = header.group(1);
            } else if (trace != null && row.matches()) {
                Map<String, Double> columns = new LinkedHashMap<>();
                for (String cell : row.group(2).split("\\|")) {
                    String[] parts = cell.trim().split(" ");
                    columns.put(parts[0], Double.parseDouble(parts[1]));
                }
                cells.computeIfAbsent(trace, t -> new LinkedHashMap<>()).put(Integer.parseInt(row.group(1)), columns);
            }
        }
        return cells;
    }

    private static double hitPercent(String trace, int size, String policy) {
        int[] keys = TRACES.computeIfAbsent(trace, t -> {
            try {
                return LirsTrace.read(TestData.require("traces/lirs/" + t + ".trace.gz"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long hits = PolicyReplay.hits(keys, size, frames -> PolicyRegistry.create(policy, frames, PolicyRegistry.parse(Map.of())));
        return 100.0 * hits / keys.length;
    }

    @TestFactory
    Stream<DynamicTest> wTinyLfuAndS3FifoFollowCaffeinesSimulatorWhereTheirBuildsAgree() throws IOException {
        Map<String, Map<Integer, Map<String, Double>>> anchors = anchors();
        List<DynamicTest> tests = new ArrayList<>();
        FOLLOWED.forEach((policy, traces) -> {
            for (String trace : traces) {
                anchors.get(trace).forEach((size, columns) -> {
                    double reference = columns.get(COLUMN.get(policy));
                    tests.add(DynamicTest.dynamicTest(policy + " " + trace + "@" + size + " ~ " + reference,
                        () -> assertEquals(reference, hitPercent(trace, size, policy), TOLERANCE.get(policy))));
                });
            }
        });
        return tests.stream();
    }

    @Test
    void adaptiveIsWithinOnePointOfTheBestPeerOnMostCellsAndNeverCollapsesOnRecency() throws IOException {
        int within = 0;
        int cells = 0;
        List<String> misses = new ArrayList<>();
        for (var trace : anchors().entrySet()) {
            for (var size : trace.getValue().entrySet()) {
                double best = size.getValue().entrySet().stream().filter(e -> !e.getKey().equals("Opt"))
                    .mapToDouble(Map.Entry::getValue).max().orElseThrow();
                double adaptive = hitPercent(trace.getKey(), size.getKey(), "w-tinylfu-adaptive");
                cells++;
                if (adaptive >= best - 1) {
                    within++;
                } else {
                    misses.add(trace.getKey() + "@" + size.getKey() + " " + adaptive + " < " + best);
                }
                if (trace.getKey().equals("zigzag") && size.getKey() <= 500) {
                    assertTrue(adaptive >= best - 1, "zigzag@" + size.getKey() + ": " + adaptive + " against LRU's " + best);
                }
            }
        }
        assertEquals(52, cells);
        assertTrue(within >= 36, within + " of 52 within 1 point; missed " + misses);
    }
}
