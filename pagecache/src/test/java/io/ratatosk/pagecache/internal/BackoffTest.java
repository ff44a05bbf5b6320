package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void attemptsCountUpAndStopAtTheLargestInt() {
        assertEquals(1, Backoff.pause(0));
        assertEquals(Integer.MAX_VALUE, Backoff.pause(Integer.MAX_VALUE));
    }

    /**
     * A long wait parks, also on a thread whose interrupt flag is set, and leaves the flag set. parkNanos returns at
     * once on an interrupted thread, so such a waiter spun at full speed for as long as it waited.
     */
    @Test
    void anInterruptedWaiterStillParksAndKeepsItsInterrupt() {
        int pauses = 20;
        int longest = 1_000; // past the spins and the yields, each pause parks its longest
        Thread.currentThread().interrupt();
        long start = System.nanoTime();
        for (int i = 0; i < pauses; i++) {
            Backoff.pause(longest);
        }
        long elapsed = System.nanoTime() - start;
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is given back");
        assertTrue(elapsed >= pauses * Backoff.MAX_PARK_NANOS / 2, pauses + " pauses of an interrupted thread took "
            + elapsed / 1_000 + " us, not parked");
    }
}
