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
 */
public record HitCount(String policy, int size, long hits, long requests, long millis, String state) {
    public HitCount(String policy, int size, long hits, long requests, long millis) {
        this(policy, size, hits, requests, millis, "");
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
