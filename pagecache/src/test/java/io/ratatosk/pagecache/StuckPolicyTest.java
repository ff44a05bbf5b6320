package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.Sweep;
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
    /** Never names a victim. */
    private static final class StuckPolicy implements EvictionPolicy {
        @Override
        public String name() {
            return "stuck";
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
            return NO_VICTIM;
        }
    }

    @Test
    void aFaultGivesUpOnAPolicyThatNamesNoVictimWhileFramesAreEvictable() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        EvictionEngine engine = new EvictionEngine(config, frames -> new StuckPolicy());
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
