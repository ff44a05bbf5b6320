package io.ratatosk.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link PolicyLock}: a mutual exclusion lock whose waiters end up parked, never spinning without end. */
@Timeout(300) // above the bound of its waits (Waits), which name what hung
class PolicyLockTest {
    /** Many threads, each adding to a plain counter under the lock: no increment is lost. */
    @Test
    void excludesEveryOtherThreadUnderHeavyContention() throws InterruptedException {
        PolicyLock lock = new PolicyLock();
        long[] counter = {0};
        int threads = 8;
        int rounds = 50_000;
        List<Thread> workers = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                awaitQuietly(go);
                for (int i = 0; i < rounds; i++) {
                    lock.lock();
                    try {
                        counter[0]++;
                        if ((i & 1023) == 0) {
                            Thread.yield(); // a holder that leaves the CPU: the spinner must give up and park
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            });
            workers.add(w);
            w.start();
        }
        go.countDown();
        for (Thread w : workers) {
            Waits.join(w, "a worker's 50,000 rounds (one still waiting is a lost wake-up)"); // joined for ever, it hung the build
        }
        assertEquals((long) threads * rounds, counter[0]);
        assertFalse(lock.isLocked());
    }

    @Test
    void isReentrantLikeTheLockItExtends() {
        PolicyLock lock = new PolicyLock();
        lock.lock();
        lock.lock();
        assertEquals(2, lock.getHoldCount());
        lock.unlock();
        lock.unlock();
        assertFalse(lock.isLocked());
    }

    /**
     * Waiters on a lock held for long park in the lock's queue (the spinner after its bounded spin, the others at
     * once), and each takes it once it is free.
     */
    @Test
    void waitersOnALongHeldLockParkAndThenTakeIt() throws InterruptedException {
        PolicyLock lock = new PolicyLock();
        lock.lock();
        int waiters = 3;
        CountDownLatch done = new CountDownLatch(waiters);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            Thread t = new Thread(() -> {
                lock.lock();
                lock.unlock();
                done.countDown();
            });
            threads.add(t);
            t.start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
        while (lock.getQueueLength() < waiters && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(waiters, lock.getQueueLength(), "every waiter is parked in the queue, none spins on");
        for (Thread t : threads) {
            assertTrue(lock.hasQueuedThread(t));
        }
        lock.unlock();
        assertTrue(done.await(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "the waiters got the lock in turn");
        assertFalse(lock.isLocked());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
