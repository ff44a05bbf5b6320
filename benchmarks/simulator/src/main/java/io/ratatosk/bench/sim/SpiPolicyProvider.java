package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.util.List;
import java.util.Map;

/**
 * Where the simulator gets the page cache's own policies: their names, and an instance over a
 * frame table with some flags set. The production provider is backed by cache-policies'
 * {@code PolicyRegistry}; tests may supply their own.
 */
public interface SpiPolicyProvider {
    /** Every policy name the provider can create, in the order the simulator lists them. */
    List<String> names();

    /**
     * A new policy instance over {@code frames}.
     *
     * @param flags full flag names (e.g. {@code pagecache.clock.max_usage}) to their values as typed;
     *              every flag not in the map has its default
     */
    EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags);
}
