package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.Sweep;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine asks the policy for its hit filter once, at start, and every read cursor keeps that object: a policy
 * that has none is refused then, naming it, instead of failing on some later read hit.
 */
class PolicyHitFilterTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "128k",
        "pagecache.page_size", "8k", "pagecache.evictor.enabled", "false"));

    /** Evicts frame 0 and nothing else; its filter is whatever the test hands it. */
    private static final class FilterPolicy implements EvictionPolicy {
        private final HitFilter filter;

        FilterPolicy(HitFilter filter) {
            this.filter = filter;
        }

        @Override
        public String name() {
            return "filter-under-test";
        }

        @Override
        public HitFilter hitFilter() {
            return filter;
        }

        @Override
        public void onHit(int frame) {
        }

        @Override
        public void onFault(int frame, long pageKey) {
        }

        @Override
        public void onEvicted(int frame, long pageKey) {
        }

        @Override
        public int nextVictim(Sweep sweep) {
            return 0;
        }
    }

    @Test
    void theEngineKeepsTheOneFilterThePolicyGives() {
        HitFilter filter = new HitFilter(0x7, 0x7);
        EvictionEngine engine = new EvictionEngine(CONFIG, frames -> new FilterPolicy(filter));
        try {
            assertSame(filter, engine.hitFilter());
        } finally {
            engine.close();
        }
    }

    @Test
    void aPolicyWithNoFilterIsRefusedAtStartNamingIt() {
        NullPointerException e = assertThrows(NullPointerException.class,
            () -> new EvictionEngine(CONFIG, frames -> new FilterPolicy(null)));
        assertTrue(e.getMessage().contains("filter-under-test") && e.getMessage().contains("hitFilter()"), e.getMessage());
    }
}
