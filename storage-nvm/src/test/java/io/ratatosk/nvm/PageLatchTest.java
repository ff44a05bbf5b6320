package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.Test;

class PageLatchTest {
    @Test
    void excludesEveryOtherHolderAmongManyThreads() throws Exception {
        PageLatch latch = new PageLatch();
        int threads = 16; // more than the latch's waiter slots: some wait without one
        int rounds = 20_000;
        long[] counter = {0};
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean overlap = new AtomicBoolean();
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
                    latch.lock();
                    try {
                        if (!inside.compareAndSet(false, true)) {
                            overlap.set(true);
                        }
                        counter[0]++; // a plain increment: lost updates if two threads held the latch at once
                        if (i % 1000 == 0) {
                            Thread.yield(); // hold it a while now and then, so that waiters park
                        }
                        inside.set(false);
                    } finally {
                        latch.unlock();
                    }
                }
            }, "holder-" + t);
            worker.setDaemon(true); // one left waiting for a wake-up must not keep the JVM alive
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            Waits.join(worker, worker.getName() + "'s rounds (a lost wake-up?)");
        }
        assertFalse(overlap.get(), "two threads held the latch at once");
        assertEquals((long) threads * rounds, counter[0]);
    }

    @Test
    void isReentrantAndFreeOnlyAfterTheLastUnlock() throws Exception {
        PageLatch latch = new PageLatch();
        latch.lock();
        latch.lock();
        assertTrue(latch.tryLock(), "the holder takes it again");
        latch.unlock();
        latch.unlock();
        assertFalse(tryLockOnAnotherThread(latch), "held once more by its holder");
        latch.unlock();
        assertTrue(tryLockOnAnotherThread(latch), "free after the last unlock");
    }

    @Test
    void anUnlockByAThreadThatDoesNotHoldItIsRefused() throws Exception {
        PageLatch latch = new PageLatch();
        assertThrows(IllegalMonitorStateException.class, latch::unlock);
        latch.lock();
        Throwable[] thrown = {null};
        Thread other = new Thread(() -> {
            try {
                latch.unlock();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        other.start();
        Waits.join(other, "the other thread");
        assertTrue(thrown[0] instanceof IllegalMonitorStateException, "thrown: " + thrown[0]);
        assertFalse(tryLockOnAnotherThread(latch), "still held by its holder");
        latch.unlock();
    }

    /** As ReentrantLock.lock: an interrupt does not end the wait, and is kept; the waiter parks rather than spins. */
    @Test
    void anInterruptedWaiterParksAndKeepsItsInterrupt() throws Exception {
        PageLatch latch = new PageLatch();
        latch.lock();
        boolean[] interruptKept = {false};
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            latch.lock();
            interruptKept[0] = Thread.currentThread().isInterrupted();
            latch.unlock();
        });
        waiter.start();
        // The second's hold starts once the waiter parked: one that a loaded machine held off until the latch was free
        // took it without a park (and failed the count of its parks)
        Waits.until(() -> latch.registeredParks() > 0, "the waiter parked in a slot", waiter);
        long begin = System.nanoTime();
        Thread.sleep(1000); // the holder keeps the latch a second
        latch.unlock();
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        Waits.join(waiter, "the waiter woken by the unlock");
        assertTrue(interruptKept[0], "the interrupt is kept");
        // Parked until the unlock wakes it, each park up to the bound: about heldMillis / bound parks. With the interrupt
        // left set, every park returns at once (hundreds of thousands in this second). Counted in parks, not CPU time:
        // CPU includes thread start and compilation, and the parks only fall as the machine gets slower.
        long most = 2 * heldMillis / PageLatch.REGISTERED_PARK_MILLIS + 5;
        assertTrue(latch.registeredParks() <= most, "the interrupted waiter parked " + latch.registeredParks()
            + " times while the latch was held " + heldMillis + " ms, more than " + most);
    }

    /**
     * More waiters than the latch has slots: those without one parked 100 us at a time and looked again, about 10,000
     * wake-ups a second each, for as long as the latch was held (a device operation, or a write-back, can take that
     * long). Every waiter now parks until an unlock, or a slot coming free, wakes it.
     */
    @Test
    void waitersBeyondTheSlotsParkUntilReleased() throws Exception {
        PageLatch latch = new PageLatch();
        int waiters = 16;
        CountDownLatch waiting = new CountDownLatch(waiters);
        AtomicInteger acquired = new AtomicInteger();
        latch.lock();
        Thread[] threads = new Thread[waiters];
        for (int w = 0; w < waiters; w++) {
            threads[w] = new Thread(() -> {
                waiting.countDown();
                latch.lock();
                acquired.incrementAndGet();
                latch.unlock();
            });
            threads[w].start();
        }
        Waits.await(waiting, "the waiters started");
        long begin = System.nanoTime();
        // All 16 end up waiting on the held latch, so 8 at least without a slot: waited for, not given a fixed time.
        Waits.until(() -> latch.beyondSlotsWaits() > 0, "a waiter beyond the 8 slots waited");
        Thread.sleep(2000); // held on: a waiter that polled instead of waiting would now have looked far too often
        assertEquals(0, acquired.get(), "the latch is held");
        latch.unlock();
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        for (Thread t : threads) {
            Waits.join(t, "a waiter woken by the unlocks");
        }
        assertEquals(waiters, acquired.get());
        // Waiting up to the bound each time, a waiter without a slot looks about heldMillis / bound times; polling every
        // 100 us it looked 100 times as often. Twice the expected count, and a few more each, leaves room for early
        // returns of a wait. (Counted in waits, not CPU time: CPU includes thread start and compilation, and the sleeps
        // only fall as the machine gets slower.)
        long most = waiters * (2 * heldMillis / PageLatch.REGISTERED_PARK_MILLIS + 5);
        assertTrue(latch.beyondSlotsWaits() <= most, "waiters without a slot waited " + latch.beyondSlotsWaits()
            + " times while the latch was held " + heldMillis + " ms, more than " + most);
        assertTrue(latch.beyondSlotsWaits() > 0, "with " + waiters + " waiters and 8 slots, some waited without one");
    }

    /**
     * What a ReentrantLock allocates for each wait (a queue node: 1.0-1.3 KB per waiter over these 50 rounds, with
     * {@code ReentrantLock} in place of the latch), this does not. Each round the holder keeps the latch two
     * milliseconds, so every waiter parks; rounds are sequenced with spins on atomics, which allocate nothing.
     */
    @Test
    void waitersThatParkAllocateNothing() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        PageLatch latch = new PageLatch();
        int waiters = 3;
        int rounds = 60;
        int warmUpRounds = 10; // class loading and compilation allocate: not counted
        AtomicInteger round = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        long[] allocated = new long[waiters];
        Thread[] threads = new Thread[waiters];
        for (int w = 0; w < waiters; w++) {
            int me = w;
            threads[w] = new Thread(() -> {
                long before = 0;
                for (int r = 1; r <= rounds; r++) {
                    if (r == warmUpRounds + 1) {
                        before = mx.getCurrentThreadAllocatedBytes();
                    }
                    while (round.get() < r) {
                        if (stop.get()) {
                            return; // the test failed: no round comes
                        }
                        Thread.yield();
                    }
                    latch.lock();
                    latch.unlock();
                    done.incrementAndGet();
                }
                allocated[me] = mx.getCurrentThreadAllocatedBytes() - before;
            }, "allocation-waiter-" + w);
            threads[w].setDaemon(true);
            threads[w].start();
        }
        try {
            for (int r = 1; r <= rounds; r++) {
                latch.lock();
                round.set(r);
                Thread.sleep(2);
                latch.unlock();
                int all = r * waiters;
                Waits.until(() -> done.get() >= all, "round " + r + "'s waiters through the latch");
            }
            for (Thread t : threads) {
                Waits.join(t, "a waiter");
            }
        } finally {
            stop.set(true); // else a round that failed left the waiters yielding for the next one for the fork's rest
        }
        for (int w = 0; w < waiters; w++) {
            assertTrue(allocated[w] < 256, "waiter " + w + " allocated " + allocated[w] + " bytes in "
                + (rounds - warmUpRounds) + " waits");
        }
    }

    private static boolean tryLockOnAnotherThread(PageLatch latch) throws InterruptedException {
        boolean[] taken = {false};
        Thread other = new Thread(() -> {
            taken[0] = latch.tryLock();
            if (taken[0]) {
                latch.unlock();
            }
        });
        other.start();
        Waits.join(other, "the other thread");
        return taken[0];
    }
}
