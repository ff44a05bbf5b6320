package io.ratatosk.bench.workload;

import java.util.SplittableRandom;

/**
 * The Zipf distribution over ranks {@code 0..n-1}: rank {@code r} is drawn with probability
 * {@code (r + 1)^-s / H(n, s)}, where {@code H(n, s)} is the sum of {@code k^-s} for {@code k = 1..n}.
 * Drawn by inverse transform: a uniform number times {@code H(n, s)}, looked up by binary search in
 * the cumulative weights, so a draw costs {@code log2 n} comparisons and no allocation. The benchmarks'
 * one Zipf generator (the JMH page ids, {@code ./bench throughput}): the same seed gives the same ranks.
 * Immutable; the random source is the caller's, so one instance serves any number of threads.
 */
public final class Zipf {
    private final double exponent;
    /** {@code cumulative[r]}: the sum of {@code k^-s} for {@code k = 1..r+1}; the last is {@code H(n, s)}. */
    private final double[] cumulative;

    /**
     * @param n        the number of ranks, at least 1
     * @param exponent the skew {@code s}, at least 0 (0 is uniform; YCSB's default is 0.99)
     */
    public Zipf(int n, double exponent) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1: n=" + n);
        }
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("exponent must be finite and at least 0: exponent=" + exponent);
        }
        this.exponent = exponent;
        this.cumulative = new double[n];
        double sum = 0;
        for (int rank = 1; rank <= n; rank++) {
            sum += 1.0 / Math.pow(rank, exponent);
            cumulative[rank - 1] = sum;
        }
    }

    /** The number of ranks. */
    public int n() {
        return cumulative.length;
    }

    public double exponent() {
        return exponent;
    }

    /** The generalized harmonic number {@code H(n, s)}: the sum of the weights. */
    public double harmonic() {
        return cumulative[cumulative.length - 1];
    }

    /** The probability of rank {@code rank} (0-based): {@code (rank + 1)^-s / H(n, s)}. */
    public double probability(int rank) {
        if (rank < 0 || rank >= cumulative.length) {
            throw new IllegalArgumentException("rank must be in [0, " + cumulative.length + "): rank=" + rank);
        }
        return 1.0 / Math.pow(rank + 1, exponent) / harmonic();
    }

    /** Draws a rank in {@code [0, n)}, the most probable first. */
    public int nextRank(SplittableRandom random) {
        return firstAtLeast(random.nextDouble() * harmonic());
    }

    /** The smallest rank whose cumulative weight reaches {@code value}. */
    private int firstAtLeast(double value) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
