package io.ratatosk.bench.ldbc.gen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Made-up names and words, built from syllables by a fixed seed so every generated graph draws
 * from the same lists: first and last names, place names, and a vocabulary for message text.
 * Popular entries come first; {@link #cubedIndex} draws an index with a skew towards them.
 */
final class NameBank {
    private static final String[] ONSETS = {"", "b", "br", "c", "ch", "d", "f", "g", "h", "j", "k", "l", "m", "n",
        "p", "r", "s", "sh", "st", "t", "th", "v", "w", "y", "z"};
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "io", "ou"};
    private static final String[] CODAS = {"", "", "n", "r", "s", "l", "m", "k", "t", "nd", "rk"};

    final List<String> firstNames;
    final List<String> lastNames;
    final List<String> placeNames;
    final List<String> words;

    NameBank() {
        SplittableRandom random = new SplittableRandom(0x5EED_0F_4A3E5L);
        firstNames = distinct(random, 400, 2, 3, true);
        lastNames = distinct(random, 1500, 2, 4, true);
        placeNames = distinct(random, 2000, 2, 4, true);
        words = distinct(random, 600, 1, 3, false);
    }

    private static List<String> distinct(SplittableRandom random, int count, int minSyllables, int maxSyllables,
                                         boolean capitalised) {
        Set<String> set = new LinkedHashSet<>();
        while (set.size() < count) {
            int syllables = minSyllables + random.nextInt(maxSyllables - minSyllables + 1);
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < syllables; i++) {
                s.append(ONSETS[random.nextInt(ONSETS.length)]).append(VOWELS[random.nextInt(VOWELS.length)])
                    .append(CODAS[random.nextInt(CODAS.length)]);
            }
            String w = s.toString();
            if (w.length() >= 2) {
                set.add(capitalised ? w.substring(0, 1).toUpperCase(Locale.ROOT) + w.substring(1) : w);
            }
        }
        return new ArrayList<>(set);
    }

    /**
     * An index in [0, n) skewed towards 0: the cube of a uniform number, scaled, so that
     * {@code P(index < k) ~ (k / n)^(1/3)}. A power-law skew, but not Zipf's (which
     * {@code io.ratatosk.bench.workload.Zipf} draws); kept as it is because the generated graphs, and
     * every figure measured on them, depend on it.
     */
    static int cubedIndex(SplittableRandom random, int n) {
        double u = random.nextDouble();
        return (int) (u * u * u * n);
    }
}
