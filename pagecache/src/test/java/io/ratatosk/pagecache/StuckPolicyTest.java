package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A policy that names no victim while frames could be evicted (a bug, as s3-fifo's was with a small FIFO of
 * pinned pages) fails the fault that needs a frame, after a bounded wait, instead of hanging its thread.
 */
class StuckPolicyTest {
    @Test
    void aFaultGivesUpOnAPolicyThatNamesNoVictimWhileFramesAreEvictable() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("stuck")); // never names a victim
        try {
            // Every frame taken from the free list and let go: unlocked, so evictable, but no longer free.
            List<Integer> taken = new ArrayList<>();
            for (int f = engine.tryGrabFreeFrame(); f >= 0; f = engine.tryGrabFreeFrame()) {
                taken.add(f);
            }
            taken.forEach(engine.frames()::unlockExclusive);
            engine.policyStallTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(50));

            IllegalStateException e = assertThrows(IllegalStateException.class, engine::grabFrame);
            assertTrue(e.getMessage().contains("eviction policy stuck named no victim"), e.getMessage());
            assertTrue(e.getMessage().contains("the policy is stuck"), e.getMessage());
        } finally {
            engine.close();
        }
    }
}
