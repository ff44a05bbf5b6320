package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DeferringLockTest {
    /** Records what it is told as "f frame key" and "e frame key". */
    private static final class Recorder implements DeferredEvents.Sink {
        final List<String> applied = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void fault(int frame, long pageKey) {
            record("f " + frame + " " + pageKey);
        }

        @Override
        public void evicted(int frame, long pageKey) {
            record("e " + frame + " " + pageKey);
        }

        private void record(String event) {
            applied.add(event);
        }
    }

    /** Runs {@code body} in another thread and waits for it: it must return, not wait for the lock. */
    private static void inAnotherThread(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "teller");
        thread.start();
        Waits.join(thread, "a fault or an eviction told while the lock is held (waited for the held lock?)");
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void aFreeLockAppliesAtOnce() {
        Recorder recorder = new Recorder();
        DeferringLock lock = new DeferringLock(recorder::fault, recorder::evicted);
        lock.fault(1, 10);
        lock.evicted(1, 10);
        assertEquals(List.of("f 1 10", "e 1 10"), recorder.applied);
        assertFalse(lock.isHeldByCurrentThread());
    }

    @Test
    void aLockGuardedByItsOwnerAppliesEveryEventAtOnceAndTakesNothing() throws Exception {
        Recorder recorder = new Recorder();
        DeferringLock lock = DeferringLock.guardedByOwner(recorder::fault, recorder::evicted);
        lock.lock();
        lock.fault(1, 10); // inside a "hold": still applied at once, there is no ring to wait in
        inAnotherThread(() -> {
            lock.lock(); // would wait forever on a real lock held by the test thread
            lock.evicted(1, 10);
            lock.unlock();
        });
        lock.unlock();
        lock.applyIfFree();
        assertEquals(List.of("f 1 10", "e 1 10"), recorder.applied);
        assertTrue(lock.isHeldByCurrentThread(), "the owner's holder is the only caller");
        assertTrue(DeferringLock.of(true, recorder::fault, recorder::evicted).isHeldByCurrentThread());
        assertFalse(DeferringLock.of(false, recorder::fault, recorder::evicted).isHeldByCurrentThread());
    }

    @Test
    void eventsToldWhileTheLockIsHeldWaitForItsHolderThenApplyInOrder() throws Exception {
        Recorder recorder = new Recorder();
        DeferringLock lock = new DeferringLock(recorder::fault, recorder::evicted);
        lock.lock();
        inAnotherThread(() -> {
            lock.fault(1, 10);
            lock.evicted(2, 20);
            lock.fault(2, 21);
        });
        assertEquals(List.of(), recorder.applied, "applied while the lock was held");
        lock.lock(); // reentrant: only the outermost hold applies the ring
        assertEquals(List.of(), recorder.applied);
        lock.unlock();
        assertEquals(List.of(), recorder.applied, "applied while the lock was still held once");
        lock.unlock();
        assertEquals(List.of("f 1 10", "e 2 20", "f 2 21"), recorder.applied);
        assertFalse(lock.isHeldByCurrentThread());
    }

    @Test
    void theHoldersOwnEventAppliesAtOnceAndTheRingAtItsOutermostUnlock() throws Exception {
        Recorder recorder = new Recorder();
        DeferringLock lock = new DeferringLock(recorder::fault, recorder::evicted);
        lock.lock();
        inAnotherThread(() -> lock.evicted(3, 30));
        lock.fault(3, 31); // the holder's own event: applied now, inside its hold; the ring waits for the outermost unlock
        lock.unlock();
        assertEquals(List.of("f 3 31", "e 3 30"), recorder.applied);
    }

    @Test
    void aFullRingMakesTheTellerWaitAndItsEventStillComesAfterTheDeferredOnes() throws Exception {
        Recorder recorder = new Recorder();
        DeferringLock lock = new DeferringLock(2, recorder::fault, recorder::evicted);
        lock.lock();
        inAnotherThread(() -> {
            lock.fault(1, 1);
            lock.fault(2, 2);
        });
        Thread waiting = new Thread(() -> lock.fault(3, 3), "waits for the lock");
        waiting.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
        while (waiting.getState() != Thread.State.WAITING && waiting.getState() != Thread.State.TIMED_WAITING
            && waiting.isAlive()) {
            assertTrue(System.nanoTime() - deadline < 0, "the teller of a full ring neither waited nor ended within "
                + Waits.BOUND_SECONDS + " s (ratatosk.test.wait_s): " + waiting.getState());
            Thread.yield(); // not a spin: on a 2-core machine that takes the core the teller needs
        }
        assertTrue(waiting.isAlive(), "a full ring must make the teller wait for the lock");
        assertEquals(List.of(), recorder.applied);
        lock.unlock();
        Waits.join(waiting, "the waiting teller, once the lock was let go");
        assertEquals(List.of("f 1 1", "f 2 2", "f 3 3"), recorder.applied);
    }

    @Test
    void aSinkThatThrowsLeavesTheLockFree() throws Exception {
        DeferredEvents.Sink failing = new DeferredEvents.Sink() {
            @Override
            public void fault(int frame, long pageKey) {
                throw new IllegalStateException("frame " + frame);
            }

            @Override
            public void evicted(int frame, long pageKey) {
            }
        };
        DeferringLock lock = new DeferringLock(failing::fault, failing::evicted);
        assertThrows(IllegalStateException.class, () -> lock.fault(1, 1));
        assertFalse(lock.isHeldByCurrentThread());
        lock.lock();
        inAnotherThread(() -> lock.fault(2, 2));
        assertThrows(IllegalStateException.class, lock::unlock, "the deferred fault fails in the holder's unlock");
        assertFalse(lock.isHeldByCurrentThread());
        lock.lock(); // the failed event was taken off: nothing left to apply
        lock.unlock();
        inAnotherThread(() -> lock.evicted(3, 3));
    }

    /**
     * Eight threads fault and evict numbered events while another takes the lock as a victim choice would: the sink is
     * never entered by two threads at once, each thread's events arrive in its order, and none is lost.
     */
    @Test
    void manyThreadsNeverOverlapInTheSinkLoseNothingAndKeepEachThreadsOrder() throws Exception {
        int tellers = 8;
        int perTeller = 50_000;
        long[] lastSeen = new long[tellers];
        Arrays.fill(lastSeen, -1);
        AtomicLong applied = new AtomicLong();
        AtomicBoolean outOfOrder = new AtomicBoolean();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean overlapped = new AtomicBoolean();
        DeferredEvents.Sink sink = new DeferredEvents.Sink() {
            @Override
            public void fault(int frame, long pageKey) {
                if (!inside.compareAndSet(false, true)) {
                    overlapped.set(true);
                }
                if (pageKey != lastSeen[frame] + 1) {
                    outOfOrder.set(true);
                }
                lastSeen[frame] = pageKey;
                applied.incrementAndGet();
                inside.set(false);
            }

            @Override
            public void evicted(int frame, long pageKey) {
                fault(frame, pageKey);
            }
        };
        DeferringLock lock = new DeferringLock(64, sink::fault, sink::evicted);
        AtomicBoolean done = new AtomicBoolean();
        Thread chooser = new Thread(() -> {
            while (!done.get()) {
                lock.lock();
                try {
                    if (inside.get()) {
                        overlapped.set(true);
                    }
                } finally {
                    lock.unlock();
                }
            }
        }, "victim-choice");
        chooser.setDaemon(true); // one stuck in the lock must not keep the test JVM alive
        // kept, not printed: a chooser that died (its lock or unlock threw) left the overlap check with no one to see one
        AtomicReference<Throwable> failure = new AtomicReference<>();
        chooser.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e));
        chooser.start();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < tellers; t++) {
            int teller = t;
            Thread thread = new Thread(() -> {
                for (long i = 0; i < perTeller; i++) {
                    if ((i & 1) == 0) {
                        lock.fault(teller, i);
                    } else {
                        lock.evicted(teller, i);
                    }
                }
            }, "teller-" + t);
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((failed, e) -> failure.compareAndSet(null, e));
            thread.start();
            threads.add(thread);
        }
        try {
            for (Thread thread : threads) {
                Waits.join(thread, thread.getName() + " told its events"); // a lost wake-up in the lock: fail, not hang
            }
        } finally {
            done.set(true); // also when a teller hangs: else the chooser took and let go the lock for the fork's rest
        }
        Waits.join(chooser, "the victim chooser stopped");
        if (failure.get() != null) {
            throw new AssertionError("a teller or the victim chooser failed", failure.get());
        }
        lock.lock(); // applies whatever the last holders' rounds left
        lock.unlock();
        assertFalse(overlapped.get(), "two threads were in the sink, or a holder ran beside it");
        assertFalse(outOfOrder.get(), "a thread's events were applied out of order");
        assertEquals((long) tellers * perTeller, applied.get());
    }
}
