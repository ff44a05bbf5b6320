package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A trace's results as a text table: a row per policy; per size, the hit ratio in percent and,
 * when opt ran, the policy's hits as a percentage of OPT's.
 */
public final class ResultTable {
    private ResultTable() {
    }

    public static String render(TraceResult r) {
        boolean withOpt = r.policies().contains("opt");
        int nameWidth = Math.max("policy".length(), r.policies().stream().mapToInt(String::length).max().orElse(0));
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < r.sizes().size(); i++) {
            labels.add(r.sizeTexts().get(i).startsWith("/")
                ? r.sizes().get(i) + " (" + r.sizeTexts().get(i) + ")" : String.valueOf(r.sizes().get(i)));
        }
        int cellWidth = withOpt ? 16 : 8;
        // A label wider than its cell (2147483647, "1223 (/1)") widens every cell, so that no two labels run together.
        String gap = " ".repeat(Math.max(0, labels.stream().mapToInt(String::length).max().orElse(0) + 2 - cellWidth));
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s: %,d requests, %,d distinct keys (%s), %.1f s%n", r.trace(),
            r.requests(), r.distinct(), r.format(), r.millis() / 1000.0));
        out.append(pad("size", nameWidth));
        for (String label : labels) {
            out.append(gap).append(String.format(Locale.ROOT, "%" + cellWidth + "s", label));
        }
        out.append('\n').append(pad("policy", nameWidth));
        for (int i = 0; i < r.sizes().size(); i++) {
            out.append(gap).append(withOpt ? "   hit %   % OPT" : "   hit %");
        }
        out.append('\n');
        for (String policy : r.policies()) {
            out.append(pad(policy, nameWidth));
            for (int size : r.sizes()) {
                HitCount h = r.find(policy, size).orElseThrow();
                out.append(gap).append(String.format(Locale.ROOT, "%8s", h.hitPercent()));
                if (withOpt) {
                    out.append(ofOpt(h, r.opt(size)));
                }
            }
            out.append('\n');
        }
        if (r.sizes().stream().anyMatch(n -> n > r.distinct())) {
            out.append(String.format(Locale.ROOT, "sizes above the %,d distinct keys were simulated at %,d: a cache that"
                + " holds every key never evicts, so any larger one hits as often%n", r.distinct(), r.distinct()));
        }
        for (String policy : r.policies()) { // what a policy said of itself at the end: best-of, the expert it follows
            for (int size : r.sizes()) {
                String state = r.find(policy, size).orElseThrow().state();
                if (!state.isEmpty()) {
                    out.append(String.format(Locale.ROOT, "%s @ %d: %s%n", policy, size, state));
                }
            }
        }
        return out.toString();
    }

    private static String ofOpt(HitCount h, Optional<HitCount> opt) {
        if (opt.isEmpty() || opt.get().hits() == 0) {
            return "       -";
        }
        return String.format(Locale.ROOT, "%8.1f", 100.0 * h.hits() / opt.get().hits());
    }

    public static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
