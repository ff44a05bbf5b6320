package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.util.List;
import java.util.Map;

/**
 * The production {@link SpiPolicyProvider}: the policies of module cache-policies.
 *
 * <p>Until cache-policies publishes its {@code EvictionPolicies} registry this knows no policy, and
 * the simulator runs only its own columns (lru, opt, caffeine).
 */
final class PageCachePolicies implements SpiPolicyProvider {
    @Override
    public List<String> names() {
        return List.of();
    }

    @Override
    public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
        throw new IllegalArgumentException("cache-policies knows no policy '" + name + "' yet");
    }
}
