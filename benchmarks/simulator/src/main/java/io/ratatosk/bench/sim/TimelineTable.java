package io.ratatosk.bench.sim;

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
            HitCount first = r.find(r.policies().get(0), size).orElseThrow();
            if (first.timeline() == null) {
                continue;
            }
            int bucket = first.timelineBucket();
            out.append(String.format(Locale.ROOT, "%s @ %d: hit %% per %,d requests%n", r.trace(), size, bucket));
            int labelWidth = Math.max("request".length(), String.format(Locale.ROOT, "%,d", (long) r.requests()).length());
            out.append(pad("request", labelWidth, false));
            for (String policy : r.policies()) {
                out.append("  ").append(pad(policy, Math.max(7, policy.length()), false));
            }
            out.append('\n');
            for (int i = 0; i < first.timeline().length; i++) {
                out.append(pad(String.format(Locale.ROOT, "%,d", (long) i * bucket), labelWidth, true));
                for (String policy : r.policies()) {
                    HitCount h = r.find(policy, size).orElseThrow();
                    String cell = String.format(Locale.ROOT, "%.2f", 100 * h.bucketHitRatio(i));
                    out.append("  ").append(pad(cell, Math.max(7, policy.length()), true));
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static String pad(String s, int width, boolean right) {
        if (s.length() >= width) {
            return s;
        }
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }
}
