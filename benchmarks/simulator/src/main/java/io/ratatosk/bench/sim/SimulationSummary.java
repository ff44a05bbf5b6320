package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run over several traces adds up to: per policy, the geometric mean over every (trace, size)
 * of its hits divided by OPT's, and at each trace and size which policy won (opt aside; ties share
 * the win). A ratio below {@value #FLOOR} enters the geometric mean as {@value #FLOOR}, so that a
 * trace a policy loses completely (LRU on a loop: 0 hits) drags its mean down hard without zeroing
 * it; the arithmetic mean is given beside it for that reason. Without an opt column both means are
 * over plain hit ratios instead.
 */
public record SimulationSummary(String baseline, List<PolicyScore> scores, List<Winner> winners) {
    static final double FLOOR = 0.01;

    /**
     * @param geometricMean  the geometric mean of hits / OPT hits (or of hit ratios without opt)
     * @param arithmeticMean the plain mean of the same ratios, unfloored
     */
    record PolicyScore(String policy, double geometricMean, double arithmeticMean, int pairs, int wins) {
    }

    /** The best policies (ties share the win) at one size of one trace, with their hits of the trace's requests. */
    record Winner(String trace, int size, String sizeText, List<String> policies, long hits, long requests) {
        double hitRatio() {
            return (double) hits / requests;
        }

        /** The hit % as the trace's table shows it ({@link HitCount#percent}). */
        String hitPercent() {
            return HitCount.percent(hits, requests);
        }
    }

    public static SimulationSummary of(List<TraceResult> traces) {
        boolean withOpt = traces.stream().allMatch(t -> t.policies().contains("opt"));
        List<String> policies = traces.isEmpty() ? List.of() : traces.get(0).policies();
        List<Winner> winners = new ArrayList<>();
        for (TraceResult t : traces) {
            for (int i = 0; i < t.sizes().size(); i++) {
                int size = t.sizes().get(i);
                long best = -1;
                List<String> bestPolicies = new ArrayList<>();
                for (String p : t.policies()) {
                    if (p.equals("opt")) {
                        continue;
                    }
                    long hits = t.find(p, size).orElseThrow().hits();
                    if (hits > best) {
                        best = hits;
                        bestPolicies.clear();
                    }
                    if (hits == best) {
                        bestPolicies.add(p);
                    }
                }
                // Where no policy hit (nor OPT, then), every one tied at 0 and took a win: wins exceeded pairs
                if (best > 0) {
                    winners.add(new Winner(t.trace(), size, t.sizeTexts().get(i), List.copyOf(bestPolicies), best,
                        t.requests()));
                }
            }
        }
        List<PolicyScore> scores = new ArrayList<>();
        for (String p : policies) {
            double logSum = 0;
            double sum = 0;
            int pairs = 0;
            for (TraceResult t : traces) {
                for (int size : t.sizes()) {
                    long hits = t.find(p, size).orElseThrow().hits();
                    double ratio;
                    if (withOpt) {
                        long opt = t.opt(size).orElseThrow().hits();
                        if (opt == 0) {
                            continue;
                        }
                        ratio = (double) hits / opt;
                    } else {
                        ratio = (double) hits / t.requests();
                    }
                    logSum += Math.log(Math.max(FLOOR, ratio));
                    sum += ratio;
                    pairs++;
                }
            }
            int wins = (int) winners.stream().filter(w -> w.policies().contains(p)).count();
            scores.add(new PolicyScore(p, pairs == 0 ? Double.NaN : Math.exp(logSum / pairs),
                pairs == 0 ? Double.NaN : sum / pairs, pairs, wins));
        }
        return new SimulationSummary(withOpt ? "opt" : "none", scores, winners);
    }

    /** A mean as a percentage with two decimals, or "-" where there was nothing to average. */
    private static String mean(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", 100 * ratio);
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        int nameWidth = Math.max(6, scores.stream().mapToInt(s -> s.policy().length()).max().orElse(0));
        String of = baseline.equals("opt") ? "% of OPT" : "hit %";
        out.append("summary over every trace and size: means of ").append(of).append(" (geometric: each ratio at least ")
            .append(FLOOR).append("); wins = sizes won, opt aside, ties share\n");
        out.append(ResultTable.pad("policy", nameWidth)).append(String.format(Locale.ROOT, "%18s%18s%8s%7s%n",
            "geomean " + of, "mean " + of, "pairs", "wins"));
        for (PolicyScore s : scores) {
            // no pair (OPT hit nothing anywhere): "-" as in the tables, where "NaN" read as a broken result
            out.append(ResultTable.pad(s.policy(), nameWidth)).append(String.format(Locale.ROOT, "%18s%18s%8d%7d%n",
                mean(s.geometricMean()), mean(s.arithmeticMean()), s.pairs(), s.wins()));
        }
        if (scores.stream().anyMatch(s -> s.pairs() == 0)) {
            out.append("-: no trace and size to average over (" + (baseline.equals("opt") ? "OPT hit nothing on any)\n"
                : "none)\n"));
        }
        out.append("\nwinners (best hit %, opt aside):\n");
        int traceWidth = winners.stream().mapToInt(w -> w.trace().length()).max().orElse(5);
        for (Winner w : winners) {
            String label = w.sizeText().startsWith("/") ? w.size() + " (" + w.sizeText() + ")" : String.valueOf(w.size());
            // Rounded as the trace's table rounds the same hits: %6.2f of 100 * ratio said 62.85 where the table, as the
            // anchors, said 62.84 (62,845 of 100,000), in about one in ten results of 100,000 requests
            out.append(ResultTable.pad(w.trace(), traceWidth)).append(String.format(Locale.ROOT, "  %-16s %6s  %s%n",
                label, w.hitPercent(), winnerNames(w.policies())));
        }
        return out.toString();
    }

    private static String winnerNames(List<String> names) {
        if (names.size() <= 3) {
            return String.join(" = ", names);
        }
        return String.join(" = ", names.subList(0, 3)) + " (+" + (names.size() - 3) + " tied)";
    }
}
