package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.EvictionPolicies;
import io.ratatosk.policies.PolicySettings;
import java.util.List;
import java.util.Map;

/**
 * The production {@link SpiPolicyProvider}: every policy cache-policies' {@link EvictionPolicies}
 * knows, with flags handed over as text through {@link PolicySettings#of}, exactly as the page cache
 * would configure them.
 */
final class PageCachePolicies implements SpiPolicyProvider {
    @Override
    public List<String> names() {
        return EvictionPolicies.NAMES;
    }

    @Override
    public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
        return EvictionPolicies.create(name, frames, PolicySettings.of(flags));
    }
}
