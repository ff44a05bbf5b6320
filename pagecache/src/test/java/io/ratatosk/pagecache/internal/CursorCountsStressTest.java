package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ratatosk.pagecache.Waits;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CursorCountsStressTest {
    @Test
    void theOpenCountNeverReadsBelowTheCursorsOpenThroughoutTheRead() throws Exception {
        CursorCounts counts = new CursorCounts();
        int threads = 12;
        int rounds = 20_000;
        BlockingQueue<Integer> handedOver = new ArrayBlockingQueue<>(1024);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong hits = new AtomicLong();
        AtomicLong faults = new AtomicLong();
        int sentinel = counts.opened(); // open from start to end: no read may see zero
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        int stripe = counts.opened();
                        int h = 1 + (i & 7);
                        int f = i % 5 == 0 ? 1 : 0;
                        counts.pinned(stripe, h, f);
                        hits.addAndGet(h);
                        faults.addAndGet(f);
                        if ((i + me) % 3 == 0 && handedOver.offer(stripe)) {
                            // closed by another thread, as a cursor handed over is
                        } else {
                            counts.closed(stripe);
                        }
                        Integer other = handedOver.poll();
                        if (other != null) {
                            counts.closed(other);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers[t].setDaemon(true);
            workers[t].start();
        }
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                long open = counts.open();
                if (open < 1) {
                    failure.compareAndSet(null, new AssertionError("open count " + open + " with a cursor open"));
                }
            }
        });
        reader.setDaemon(true); // stops with the JVM even if a failed assertion below leaves done unset
        // kept, not printed: a reader whose look threw ended there, and the test passed without its check
        reader.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e));
        reader.start();
        start.countDown();
        try {
            for (Thread worker : workers) {
                Waits.join(worker, "a worker's end");
            }
        } finally {
            done.set(true);
        }
        Waits.join(reader, "the open count's reader");
        assertNull(failure.get(), () -> String.valueOf(failure.get()));
        for (Integer left; (left = handedOver.poll()) != null; ) {
            counts.closed(left);
        }
        assertEquals(1, counts.open(), "the sentinel alone");
        counts.closed(sentinel);
        assertEquals(0, counts.open());
        assertEquals(hits.get(), counts.hits());
        assertEquals(faults.get(), counts.faults());
    }
}
