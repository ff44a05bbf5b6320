package io.ratatosk.bench.sim;

import java.util.List;
import java.util.Locale;

/**
 * A trace's timelines as text ({@code ./bench sim --timeline N}): per cache size, a row per bucket of N requests
 * (labelled by its first request) and a column per policy, each cell that policy's hit ratio in that bucket. Where a
 * policy changes what it does during the run (best-of switching experts) this shows when, and what it cost.
 */
public final class TimelineTable {
    private TimelineTable() {
    }

    /** The timelines of {@code r}, or "" if its replays counted none. */
    public static String render(TraceResult r) {
        StringBuilder out = new StringBuilder();
        for (int size : r.sizes()) {
            List<HitCount> columns = r.policies().stream().map(policy -> r.find(policy, size).orElseThrow()).toList();
            HitCount first = columns.get(0);
            if (first.timeline() == null) {
                continue;
            }
            int bucket = first.timelineBucket();
            out.append(String.format(Locale.ROOT, "%s @ %d: hit %% per %,d requests%n", r.trace(), size, bucket));
            int labelWidth = Math.max("request".length(), String.format(Locale.ROOT, "%,d", (long) r.requests()).length());
            out.append(ResultTable.pad("request", labelWidth));
            for (String policy : r.policies()) {
                out.append("  ").append(ResultTable.pad(policy, cellWidth(policy)));
            }
            out.append('\n');
            for (int i = 0; i < first.timeline().length; i++) {
                out.append(String.format(Locale.ROOT, "%," + labelWidth + "d", (long) i * bucket));
                for (int p = 0; p < columns.size(); p++) {
                    // as the table rounds: %.2f of 100 * ratio said 62.85 where the table said 62.84 (62,845 of 100,000)
                    out.append(String.format(Locale.ROOT, "  %" + cellWidth(r.policies().get(p)) + "s",
                        columns.get(p).bucketHitPercent(i)));
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    /** A policy's column: its name's width, at least a hit ratio's ("100.00"). */
    private static int cellWidth(String policy) {
        return Math.max(7, policy.length());
    }
}
