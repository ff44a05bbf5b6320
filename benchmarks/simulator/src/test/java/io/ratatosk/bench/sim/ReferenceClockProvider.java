package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.util.List;
import java.util.Map;

/** A provider of {@link ReferenceClockPolicy} under the page cache's clock names, for tests. */
final class ReferenceClockProvider implements SpiPolicyProvider {
    @Override
    public List<String> names() {
        return List.of("muninn", "global-clock", "clock");
    }

    @Override
    public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
        switch (name) {
            case "clock":
                return new ReferenceClockPolicy(name, frames, 1, 0, 0);
            case "muninn":
                return new ReferenceClockPolicy(name, frames, flag(flags, "pagecache.clock.max_usage", 4), 1, 1);
            case "global-clock":
                return new ReferenceClockPolicy(name, frames, flag(flags, "pagecache.clock.max_usage", 7),
                    flag(flags, "pagecache.clock.fault_usage", 1), flag(flags, "pagecache.clock.evict_threshold", 1));
            default:
                throw new IllegalArgumentException("unknown policy " + name);
        }
    }

    private static int flag(Map<String, String> flags, String name, int defaultValue) {
        String v = flags.get(name);
        return v == null ? defaultValue : Integer.parseInt(v);
    }

    static PolicyCatalog catalog() {
        return new PolicyCatalog(new ReferenceClockProvider(), PolicyFlags.standard());
    }
}
