package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference figures of {@code anchors/refsim-public.txt}: per trace, its request and distinct
 * counts, and per size the hit percentages (as printed, two decimals) per column.
 */
record RefsimAnchors(List<TraceAnchor> traces) {

    /** Which simulator policies each anchor column stands for. */
    static final Map<String, List<String>> COLUMNS = Map.of(
        "LRU", List.of("lru"),
        "CLOCK", List.of("clock"),
        "MUNINN4", List.of("muninn", "global-clock:max_usage=4"),
        "MUNINN7", List.of("global-clock:max_usage=7"),
        "OPT", List.of("opt"));

    record TraceAnchor(String file, int requests, int distinct, Map<Integer, Map<String, String>> percentBySize) {
    }

    static RefsimAnchors parse(Path file) throws IOException {
        List<TraceAnchor> traces = new ArrayList<>();
        String name = null;
        int requests = 0;
        int distinct = 0;
        Map<Integer, Map<String, String>> sizes = null;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("# ")) {
                if (name != null) {
                    traces.add(new TraceAnchor(name, requests, distinct, sizes));
                }
                String[] parts = line.substring(2).split(" ");
                name = parts[0];
                requests = Integer.parseInt(parts[1].substring("requests=".length()));
                distinct = Integer.parseInt(parts[2].substring("unique=".length()));
                sizes = new LinkedHashMap<>();
            } else if (line.startsWith("size=")) {
                String[] parts = line.split(" ");
                Map<String, String> columns = new LinkedHashMap<>();
                for (int i = 1; i < parts.length; i++) {
                    String[] kv = parts[i].split("=");
                    columns.put(kv[0], kv[1].replace("%", ""));
                }
                sizes.put(Integer.parseInt(parts[0].substring("size=".length())), columns);
            }
        }
        if (name != null) {
            traces.add(new TraceAnchor(name, requests, distinct, sizes));
        }
        return new RefsimAnchors(traces);
    }
}
