package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.Waits;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Many threads on few latches, as the NVM tier's 64 stripes meet under load: nested holds (lock and tryLock), a holder
 * that throws, waiters that are interrupted. Each latch guards a page of plain longs that every holder rewrites as a
 * whole; a holder that finds a page torn, a count that does not balance, or a thread still waiting at the end fails.
 */
class PageLatchStressTest {
    private static final int THREADS = 16;
    private static final int LATCHES = 3;
    private static final int WORDS = 8;

    @Test
    void nestedHoldsThrowsAndInterruptsKeepEveryPageWholeAndEveryLatchFree() throws Exception {
        for (int repeat = 0; repeat < 3; repeat++) {
            run(repeat);
        }
    }

    private static void run(long seed) throws Exception {
        PageLatch[] latches = new PageLatch[LATCHES];
        long[][] pages = new long[LATCHES][WORDS];
        long[] writes = new long[LATCHES]; // under its latch: how many holders rewrote the page
        for (int i = 0; i < LATCHES; i++) {
            latches[i] = new PageLatch();
        }
        int rounds = 3_000;
        long[][] myWrites = new long[THREADS][LATCHES];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(THREADS);
        AtomicBoolean stop = new AtomicBoolean();
        boolean[] interruptedByOthers = new boolean[THREADS];
        boolean[] interruptKept = new boolean[THREADS];
        Thread[] workers = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int me = t;
            workers[t] = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed * THREADS + me);
                try {
                    while (start.getCount() > 0) {
                        Thread.onSpinWait(); // not await: another worker's interrupt may come first
                    }
                    for (int i = 0; i < rounds; i++) {
                        int l = random.nextInt(LATCHES);
                        boolean viaTry = random.nextInt(4) == 0;
                        if (viaTry) {
                            if (!latches[l].tryLock()) {
                                continue;
                            }
                        } else {
                            latches[l].lock();
                        }
                        try {
                            int depth = random.nextInt(3);
                            for (int d = 0; d < depth; d++) {
                                if (d % 2 == 0) {
                                    latches[l].lock();
                                } else {
                                    assertTrue(latches[l].tryLock(), "the holder takes its latch again");
                                }
                            }
                            try {
                                rewrite(pages[l], me, i);
                                writes[l]++;
                                myWrites[me][l]++;
                                if (random.nextInt(64) == 0) {
                                    throw new IllegalStateException("a holder fails");
                                }
                                if (random.nextInt(256) == 0) {
                                    Thread.yield();
                                }
                            } finally {
                                for (int d = 0; d < depth; d++) {
                                    latches[l].unlock();
                                }
                            }
                            checkWhole(pages[l]);
                        } catch (IllegalStateException expected) {
                            // the latch is still released by the finally below
                        } finally {
                            latches[l].unlock();
                        }
                        if (random.nextInt(32) == 0) {
                            int target = random.nextInt(THREADS);
                            synchronized (interruptedByOthers) {
                                interruptedByOthers[target] = true;
                            }
                            workers[target].interrupt();
                        }
                    }
                    finished.countDown();
                    // no interrupt comes after this: every thread has stopped sending them. Or one failed (never to count
                    // down) or the test stopped: else this thread spun here for the rest of the fork's run
                    while (finished.getCount() > 0 && failure.get() == null && !stop.get()) {
                        Thread.onSpinWait();
                    }
                    interruptKept[me] = Thread.interrupted();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "latch-stress-" + t);
            workers[t].setDaemon(true); // a thread left waiting fails the test below, and must not keep the JVM alive
            workers[t].start();
        }
        start.countDown();
        try {
            for (Thread worker : workers) {
                // a worker that failed never reaches the finish: its failure, with its stack, is the test's, not the
                // others' wait there
                Waits.until(() -> !worker.isAlive() || failure.get() != null,
                    worker.getName() + " ended (else a lost wake-up or a latch never freed)", worker);
                if (failure.get() != null) {
                    throw new AssertionError("a worker failed", failure.get());
                }
            }
        } finally {
            stop.set(true); // a worker stuck past the bound: the others leave the finish
        }
        for (int t = 0; t < THREADS; t++) {
            assertEquals(interruptedByOthers[t], interruptKept[t], "thread " + t + "'s interrupt (lock keeps it, as ReentrantLock.lock)");
        }
        for (int l = 0; l < LATCHES; l++) {
            long total = 0;
            for (int t = 0; t < THREADS; t++) {
                total += myWrites[t][l];
            }
            assertEquals(total, writes[l], "latch " + l + ": holders' writes lost (two held it at once)");
            checkWhole(pages[l]);
            assertTrue(tryLockElsewhere(latches[l]), "latch " + l + " is free at the end");
        }
    }

    private static void rewrite(long[] page, int thread, int round) {
        checkWhole(page);
        long value = ((long) thread << 32) | round;
        for (int w = 0; w < WORDS; w++) {
            page[w] = value;
            if (w == WORDS / 2) {
                Thread.onSpinWait();
            }
        }
    }

    private static void checkWhole(long[] page) {
        for (int w = 1; w < WORDS; w++) {
            if (page[w] != page[0]) {
                throw new AssertionError("a page torn under its latch: word 0 " + page[0] + ", word " + w + " " + page[w]);
            }
        }
    }

    private static boolean tryLockElsewhere(PageLatch latch) throws InterruptedException {
        boolean[] taken = {false};
        Throwable[] failed = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                taken[0] = latch.tryLock();
                if (taken[0]) {
                    latch.unlock();
                }
            } catch (Throwable e) {
                failed[0] = e; // the test's failure, not "the latch is not free"
            }
        }, "try-lock-elsewhere");
        other.setDaemon(true);
        other.start();
        Waits.join(other, "a tryLock on another thread");
        if (failed[0] != null) {
            throw new AssertionError("the tryLock on another thread failed", failed[0]);
        }
        return taken[0];
    }
}
