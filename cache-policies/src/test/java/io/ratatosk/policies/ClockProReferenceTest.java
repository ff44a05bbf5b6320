package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.replay.PolicyReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Pins clock-pro and clock-pro-plus to the reference CLOCK-Pro figures: within 1.0 point of the
 * ClockPro and ClockPro+ columns of {@code anchors/caffeine-sim-lirs.txt} on LIRS traces of
 * every kind (loops, scans, mixes), at every size listed there; and the authors' own C code
 * (non-adaptive, 5% cold, ghosts capped at the frame count) on cs, as {@code policies.md} quotes it.
 * With the authors' rule for correlated references ({@code pagecache.clockpro.authors_correlation}),
 * every one of those figures, and multi1's (where the default rule moves most), to the hundredth.
 * The traces and the figures ship with the repository ({@link TestData}).
 */
class ClockProReferenceTest {
    private static final double TOLERANCE = 1.0;
    private static final List<String> TRACES = List.of("cs", "gli", "multi2", "multi3", "loop", "scan", "ps");
    private static final List<String> EXACT_TRACES = List.of("cs", "gli", "multi1", "multi2", "multi3", "loop", "scan", "ps");
    /** The anchors' figures are rounded to the hundredth. */
    private static final double ROUNDING = 0.005 + 1e-9;
    private static final Pattern TRACE_HEADER = Pattern.compile("# \\.\\./traces/(\\S+)\\.trace\\.gz .*");
    private static final Pattern SIZE_ROW = Pattern.compile("size=(\\d+) \\| (.*)");
    private static final Map<String, String> POLICY_OF_COLUMN = Map.of("ClockPro", "clock-pro", "ClockPro+", "clock-pro-plus");

    private record Reference(String trace, int size, String policy, double hitPercent) {
    }

    @TestFactory
    Stream<DynamicTest> clockProAndClockProPlusStayWithinOnePointOfTheReference() throws IOException {
        return referenceTests(TRACES, Map.of(), TOLERANCE, " ~ ", "");
    }

    @TestFactory
    Stream<DynamicTest> withTheAuthorsCorrelationRuleEveryFigureIsTheReferenceToTheHundredth() throws IOException {
        return referenceTests(EXACT_TRACES, Map.of("pagecache.clockpro.authors_correlation", "true"), ROUNDING, " = ",
            " with the authors' correlation rule");
    }

    /** One test per anchor figure of {@code traces}: the policy's hit ratio with {@code flags} within {@code tolerance} of it. */
    private static Stream<DynamicTest> referenceTests(List<String> traces, Map<String, String> flags, double tolerance,
                                                      String relation, String setting) throws IOException {
        List<Reference> references = references(TestData.require("anchors/caffeine-sim-lirs.txt"), traces);
        assertTrue(references.size() >= 2 * 4 * traces.size(), "anchors hold " + references);
        Map<String, int[]> keysOf = new HashMap<>();
        return references.stream().map(reference -> DynamicTest.dynamicTest(reference.policy() + " " + reference.trace()
            + "@" + reference.size() + relation + reference.hitPercent(), () -> {
                int[] keys = keysOf.computeIfAbsent(reference.trace(), ClockProReferenceTest::read);
                assertEquals(reference.hitPercent(), hitPercent(keys, reference.size(), reference.policy(), flags), tolerance,
                    reference.policy() + setting + " on " + reference.trace() + " at " + reference.size() + " frames");
            }));
    }

    @TestFactory
    Stream<DynamicTest> fixedFivePercentColdWithOneGhostPerFrameIsTheAuthorsReferenceCode() {
        int[] cs = read("cs");
        Map<String, String> authorsCode = Map.of("pagecache.clockpro.adaptive", "false",
            "pagecache.clockpro.cold_min", "0.05", "pagecache.clockpro.ghosts", "1.0");
        int[] sizes = {500, 1000, 2000};
        double[] expected = {28.1, 57.2, 79.2};
        return java.util.stream.IntStream.range(0, sizes.length).mapToObj(i -> DynamicTest.dynamicTest(
            "cs@" + sizes[i] + " ~ " + expected[i], () -> assertEquals(expected[i],
                hitPercent(cs, sizes[i], "clock-pro", authorsCode), 0.05)));
    }

    private static double hitPercent(int[] keys, int size, String policy, Map<String, String> flags) {
        long hits = PolicyReplay.hits(keys, size, frames -> PolicyRegistry.create(policy, frames, PolicyRegistry.parse(flags)));
        return 100.0 * hits / keys.length;
    }

    private static int[] read(String trace) {
        try {
            return LirsTrace.read(TestData.require("traces/lirs/" + trace + ".trace.gz"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Reference> references(Path anchors, List<String> traces) throws IOException {
        List<Reference> references = new ArrayList<>();
        String trace = null;
        for (String line : Files.readAllLines(anchors)) {
            Matcher header = TRACE_HEADER.matcher(line);
            Matcher row = SIZE_ROW.matcher(line);
            if (header.matches()) {
                trace = traces.contains(header.group(1)) ? header.group(1) : null;
            } else if (trace != null && row.matches()) {
                for (String cell : row.group(2).split("\\|")) {
                    String[] parts = cell.trim().split(" ");
                    String policy = POLICY_OF_COLUMN.get(parts[0]);
                    if (policy != null) {
                        references.add(new Reference(trace, Integer.parseInt(row.group(1)), policy, Double.parseDouble(parts[1])));
                    }
                }
            }
        }
        return references;
    }
}
