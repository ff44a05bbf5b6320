package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SampleRingTest {
    @Test
    void oneThreadsKeysAreDrainedOnceInTheOrderOffered() {
        SampleRing ring = new SampleRing();
        for (long k = 1; k <= 100; k++) {
            ring.offer(k);
        }
        List<Long> drained = new ArrayList<>();
        ring.drain(drained::add);
        assertEquals(100, drained.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 1L, drained.get(i));
        }
        List<Long> again = new ArrayList<>();
        ring.drain(again::add);
        assertTrue(again.isEmpty(), "a drain hands each key over once");
    }

    @Test
    void aBoundedDrainHandsOverTheOldestKeysAndLeavesTheRestInOrder() {
        SampleRing ring = new SampleRing();
        for (long k = 1; k <= 10; k++) {
            ring.offer(k);
        }
        List<Long> drained = new ArrayList<>();
        ring.drain(drained::add, 4);
        assertEquals(List.of(1L, 2L, 3L, 4L), drained);
        assertTrue(ring.hasPending());
        ring.offer(11);
        ring.drain(drained::add, 100);
        assertEquals(11, drained.size());
        for (int i = 0; i < 11; i++) {
            assertEquals(i + 1L, drained.get(i), "in the order offered");
        }
        assertTrue(!ring.hasPending());
        assertThrows(IllegalArgumentException.class, () -> ring.drain(drained::add, 0));
    }

    @Test
    void aFullRingDropsTheNewestKeysUntilTheNextDrain() {
        SampleRing ring = new SampleRing();
        for (long k = 1; k <= SampleRing.SLOTS + 10; k++) {
            ring.offer(k);
        }
        List<Long> drained = new ArrayList<>();
        ring.drain(drained::add);
        assertEquals(SampleRing.SLOTS, drained.size());
        assertEquals(SampleRing.SLOTS, drained.get(drained.size() - 1));
        ring.offer(7);
        List<Long> after = new ArrayList<>();
        ring.drain(after::add);
        assertEquals(List.of(7L), after, "room again after the drain");
    }

    @Test
    void keysOfConcurrentThreadsAllArriveWhenEachOffersLessThanARing() throws InterruptedException {
        SampleRing ring = new SampleRing();
        int threads = 4;
        int perThread = 1000;
        List<Thread> started = new ArrayList<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            long base = (t + 1) * 1_000_000L;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    ring.offer(base + i);
                }
            });
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((th, e) -> failed.compareAndSet(null, e)); // the test's, not stderr's
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            Waits.join(thread, thread.getName() + " offered its keys");
        }
        if (failed.get() != null) {
            throw new AssertionError("an offering thread failed", failed.get());
        }
        Set<Long> drained = new HashSet<>();
        ring.drain(drained::add);
        // Racing threads may overwrite each other's slots: some keys arrive, and nothing that was not offered.
        assertTrue(!drained.isEmpty() && drained.size() <= threads * perThread, "drained " + drained.size());
        for (long key : drained) {
            assertTrue(key % 1_000_000L < perThread && key / 1_000_000L >= 1 && key / 1_000_000L <= threads, "not offered: " + key);
        }
    }
}
