package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AtomicBitsetTest {
    @Test
    void setAndClearSayWhetherTheBitChanged() {
        AtomicBitset bits = new AtomicBitset(128);
        assertTrue(bits.set(70));
        assertFalse(bits.set(70));
        assertTrue(bits.get(70));
        assertTrue(bits.clear(70));
        assertFalse(bits.clear(70));
        assertEquals(0, bits.cardinality());
    }

    @Test
    void aHashPicksABitWithTheMask() {
        AtomicBitset bits = new AtomicBitset(256);
        assertEquals(5, bits.bitOf(256 * 7 + 5));
        assertEquals(255, bits.bitOf(-1L));
    }

    @Test
    void sizeMustBeAPowerOfTwoOfAtLeastOneWord() {
        assertThrows(IllegalArgumentException.class, () -> new AtomicBitset(32));
        assertThrows(IllegalArgumentException.class, () -> new AtomicBitset(100));
    }

    /** Eight threads set (and then clear) interleaved bits of the same two words; no update is lost. */
    @Test
    void writersOfOneWordNeverLoseEachOthersBits() throws Exception {
        int threads = 8;
        for (int round = 0; round < 200; round++) {
            AtomicBitset bits = new AtomicBitset(128);
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> workers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                Thread worker = new Thread(() -> {
                    try {
                        // bounded: a worker that died before the barrier left the others waiting here for good
                        start.await(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int bit = first; bit < 128; bit += threads) {
                        bits.set(bit);
                    }
                    for (int bit = first; bit < 128; bit += 2 * threads) {
                        bits.clear(bit);
                    }
                });
                worker.setName("bitset-writer-" + t);
                worker.setDaemon(true);
                // kept, not printed: a worker's failure was only on stderr while the test judged the others' bits
                worker.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e));
                workers.add(worker);
                worker.start();
            }
            for (Thread worker : workers) {
                Waits.join(worker, worker.getName() + " of round " + round + " ended");
            }
            if (failure.get() != null) {
                throw new AssertionError("a writer of round " + round + " failed", failure.get());
            }
            for (int bit = 0; bit < 128; bit++) {
                boolean cleared = bit % (2 * threads) < threads;
                assertEquals(!cleared, bits.get(bit), "round " + round + " bit " + bit);
            }
        }
    }
}
