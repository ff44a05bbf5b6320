package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Sweep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fault whose thread is interrupted (a host cancelling a query) while every frame is pinned waits out the cache's
 * give-up as any other fault does: parked between its looks at the frames, not spinning over them, and with its
 * interrupt kept for the caller to see.
 */
class InterruptedEvictionWaitTest {
    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** A policy that names no victim and counts how often it was asked. */
    private static final class CountingPolicy extends InertPolicy {
        final AtomicLong asked = new AtomicLong();

        CountingPolicy() {
            super("counting");
        }

        @Override
        public int nextVictim(Sweep sweep) {
            asked.incrementAndGet();
            return NO_VICTIM;
        }
    }

    @Test
    void anInterruptedFaultWaitsForAPinnedFrameParkedAndKeepsItsInterrupt() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        CountingPolicy policy = new CountingPolicy();
        EvictionEngine engine = new EvictionEngine(config, frames -> policy);
        try {
            // Every frame taken from the free list and held exclusively: pinned for the whole wait.
            List<Integer> held = new ArrayList<>();
            for (int f = engine.tryGrabFreeFrame(); f >= 0; f = engine.tryGrabFreeFrame()) {
                held.add(f);
            }
            assertEquals(engine.frameCount(), held.size());

            Thread.currentThread().interrupt();
            long start = System.nanoTime();
            assertThrows(NoEvictableFrameException.class, engine::grabFrame);
            long waitedMicros = (System.nanoTime() - start) / 1_000;

            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is given back to the caller");
            // Parked 0.1 ms between looks: about 20,000 of them in the 2 s give-up, whatever the machine. Spinning, the
            // thread asked the policy millions of times, taking the core the holders of the frames need.
            long perLook = waitedMicros / Math.max(1, policy.asked.get());
            assertTrue(policy.asked.get() < 100_000, "the policy was asked " + policy.asked.get() + " times in "
                + waitedMicros + " us (" + perLook + " us a look): the interrupted fault spun instead of parking");
        } finally {
            engine.close();
        }
    }
}
