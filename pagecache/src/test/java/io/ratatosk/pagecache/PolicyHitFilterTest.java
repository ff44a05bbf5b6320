package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.HitFilter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine asks the policy for its hit filter once, at start, and every read cursor keeps that object: a policy
 * that has none is refused then, naming it, instead of failing on some later read hit.
 */
class PolicyHitFilterTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "128k",
        "pagecache.page_size", "8k", "pagecache.evictor.enabled", "false"));

    /** Its filter is whatever the test hands it. */
    private static final class FilterPolicy extends InertPolicy {
        private final HitFilter filter;

        FilterPolicy(HitFilter filter) {
            super("filter-under-test");
            this.filter = filter;
        }

        @Override
        public HitFilter hitFilter() {
            return filter;
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
