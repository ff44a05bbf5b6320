package io.ratatosk.bench.sim;

import java.util.List;
import java.util.Optional;

/**
 * Every result of one trace: per policy and size, in the order the policies and sizes were given.
 *
 * @param sizes the sizes in entries, parallel to {@code sizeTexts}
 */
public record TraceResult(String trace, String format, int requests, int distinct, List<String> policies,
                          List<Integer> sizes, List<String> sizeTexts, List<HitCount> results, long millis) {

    public Optional<HitCount> find(String policy, int size) {
        for (HitCount r : results) {
            if (r.policy().equals(policy) && r.size() == size) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** OPT's hits at {@code size}, if opt ran. */
    public Optional<HitCount> opt(int size) {
        return find("opt", size);
    }
}
