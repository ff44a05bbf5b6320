package io.ratatosk.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Draws against the analytic Zipf pmf: frequencies, a chi-square test, and the edges. */
class ZipfTest {
    private static final int DRAWS = 1_000_000;

    @Test
    void probabilitiesAreTheNormalisedPowerLaw() {
        Zipf zipf = new Zipf(4, 1.0);
        double h = 1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0;
        assertEquals(h, zipf.harmonic(), 1e-12);
        assertEquals(1 / h, zipf.probability(0), 1e-12);
        assertEquals(1 / (4 * h), zipf.probability(3), 1e-12);
        double total = 0;
        for (int r = 0; r < zipf.n(); r++) {
            total += zipf.probability(r);
        }
        assertEquals(1.0, total, 1e-12);
    }

    /** Rank 1 (index 0) draws 1/H(n, s) of the draws, within four standard deviations of a binomial. */
    @ParameterizedTest(name = "n={0} s={1}")
    @CsvSource({"10000, 0.99", "65536, 0.9", "1000, 0.5", "100, 1.5"})
    void theTopRankDrawsOneOverTheHarmonicNumber(int n, double s) {
        Zipf zipf = new Zipf(n, s);
        SplittableRandom random = new SplittableRandom(7);
        int top = 0;
        for (int i = 0; i < DRAWS; i++) {
            top += zipf.nextRank(random) == 0 ? 1 : 0;
        }
        double p = 1 / zipf.harmonic();
        double sigma = Math.sqrt(DRAWS * p * (1 - p));
        assertEquals(DRAWS * p, top, 4 * sigma, "rank 1 of Zipf(" + s + ") over " + n + ": p=" + p);
    }

    /**
     * Pearson's chi-square over the first 30 ranks and the rest pooled in a 31st cell (every expected
     * count over 5): 30 degrees of freedom, whose 0.1% critical value is 59.7. The seed is fixed, so the
     * outcome is too.
     */
    @ParameterizedTest(name = "n={0} s={1}")
    @CsvSource({"10000, 0.99", "200, 0.9", "5000, 1.2", "50, 0.0"})
    void rankFrequenciesPassAChiSquareTestAgainstThePmf(int n, double s) {
        Zipf zipf = new Zipf(n, s);
        int cells = 30;
        long[] observed = new long[cells + 1];
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < DRAWS; i++) {
            int rank = zipf.nextRank(random);
            observed[Math.min(rank, cells)]++;
        }
        double chiSquare = 0;
        double pooled = 1;
        for (int r = 0; r <= cells; r++) {
            double p = r < cells ? zipf.probability(r) : pooled;
            pooled -= r < cells ? p : 0;
            double expected = DRAWS * p;
            assertTrue(expected > 5, "cell " + r + " expects " + expected);
            chiSquare += (observed[r] - expected) * (observed[r] - expected) / expected;
        }
        assertTrue(chiSquare < 59.7, "chi-square " + chiSquare + " over 30 degrees of freedom");
    }

    @Test
    void everyDrawIsARankAndOneRankIsAlwaysZero() {
        Zipf zipf = new Zipf(37, 0.99);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            int rank = zipf.nextRank(random);
            assertTrue(rank >= 0 && rank < 37, "rank " + rank);
        }
        Zipf one = new Zipf(1, 0.99);
        assertEquals(0, one.nextRank(random));
        assertEquals(1.0, one.probability(0), 1e-12);
    }

    @Test
    void theSameSeedDrawsTheSameRanks() {
        Zipf zipf = new Zipf(1000, 0.9);
        SplittableRandom a = new SplittableRandom(5);
        SplittableRandom b = new SplittableRandom(5);
        for (int i = 0; i < 1000; i++) {
            assertEquals(zipf.nextRank(a), zipf.nextRank(b));
        }
    }

    @Test
    void badArgumentsAreRefusedNamingTheValue() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Zipf(0, 1)).getMessage().contains("n=0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Zipf(10, -0.5)).getMessage()
            .contains("exponent=-0.5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Zipf(10, Double.NaN)).getMessage()
            .contains("exponent=NaN"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Zipf(10, 1).probability(10)).getMessage()
            .contains("rank=10"));
    }
}
