package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.replay.PolicyReplay;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays the LIRS traces and checks clock, muninn, global-clock and deferred-lru (pulled on every
 * hit, which makes it an exact LRU) against every row of
 * {@code anchors/refsim-public.txt} for those traces, to the two decimals shown. The traces and the
 * figures ship with the repository ({@link TestData}), so this runs on any clone.
 */
class RefsimAnchorsTest {
    private static final Pattern TRACE_HEADER = Pattern.compile("# (\\S+) requests=(\\d+) unique=(\\d+)");
    private static final Pattern SIZE_ROW = Pattern.compile("size=(\\d+) (.*)");
    private static final Pattern COLUMN = Pattern.compile("(\\w+)=([\\d.]+)%");
    private static final List<String> REQUIRED_TRACES = List.of("cpp.trace.gz", "multi1.trace.gz", "sprite.trace.gz");

    /** Anchor column -> the policies (by name and flags) that must reproduce it. */
    private static final Map<String, List<PolicyUnderTest>> POLICIES_BY_COLUMN = Map.of(
        "CLOCK", List.of(new PolicyUnderTest("clock", Map.of())),
        "MUNINN4", List.of(new PolicyUnderTest("muninn", Map.of()),
            new PolicyUnderTest("global-clock", Map.of("pagecache.clock.max_usage", "4"))),
        "MUNINN7", List.of(new PolicyUnderTest("global-clock", Map.of())),
        // Pulled on every hit, DeferredLRU is an exact LRU.
        "LRU", List.of(new PolicyUnderTest("deferred-lru", Map.of("pagecache.deferred_lru.pull_threshold", "1"))));

    private record PolicyUnderTest(String name, Map<String, String> flags) {
        @Override
        public String toString() {
            return flags.isEmpty() ? name : name + flags;
        }
    }

    @TestFactory
    Stream<DynamicNode> clockPoliciesReproduceTheRefsimAnchors() throws IOException {
        Path anchors = TestData.require("anchors/refsim-public.txt");

        List<DynamicNode> perTrace = new ArrayList<>();
        List<String> covered = new ArrayList<>();
        String trace = null;
        List<DynamicNode> rows = new ArrayList<>();
        int[] keys = null;
        for (String line : Files.readAllLines(anchors)) {
            Matcher header = TRACE_HEADER.matcher(line);
            Matcher row = SIZE_ROW.matcher(line);
            if (header.matches()) {
                addTrace(perTrace, trace, rows);
                rows = new ArrayList<>();
                Path file = TestData.find("traces/lirs/" + header.group(1)).orElse(null); // the LIRS traces only
                trace = file != null ? header.group(1) : null;
                if (trace != null) {
                    keys = LirsTrace.read(file);
                    covered.add(trace);
                    int[] replay = keys;
                    long requests = Long.parseLong(header.group(2));
                    long unique = Long.parseLong(header.group(3));
                    rows.add(DynamicTest.dynamicTest("requests=" + requests + " unique=" + unique, () -> {
                        assertEquals(requests, replay.length);
                        assertEquals(unique, Arrays.stream(replay).distinct().count());
                    }));
                }
            } else if (trace != null && row.matches()) {
                int size = Integer.parseInt(row.group(1));
                Matcher column = COLUMN.matcher(row.group(2));
                while (column.find()) {
                    for (PolicyUnderTest policy : POLICIES_BY_COLUMN.getOrDefault(column.group(1), List.of())) {
                        rows.add(hitRatioTest(keys, size, column.group(1), column.group(2), policy));
                    }
                }
            }
        }
        addTrace(perTrace, trace, rows);
        assertTrue(covered.containsAll(REQUIRED_TRACES), "anchors cover " + covered);
        return perTrace.stream();
    }

    private static void addTrace(List<DynamicNode> perTrace, String trace, List<DynamicNode> rows) {
        if (trace != null) {
            perTrace.add(DynamicContainer.dynamicContainer(trace, rows.stream()));
        }
    }

    private static DynamicTest hitRatioTest(int[] keys, int size, String column, String expected,
                                            PolicyUnderTest policy) {
        return DynamicTest.dynamicTest("size=" + size + " " + column + "=" + expected + "% " + policy, () -> {
            long hits = PolicyReplay.hits(keys, size,
                frames -> PolicyRegistry.create(policy.name(), frames, PolicyRegistry.parse(policy.flags())));
            // As C's printf rounds: the double's exact binary value, to two decimals (54415 of 100000 is 54.41).
            String percent = new BigDecimal(100.0 * hits / keys.length).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
            assertEquals(expected, percent,
                policy + " at " + size + " frames: " + hits + " hits of " + keys.length);
        });
    }
}
