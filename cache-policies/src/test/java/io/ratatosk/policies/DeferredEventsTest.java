package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DeferredEventsTest {
    /** Records what a drain applies as "f frame key" and "e frame key". */
    private static final class Recorder implements DeferredEvents.Sink {
        final List<String> applied = new ArrayList<>();

        @Override
        public void fault(int frame, long pageKey) {
            applied.add("f " + frame + " " + pageKey);
        }

        @Override
        public void evicted(int frame, long pageKey) {
            applied.add("e " + frame + " " + pageKey);
        }
    }

    @Test
    void appliesFaultsAndEvictionsInTheOrderTheyWereOfferedThenNothingTwice() {
        DeferredEvents events = new DeferredEvents(8);
        assertFalse(events.hasPending());
        assertTrue(events.offerFault(3, 30));
        assertTrue(events.offerEviction(0, 7));
        assertTrue(events.offerFault(0, 8));
        assertTrue(events.hasPending());
        Recorder recorder = new Recorder();
        events.drain(recorder);
        assertEquals(List.of("f 3 30", "e 0 7", "f 0 8"), recorder.applied);
        assertFalse(events.hasPending());
        events.drain(recorder);
        assertEquals(3, recorder.applied.size());
    }

    @Test
    void aFullRingRefusesUntilDrainedAndItsSlotsAreReusedRoundAndRound() {
        DeferredEvents events = new DeferredEvents(5);
        assertEquals(8, events.capacity());
        Recorder recorder = new Recorder();
        for (int lap = 0; lap < 3; lap++) {
            for (int i = 0; i < 8; i++) {
                assertTrue(events.offerFault(i, lap * 100L + i));
            }
            assertFalse(events.offerFault(9, 9), "full");
            assertFalse(events.offerEviction(9, 9), "full");
            events.drain(recorder);
            assertEquals("f 7 " + (lap * 100 + 7), recorder.applied.get(recorder.applied.size() - 1));
        }
        assertEquals(24, recorder.applied.size());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DeferredEvents(0));
        assertThrows(IllegalArgumentException.class, () -> new DeferredEvents((1 << 30) + 1));
        DeferredEvents events = new DeferredEvents(4);
        assertThrows(IllegalArgumentException.class, () -> events.offerFault(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> events.offerEviction(-2, 1));
    }

    /**
     * Four producers offer numbered events while one consumer drains: every event accepted is applied once, each
     * producer's in its own order, and an event offered before a drain began is applied by that drain.
     */
    @Test
    void manyProducersOneConsumerLoseNothingAndKeepEachProducersOrder() throws Exception {
        int producers = 4;
        int perProducer = 200_000;
        DeferredEvents events = new DeferredEvents(64);
        long[] lastSeen = new long[producers];
        java.util.Arrays.fill(lastSeen, -1);
        AtomicLong applied = new AtomicLong();
        AtomicBoolean outOfOrder = new AtomicBoolean();
        DeferredEvents.Sink sink = new DeferredEvents.Sink() {
            @Override
            public void fault(int frame, long pageKey) {
                if (pageKey != lastSeen[frame] + 1) {
                    outOfOrder.set(true);
                }
                lastSeen[frame] = pageKey;
                applied.incrementAndGet();
            }

            @Override
            public void evicted(int frame, long pageKey) {
                fault(frame, pageKey);
            }
        };
        CountDownLatch done = new CountDownLatch(producers);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                for (long i = 0; i < perProducer; i++) {
                    boolean eviction = (i & 1) == 1;
                    while (!(eviction ? events.offerEviction(producer, i) : events.offerFault(producer, i))) {
                        if (stop.get()) {
                            return; // the drainer failed: nothing will make room
                        }
                        Thread.yield(); // full: let the drainer run (four producers spinning took the two cores from it)
                    }
                    // Offered before the next drain begins: that drain must apply it (the causality a fault relies on).
                }
                done.countDown();
            }, "producer-" + p);
            thread.setDaemon(true);
            // the test's failure: the drain loop below would otherwise wait for its count for ever
            thread.setUncaughtExceptionHandler((t, e) -> failed.compareAndSet(null, e));
            thread.start();
            threads.add(thread);
        }
        try {
            // A stall is the bound without an event applied: the whole transfer may take longer on a loaded machine
            long stallNanos = TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
            long deadline = System.nanoTime() + stallNanos;
            for (long before = 0; done.getCount() > 0; before = applied.get()) {
                events.drain(sink);
                if (failed.get() != null) {
                    throw new AssertionError("a producer failed", failed.get());
                }
                if (applied.get() != before) {
                    deadline = System.nanoTime() + stallNanos;
                } else if (System.nanoTime() - deadline > 0) { // a producer stuck offering: fail, not spin for ever
                    throw new AssertionError("the producers' offers: none within " + Waits.BOUND_SECONDS
                        + " s (ratatosk.test.wait_s), after " + before + " events");
                }
            }
            events.drain(sink);
            for (Thread thread : threads) {
                Waits.join(thread, thread.getName() + " ended");
            }
        } finally {
            stop.set(true); // producers left offering to a drainer that failed spun the cores for the run's rest
        }
        assertFalse(outOfOrder.get(), "a producer's events were applied out of order");
        assertEquals((long) producers * perProducer, applied.get());
        assertFalse(events.hasPending());
    }
}
