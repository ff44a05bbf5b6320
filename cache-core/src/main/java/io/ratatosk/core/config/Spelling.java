package io.ratatosk.core.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** What a misspelt name was likely meant as: for error messages that say "did you mean ...?". */
public final class Spelling {
    private Spelling() {
    }

    /**
     * The candidate closest to {@code given}, ignoring case, if one is close at all ({@link #closeness}): {@code munin}
     * finds {@code muninn}, {@code clockpro} {@code clock-pro}; a name far from every candidate finds none. On a tie,
     * the first candidate wins.
     */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        String lower = given.toLowerCase(Locale.ROOT).strip();
        String best = null;
        double bestScore = Double.MAX_VALUE;
        for (String candidate : candidates) {
            double score = closeness(lower, candidate.toLowerCase(Locale.ROOT));
            if (score < bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The edit distance from {@code given} to {@code target} relative to the length of {@code target}, or
     * {@link Double#MAX_VALUE} when it is more than a third of that length (at least one edit is close) or
     * {@code given} is empty: the smaller, the likelier {@code given} was meant as {@code target}.
     */
    public static double closeness(String given, String target) {
        int close = Math.max(1, target.length() / 3);
        if (given.isEmpty() || Math.abs(given.length() - target.length()) > close) {
            // the distance is at least the difference in length: a pasted file as a flag name is not compared letter by
            // letter with every flag (that took seconds per candidate)
            return Double.MAX_VALUE;
        }
        int distance = editDistance(given, target);
        return distance <= close ? (double) distance / target.length() : Double.MAX_VALUE;
    }

    /** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
