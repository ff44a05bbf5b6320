package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IntMpscQueueTest {
    @Test
    void keepsOrderRefusesWhenFullAndSaysWhenEmpty() {
        IntMpscQueue queue = new IntMpscQueue(3);
        assertEquals(4, queue.capacity(), "rounded up to a power of two");
        assertEquals(-1, queue.poll());
        for (int v = 0; v < 4; v++) {
            assertTrue(queue.offer(v * 10));
        }
        assertFalse(queue.offer(99), "full");
        assertEquals(4, queue.size());
        assertEquals(0, queue.poll());
        assertTrue(queue.offer(40), "room again after a poll");
        for (int v = 1; v <= 4; v++) {
            assertEquals(v * 10, queue.poll());
        }
        assertEquals(-1, queue.poll());
        assertEquals(0, queue.size());
    }

    @Test
    void refusesWhatItCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> new IntMpscQueue(0));
        assertThrows(IllegalArgumentException.class, () -> new IntMpscQueue((1 << 30) + 1));
        IntMpscQueue queue = new IntMpscQueue(8);
        assertThrows(IllegalArgumentException.class, () -> queue.offer(-1));
        assertThrows(IllegalArgumentException.class, () -> queue.offer(Integer.MAX_VALUE));
        assertTrue(queue.offer(Integer.MAX_VALUE - 1));
        assertEquals(Integer.MAX_VALUE - 1, queue.poll());
    }

    /** Four producers into a small queue while one thread polls: every value once, each producer's in its order. */
    @Test
    void manyProducersOneConsumerLoseNothingAndKeepEachProducersOrder() throws Exception {
        int producers = 4;
        int perProducer = 200_000;
        IntMpscQueue queue = new IntMpscQueue(64);
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perProducer; i++) {
                        while (!queue.offer(producer * perProducer + i)) {
                            if (Thread.currentThread().isInterrupted()) {
                                return null; // the consumer failed (shutdownNow): nothing will make room
                            }
                            // Full: let the consumer run. Four producers spinning here took the two cores from it, and
                            // the transfer took 20 s of them.
                            Thread.yield();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            int[] next = new int[producers];
            long received = 0;
            // A stall is Waits' bound (a minute) without a value: the whole transfer takes longer than that where four
            // spinning producers and the consumer share two loaded cores, and still moves on.
            long stallNanos = TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
            long deadline = System.nanoTime() + stallNanos;
            while (received < (long) producers * perProducer) {
                int v = queue.poll();
                if (v < 0) {
                    assertTrue(System.nanoTime() - deadline < 0, "stalled after " + received);
                    Thread.yield(); // empty: let a producer run
                    continue;
                }
                deadline = System.nanoTime() + stallNanos;
                int producer = v / perProducer;
                assertEquals(next[producer], v % perProducer, "producer " + producer + "'s values in order");
                next[producer]++;
                received++;
            }
            for (Future<?> f : futures) {
                f.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(-1, queue.poll());
            assertEquals(0, queue.size());
        } finally {
            // Producers left offering to a consumer that failed spun the cores for the rest of the fork's run
            pool.shutdownNow();
            pool.awaitTermination(Waits.BOUND_SECONDS, TimeUnit.SECONDS); // not asserted: the failure is the consumer's
        }
    }
}
