package io.ratatosk.bench.sim;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * One policy's result at one cache size on one trace.
 *
 * @param policy   the policy as written, overrides included
 * @param size     the cache size in entries
 * @param hits     requests that found their key resident
 * @param requests all requests of the trace
 * @param millis   wall time of the replay
 * @param state    what the policy said of its state at the end (best-of: the expert it follows), or ""
 * @param timeline hits in each bucket of {@code timelineBucket} requests, the last one over the requests left; null
 *                 unless {@code ./bench sim --timeline} asked for it
 * @param timelineBucket requests per timeline bucket, 0 without a timeline
 */
public record HitCount(String policy, int size, long hits, long requests, long millis, String state, long[] timeline,
        int timelineBucket) {
    public HitCount(String policy, int size, long hits, long requests, long millis, String state) {
        this(policy, size, hits, requests, millis, state, null, 0);
    }

    public HitCount(String policy, int size, long hits, long requests, long millis) {
        this(policy, size, hits, requests, millis, "");
    }

    /** This result under another size: a size above the trace's distinct keys reports the replay at that count. */
    public HitCount atSize(int label) {
        return new HitCount(policy, label, hits, requests, millis, state, timeline, timelineBucket);
    }

    /** The hit ratio of timeline bucket {@code i} (its requests are the bucket's size but for the last one). */
    public double bucketHitRatio(int i) {
        long first = (long) i * timelineBucket;
        return (double) timeline[i] / (Math.min(requests, first + timelineBucket) - first);
    }

    /** The hit % of timeline bucket {@code i}, rounded as {@link #hitPercent} rounds the whole run's. */
    public String bucketHitPercent(int i) {
        long first = (long) i * timelineBucket;
        return percent(timeline[i], Math.min(requests, first + timelineBucket) - first);
    }

    public double hitRatio() {
        return (double) hits / requests;
    }

    /** The hit ratio in percent with two decimals, as the anchors print it. */
    public String hitPercent() {
        return percent(hits, requests);
    }

    /**
     * {@code 100 * part / whole} with two decimals, rounded from the double's exact binary value
     * (as C's and Python's {@code %.2f} do), not from its shortest decimal form as Java's
     * {@code String.format} does: 62845 of 100000 is 62.84, because the double nearest 62.845 lies
     * below it. The anchors were printed this way.
     */
    public static String percent(long part, long whole) {
        return new BigDecimal(100.0 * part / whole).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
