package io.ratatosk.bench.sim;

/**
 * One policy's result at one cache size on one trace.
 *
 * @param policy   the policy as written, overrides included
 * @param size     the cache size in entries
 * @param hits     requests that found their key resident
 * @param requests all requests of the trace
 * @param millis   wall time of the replay
 */
public record HitCount(String policy, int size, long hits, long requests, long millis) {
    public double hitRatio() {
        return (double) hits / requests;
    }
}
