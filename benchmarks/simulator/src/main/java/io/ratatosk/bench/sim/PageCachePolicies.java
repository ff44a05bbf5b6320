package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import java.util.Map;

/**
 * The production {@link SpiPolicyProvider}: every policy of cache-policies' {@link PolicyRegistry}, its
 * flags parsed and checked by the registry exactly as the page cache's configuration parses them.
 */
final class PageCachePolicies implements SpiPolicyProvider {
    @Override
    public List<String> names() {
        return PolicyRegistry.NAMES;
    }

    @Override
    public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
        return PolicyRegistry.create(name, frames, PolicyRegistry.parse(flags));
    }
}
