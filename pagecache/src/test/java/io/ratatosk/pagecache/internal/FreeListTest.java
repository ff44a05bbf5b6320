package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The free frames' stack, and the count that stats().freeFrames() and the JMX FreeFrames attribute report. */
class FreeListTest {
    @Test
    void popsInOrderAfterFillingAndCountsWhatItHolds() {
        FreeList list = new FreeList(3);
        list.fillInOrder();
        assertEquals(3, list.size());
        assertEquals(0, list.pop());
        assertEquals(1, list.pop());
        assertEquals(2, list.pop());
        assertEquals(-1, list.pop());
        assertEquals(0, list.size());
        list.push(1);
        assertEquals(1, list.size());
        assertEquals(1, list.pop());
    }

    /**
     * A frame pushed and popped by another thread at once: the count was raised after the push's CAS, so the pop's
     * decrement could come first and the count read -1 (a negative freeFrames in stats and over JMX). Each thread
     * reads the count right after its own pop and push; it must stay within [0, frames].
     */
    @Test
    void theCountNeverLeavesZeroToTheFrameCountWhileThreadsPushAndPop() throws Exception {
        int frames = 2;
        FreeList list = new FreeList(frames);
        list.fillInOrder();
        AtomicReference<String> bad = new AtomicReference<>();
        AtomicInteger rounds = new AtomicInteger();
        long end = System.nanoTime() + 2_000_000_000L;
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                try {
                    pushAndPop(list, frames, bad, rounds, end);
                } catch (Throwable e) {
                    failed.compareAndSet(null, e); // the test's failure: one before a pop went unnoticed
                }
            }, "push-pop-" + t));
        }
        threads.forEach(t -> t.setDaemon(true));
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            Waits.join(thread, thread.getName() + " ended"); // stuck in the list: fail, not hang
        }
        if (failed.get() != null) {
            throw new AssertionError("a thread failed", failed.get());
        }
        assertEquals(null, bad.get(), "free frame count out of [0, " + frames + "] after " + rounds.get() + " rounds");
        assertTrue(list.size() == frames, "every frame back: " + list.size());
    }

    private static void pushAndPop(FreeList list, int frames, AtomicReference<String> bad, AtomicInteger rounds, long end) {
        while (bad.get() == null && System.nanoTime() < end) {
            int frame = list.pop();
            int size = list.size();
            if (size < 0 || size > frames) {
                bad.compareAndSet(null, "after a pop: " + size);
            }
            if (frame >= 0) {
                list.push(frame);
                size = list.size();
                if (size < 0 || size > frames) {
                    bad.compareAndSet(null, "after a push: " + size);
                }
            }
            rounds.incrementAndGet();
        }
    }
}
