package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.Waits;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FaultWaitersTest {
    @Test
    void aWaiterReturnsAtOnceWhenThePageIsNotBeingFaulted() {
        TranslationTable table = new TranslationTable(16);
        table.set(3, 7);
        new FaultWaiters().await(table, 3); // returns: nothing to wait for
        assertEquals(7, table.get(3));
    }

    @Test
    void waitersSleepUntilTheFaultEndsAndThenSeeItsOutcome() throws Exception {
        TranslationTable table = new TranslationTable(16);
        FaultWaiters waiters = new FaultWaiters();
        table.set(5, TranslationTable.FAULTING);
        int threads = 4;
        CountDownLatch started = new CountDownLatch(threads);
        AtomicInteger seenFrames = new AtomicInteger();
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> {
                started.countDown();
                waiters.await(table, 5);
                if (table.get(5) == 42) {
                    seenFrames.incrementAndGet();
                }
            });
            ts[i].start();
        }
        assertTrue(started.await(1, TimeUnit.MINUTES));
        Thread.sleep(20); // let them get past their spin and asleep (not needed for correctness)
        for (Thread t : ts) {
            assertTrue(t.isAlive(), "a waiter returned while the page was still FAULTING");
        }
        table.set(5, 42);
        waiters.faultEnded(5);
        for (Thread t : ts) {
            Waits.join(t, "a waiter's wake-up");
        }
        assertEquals(threads, seenFrames.get());
    }

    /**
     * A fault of slow storage (a second, a network file system's or a disk's stall) with many threads waiting for it:
     * each waiter slept a millisecond at a time and looked again, a thousand wake-ups a second each, where the end of
     * the fault wakes them anyway. They now sleep until it does, the bound only insuring against a lost wake-up. Counted
     * in sleeps, not CPU time: the CPU a waiter burnt (25 ms before, 4-6 after, with a bound of 12) once measured 18 on
     * a quiet CI run, thread start and compilation included; the sleeps only fall as the machine gets slower.
     */
    @Test
    void waitersForALongFaultSleepUntilItEnds() throws Exception {
        TranslationTable table = new TranslationTable(16);
        FaultWaiters waiters = new FaultWaiters();
        table.set(5, TranslationTable.FAULTING);
        int threads = 16;
        CountDownLatch started = new CountDownLatch(threads);
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> {
                started.countDown();
                waiters.await(table, 5);
            });
            ts[i].start();
        }
        assertTrue(started.await(1, TimeUnit.MINUTES));
        long begin = System.nanoTime();
        Thread.sleep(2000);
        table.set(5, 42);
        waiters.faultEnded(5);
        long faultMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        for (int i = 0; i < threads; i++) {
            Waits.join(ts[i], "a waiter's wake-up");
        }
        // Sleeping up to the bound each time, a waiter looks about faultMillis / bound times; at a millisecond, ten
        // times as often. Twice the expected count, and a few more each, leaves room for early returns of a wait.
        long most = threads * (2 * faultMillis / FaultWaiters.MAX_WAIT_MILLIS + 5);
        assertTrue(waiters.sleeps() <= most, threads + " waiters slept " + waiters.sleeps() + " times during a fault of "
            + faultMillis + " ms, more than " + most + ": they wake to look instead of waiting for the fault's end");
    }

    /** Many short faults, each with a waiter racing its end: every waiter returns and sees the fault's outcome. */
    @Test
    void noWakeUpIsLostWhenFaultsEndWhileWaitersGoToSleep() throws Exception {
        TranslationTable table = new TranslationTable(1 << 12);
        FaultWaiters waiters = new FaultWaiters();
        int rounds = 2_000;
        AtomicInteger wrong = new AtomicInteger();
        // kept, not printed: a waiter whose wait threw ended with no wrong outcome counted, and the round passed
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int round = 0; round < rounds; round++) {
            long page = round & 1023;
            table.set(page, TranslationTable.FAULTING);
            int frame = round + 1;
            Thread waiter = new Thread(() -> {
                waiters.await(table, page);
                if (table.get(page) != frame) {
                    wrong.incrementAndGet();
                }
            });
            waiter.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e));
            waiter.start();
            if ((round & 1) == 0) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
            table.set(page, frame);
            waiters.faultEnded(page);
            Waits.join(waiter, "round " + round + ": the waiter's return");
            if (failure.get() != null) {
                throw new AssertionError("round " + round + ": the waiter failed", failure.get());
            }
        }
        assertEquals(0, wrong.get());
    }

    @Test
    void anInterruptedWaiterStillWaitsForTheFaultAndKeepsItsInterrupt() throws Exception {
        TranslationTable table = new TranslationTable(16);
        FaultWaiters waiters = new FaultWaiters();
        table.set(1, TranslationTable.FAULTING);
        AtomicInteger outcome = new AtomicInteger(-2);
        Thread waiter = new Thread(() -> {
            waiters.await(table, 1);
            outcome.set(Thread.currentThread().isInterrupted() ? table.get(1) : -3);
        });
        waiter.start();
        waiter.interrupt();
        Thread.sleep(20);
        assertTrue(waiter.isAlive(), "the interrupt ended the wait before the fault did");
        table.set(1, 9);
        waiters.faultEnded(1);
        Waits.join(waiter, "the interrupted waiter's return");
        assertEquals(9, outcome.get(), "returned after the fault, with the interrupt flag still set");
    }

    /** As CursorCountsTest's layout test: no stripe's counter beside the array's length, stripes 128 bytes apart. */
    @Test
    void noStripeSharesTheArrayHeadersLineOrAnotherStripesLines() {
        int intsPer128Bytes = 32;
        for (int stripe = 0; stripe < FaultWaiters.STRIPES; stripe++) {
            assertEquals(stripe + 1, FaultWaiters.cell(stripe) / intsPer128Bytes, "stripe " + stripe);
        }
    }
}
