package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class QueueLockTest {
    @Test
    void waiterSlotsMustBeAPowerOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new QueueLock(3));
        assertTrue(e.getMessage().contains("waiterSlots=3"), e.getMessage());
    }

    /** Many threads, each incrementing a plain counter under the lock: no increment is lost. */
    @Test
    void excludesEveryOtherHolder() throws Exception {
        QueueLock lock = new QueueLock(2); // fewer slots than threads: some waiters share one
        int threads = 6;
        int rounds = 20_000;
        long[] counter = {0};
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    lock.lock();
                    try {
                        counter[0]++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join(60_000);
            assertFalse(th.isAlive());
        }
        assertEquals((long) threads * rounds, counter[0]);
    }

    /** Waiters that queued one after the other get the lock in that order, after a parked wait. */
    @Test
    void servesWaitersInArrivalOrder() throws Exception {
        QueueLock lock = new QueueLock(8);
        lock.lock();
        int waiters = 5;
        List<Integer> order = new ArrayList<>();
        List<Thread> ts = new ArrayList<>();
        for (int w = 0; w < waiters; w++) {
            int id = w;
            CountDownLatch queued = new CountDownLatch(1);
            Thread th = new Thread(() -> {
                queued.countDown();
                lock.lock();
                try {
                    order.add(id);
                } finally {
                    lock.unlock();
                }
            });
            th.start();
            assertTrue(queued.await(10, TimeUnit.SECONDS));
            // wait until it has taken its ticket, so that arrival order is fixed
            while (lock.queued() < w + 2) {
                Thread.sleep(1);
            }
            ts.add(th);
        }
        lock.unlock();
        for (Thread th : ts) {
            th.join(10_000);
            assertFalse(th.isAlive());
        }
        assertEquals(List.of(0, 1, 2, 3, 4), order);
    }

    /**
     * An interrupted waiter keeps waiting (a ticket cannot be given back) without spinning a core: it parked, and a
     * park returns at once while the interrupt is set, so it spun through the whole wait. Its interrupt is kept.
     */
    @Test
    void anInterruptedWaiterParksAndKeepsItsInterrupt() throws Exception {
        QueueLock lock = new QueueLock(4);
        lock.lock();
        long[] cpuNanos = {-1};
        boolean[] interruptKept = {false};
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long before = mx.getCurrentThreadCpuTime();
            lock.lock();
            cpuNanos[0] = mx.getCurrentThreadCpuTime() - before;
            interruptKept[0] = Thread.currentThread().isInterrupted();
            lock.unlock();
        });
        waiter.start();
        Thread.sleep(1000); // the holder keeps the lock a second
        lock.unlock();
        waiter.join();
        assertTrue(interruptKept[0], "the interrupt is kept");
        // Spinning takes the whole second of CPU (half of it on a loaded machine); parking a few milliseconds.
        assertTrue(cpuNanos[0] < TimeUnit.MILLISECONDS.toNanos(300), "CPU while waiting: " + cpuNanos[0] / 1_000_000 + " ms");
    }

    /**
     * A waiter queued behind a long operation (a device with a 10 s latency, which the flags allow) is woken by the
     * unlock, not every 100 us to look: it took 10,000 wake-ups a second, for as long as the wait lasted.
     */
    @Test
    void aWaiterBehindALongHoldParksUntilItsTurn() throws Exception {
        QueueLock lock = new QueueLock(4);
        lock.lock();
        long[] cpuNanos = {-1};
        Thread waiter = new Thread(() -> {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long before = mx.getCurrentThreadCpuTime();
            lock.lock();
            cpuNanos[0] = mx.getCurrentThreadCpuTime() - before;
            lock.unlock();
        });
        waiter.start();
        Thread.sleep(1000); // the holder keeps the lock a second
        lock.unlock();
        waiter.join();
        assertTrue(cpuNanos[0] < TimeUnit.MILLISECONDS.toNanos(50), "CPU while waiting: " + cpuNanos[0] / 1_000_000 + " ms");
    }
}
