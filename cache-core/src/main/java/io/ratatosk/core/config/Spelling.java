package io.ratatosk.core.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** What a misspelt name was likely meant as: for error messages that say "did you mean ...?". */
public final class Spelling {
    private Spelling() {
    }

    /**
     * The candidate closest to {@code given} by edit distance, ignoring case, if one is at most a third of its own
     * length away (at least one edit): {@code munin} finds {@code muninn}, {@code clockpro} {@code clock-pro}; a name
     * far from every candidate finds none. On a tie, the first candidate wins.
     */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        String lower = given.toLowerCase(Locale.ROOT).strip();
        if (lower.isEmpty()) {
            return Optional.empty();
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = editDistance(lower, candidate.toLowerCase(Locale.ROOT));
            if (distance <= Math.max(1, candidate.length() / 3) && distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
    public static int editDistance(String a, String b) {
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
