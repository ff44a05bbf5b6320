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
        Thread.currentThread().interrupt();
        try {
            long start = System.nanoTime();
            long cpuBefore = mx.getCurrentThreadCpuTime();
            LatencyWait.until(start + TimeUnit.SECONDS.toNanos(1));
            long cpu = mx.getCurrentThreadCpuTime() - cpuBefore;
            assertTrue(System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(1), "an interrupt does not cut the wait short");
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
            // Spinning takes the whole second of CPU (half of it on a loaded machine); parking a few milliseconds.
            assertTrue(cpu < TimeUnit.MILLISECONDS.toNanos(300), "CPU while waiting: " + cpu / 1_000_000 + " ms");
        } finally {
            Thread.interrupted();
        }
    }
}
