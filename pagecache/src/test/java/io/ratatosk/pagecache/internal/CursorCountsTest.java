package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class CursorCountsTest {
    /** 128 bytes of longs: a cache line and the line the adjacent-line prefetcher pairs with it. */
    private static final int LONGS_PER_128_BYTES = 16;

    @Test
    void countsEveryOpenCloseAndPinOfManyThreadsExactly() throws Exception {
        CursorCounts counts = new CursorCounts();
        int threads = 16;
        int rounds = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < rounds; i++) {
                    int stripe = counts.opened();
                    counts.pinned(stripe, 2, i % 3 == 0 ? 1 : 0);
                    counts.closed(stripe);
                }
                counts.opened(); // one cursor per thread left open
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            Waits.join(worker, "a worker's rounds");
        }
        assertEquals(threads, counts.open());
        assertEquals(2L * threads * rounds, counts.hits());
        assertEquals((long) threads * ((rounds + 2) / 3), counts.faults());
    }

    @Test
    void aCursorClosedOnAnotherThreadGivesBackTheStripeItWasCountedIn() throws Exception {
        CursorCounts counts = new CursorCounts();
        int stripe = counts.opened();
        Thread other = new Thread(() -> {
            counts.pinned(stripe, 5, 1);
            counts.closed(stripe);
        });
        other.start();
        Waits.join(other, "the other thread's close");
        assertEquals(0, counts.open());
        assertEquals(5, counts.hits());
        assertEquals(1, counts.faults());
    }

    /**
     * The layout the class documents: no counter in the array's first 128 bytes (the line of its length, which every
     * access reads: a thread counting there made every other thread's access miss, docs/benchmarks.md, "16 cores, fifth
     * visit"), and different stripes 128 bytes apart.
     */
    @Test
    void noStripeSharesTheArrayHeadersLineOrAnotherStripesLines() {
        for (int stripe = 0; stripe < CursorCounts.STRIPES; stripe++) {
            for (int counter = 0; counter < 3; counter++) {
                int cell = CursorCounts.cell(stripe, counter);
                assertTrue(cell >= LONGS_PER_128_BYTES, "stripe " + stripe + " counter " + counter + " at long " + cell);
                assertEquals(stripe + 1, cell / LONGS_PER_128_BYTES, "stripe " + stripe + " counter " + counter);
            }
        }
    }
}
