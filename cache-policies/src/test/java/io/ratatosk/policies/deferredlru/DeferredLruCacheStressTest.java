package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import io.ratatosk.core.Waits;
import org.junit.jupiter.api.Test;

class DeferredLruCacheStressTest {
    private record Value(int key, int stamp) {
    }

    @Test
    void sixteenThreadsOnATinyCacheLoseNoEntryAndLeaveNoneBehind() throws Exception {
        int[][] shapes = {{4, 1, 4}, {8, 8, 8}, {16, 4, 3}, {2, 1, 2}, {1, 1, 1}, {32, 30, 32}};
        for (int[] shape : shapes) {
            run(shape[0], shape[1], shape[2]);
        }
    }

    private static void run(int capacity, int pull, int purge) throws Exception {
        DeferredLruCache<Integer, Value> cache = new DeferredLruCache<>(capacity, pull, purge);
        int threads = 16;
        int keys = capacity * 4;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger oversize = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(me * 31L + capacity);
                try {
                    start.await();
                    for (int op = 0; op < 5_000; op++) {
                        int key = random.nextInt(keys);
                        Value value = switch (random.nextInt(3)) {
                            case 0 -> cache.get(key);
                            case 1 -> {
                                cache.put(key, new Value(key, op));
                                yield null;
                            }
                            default -> cache.computeIfAbsent(key, k -> new Value(k, -1));
                        };
                        if (value != null && value.key() != key) {
                            throw new AssertionError("asked for " + key + ", got " + value);
                        }
                        int size = cache.size();
                        if (size > capacity || size < 0) {
                            oversize.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers[t].setDaemon(true); // a thread left waiting fails the test below, and must not keep the JVM alive
            workers[t].start();
        }
        start.countDown();
        for (Thread worker : workers) {
            Waits.join(worker, "a worker's end (a thread still waits for an entry?)");
        }
        assertNull(failure.get(), () -> "capacity " + capacity + ": " + failure.get());
        assertEquals(0, oversize.get());
        cache.checkInvariants();
        // every entry can be used again: fill the cache with fresh keys
        for (int key = keys; key < keys + capacity; key++) {
            cache.put(key, new Value(key, 0));
        }
        cache.checkInvariants();
        int found = 0;
        for (int key = keys; key < keys + capacity; key++) {
            Value v = cache.get(key);
            if (v != null) {
                assertEquals(key, v.key());
                found++;
            }
        }
        assertTrue(found >= 1);
    }
}
