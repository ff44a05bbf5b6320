package io.ratatosk.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The modeled wait of an emulated device: its whole time, parked, also for an interrupted thread. */
class LatencyWaitTest {
    /**
     * A park returns at once while the thread's interrupt is set, so an interrupted thread spun a whole core through
     * the modeled time (a store that interrupts its query threads to cancel them would burn one per faulting thread).
     */
    @Test
    void anInterruptedThreadWaitsTheWholeTimeParkedAndKeepsItsInterrupt() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        Thread.currentThread().interrupt();
        try {
            long start = System.nanoTime();
            // A park counts as a wait (TIMED_WAITING) whether or not it returns at once
            long waitsBefore = mx.getThreadInfo(id).getWaitedCount();
            LatencyWait.until(start + TimeUnit.SECONDS.toNanos(1));
            long parks = mx.getThreadInfo(id).getWaitedCount() - waitsBefore;
            assertTrue(System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(1), "an interrupt does not cut the wait short");
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
            // Spinning through parks that return at once, millions; parked, the one that returns at once for the
            // interrupt, then one for the rest of the second, and a few for early returns. Counted in parks, not CPU
            // time (once bounded at 300 ms): a busy machine moves a thread's CPU, and the parks only fall as it slows
            assertTrue(parks <= 100, "an interrupted wait of a second parked " + parks + " times");
        } finally {
            Thread.interrupted();
        }
    }
}
