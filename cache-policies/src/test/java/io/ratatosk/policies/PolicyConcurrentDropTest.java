package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.Waits;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * Every policy, on its own frame table, under eight threads doing what the page cache's threads do at once: faults
 * (a free frame, or a victim the policy chose, taken under its exclusive lock), hits, pins, and pages dropped without
 * the policy choosing them (an unmap or truncate on another thread), with one thread as the background evictor. No
 * victim is out of range or was unbound when the policy named it while the caller could not have raced it, no frame is
 * lost (free + bound = total) and, once the threads are done, the policy's own bookkeeping agrees with the frames.
 */
class PolicyConcurrentDropTest {
    private static final int THREADS = 8;
    private static final int OPERATIONS = 20_000;
    private static final long FAULTING = -1;

    static Iterable<String> policies() {
        return PolicyRegistry.NAMES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void concurrentFaultsHitsPinsAndDropsLoseNoFrameAndLeaveTheBookkeepingWhole(String policyName) throws Exception {
        for (int frameCount : new int[] {1, 2, 4, 64}) {
            run(policyName, frameCount);
        }
    }

    private static void run(String policyName, int frameCount) throws Exception {
        FrameTable frames = new FrameTable(frameCount);
        boolean threadsRunning = false;
        try {
            EvictionPolicy policy = PolicyRegistry.create(policyName, frames, PolicyRegistry.parse(Map.of()));
            ConcurrentLinkedQueue<Integer> free = new ConcurrentLinkedQueue<>();
            for (int frame = 0; frame < frameCount; frame++) {
                free.add(frame);
            }
            // page key -> frame, or FAULTING while a thread brings it in: one frame per page, as the translation table has it
            ConcurrentHashMap<Long, Long> resident = new ConcurrentHashMap<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch start = new CountDownLatch(1);
            Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int me = t;
                threads[t] = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(me * 7919L + frameCount);
                    Sweep sweep = me == 0 ? Sweep.background() : Sweep.cooperative(me);
                    try {
                        start.await();
                        for (int op = 0; op < OPERATIONS && failure.get() == null; op++) {
                            int kind = random.nextInt(100);
                            if (kind < 50) {
                                long key = PageKey.of(random.nextInt(3), random.nextInt(4 * frameCount));
                                Long frame = resident.putIfAbsent(key, FAULTING);
                                if (frame == null) {
                                    fault(frames, policy, free, resident, sweep, key);
                                } else if (frame != FAULTING) {
                                    policy.onHit((int) (long) frame);
                                }
                            } else if (kind < 65) {
                                drop(frames, policy, free, resident, random.nextInt(frameCount));
                            } else if (kind < 80) {
                                policy.onHit(random.nextInt(frameCount)); // a hit racing an eviction: bound or not
                            } else if (kind < 95) {
                                int frame = random.nextInt(frameCount);
                                if (frames.tryWriteLock(frame)) {
                                    policy.onHit(frame); // a write cursor's pin, held while other threads look for victims
                                    frames.unlockWrite(frame);
                                }
                            } else if (me == 0) {
                                policy.housekeeping();
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "worker-" + t);
                threads[t].setDaemon(true); // a thread left spinning fails the test below, and must not keep the JVM alive
                threads[t].start();
            }
            start.countDown();
            String what = policyName + " on " + frameCount + " frames";
            try {
                for (Thread thread : threads) {
                    Waits.join(thread, what + ": " + thread.getName() + "'s operations");
                }
            } catch (AssertionFailedError hung) {
                threadsRunning = true; // its frame table is not freed under it
                Throwable failed = failure.getAndSet(hung); // the others stop at their next operation
                if (failed != null) { // the likelier cause: a thread that failed first, say, left a frame locked
                    failed.addSuppressed(hung);
                    throw new AssertionError(what + ": " + failed, failed);
                }
                throw hung;
            }
            assertNull(failure.get(), () -> what + ": " + failure.get());
            int bound = bound(frames);
            assertEquals(frameCount, bound + free.size(), what + ": " + bound + " frames bound and " + free.size() + " free");
            assertEquals(bound, resident.size(), what);
            // A victim choice applies what was deferred while the lock was held, as the next fault would.
            Sweep sweep = Sweep.cooperative(1);
            sweep.begin();
            policy.nextVictim(sweep);
            policy.checkInvariants();
            // An unmap of file 0 drops its pages, and nothing faults after it: the bookkeeping agrees at once.
            for (int frame = 0; frame < frameCount; frame++) {
                if (PageKey.fileId(frames.binding(frame)) == 0) {
                    drop(frames, policy, free, resident, frame);
                }
            }
            policy.checkInvariants();
            assertEquals(frameCount, bound(frames) + free.size(), what + " after the unmap");
        } finally {
            if (!threadsRunning) {
                frames.close(); // else left to the thread still in it, which would write into memory handed on
            }
        }
    }

    private static void fault(FrameTable frames, EvictionPolicy policy, ConcurrentLinkedQueue<Integer> free,
                              ConcurrentHashMap<Long, Long> resident, Sweep sweep, long key) {
        int frame = claimFrame(frames, policy, free, resident, sweep);
        if (frame < 0) {
            resident.remove(key); // every frame pinned: the fault gives up
            return;
        }
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
        resident.put(key, (long) frame);
        frames.unlockExclusive(frame);
    }

    /** A free frame, or a victim evicted, held exclusively; -1 if none came in a while. */
    private static int claimFrame(FrameTable frames, EvictionPolicy policy, ConcurrentLinkedQueue<Integer> free,
                                  ConcurrentHashMap<Long, Long> resident, Sweep sweep) {
        sweep.begin();
        for (int attempt = 0; attempt < 100; attempt++) {
            Integer freeFrame = free.poll();
            if (freeFrame != null) {
                while (!frames.tryExclusiveLock(freeFrame)) {
                    Thread.onSpinWait(); // a pin racing the free: let go at once
                }
                return freeFrame;
            }
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                continue;
            }
            if (victim < 0 || victim >= frames.frameCount()) {
                throw new AssertionError(policy.name() + ": victim " + victim + " is out of range");
            }
            if (frames.tryExclusiveLock(victim)) {
                long key = frames.binding(victim);
                if (key != PageKey.UNBOUND) {
                    unbind(frames, policy, resident, victim, key);
                    return victim;
                }
                frames.unlockExclusive(victim);
            }
        }
        return -1;
    }

    /** An unmap or truncate dropping whatever page {@code frame} holds, unless someone holds the frame. */
    private static void drop(FrameTable frames, EvictionPolicy policy, ConcurrentLinkedQueue<Integer> free,
                             ConcurrentHashMap<Long, Long> resident, int frame) {
        if (!frames.tryExclusiveLock(frame)) {
            return;
        }
        long key = frames.binding(frame);
        if (key == PageKey.UNBOUND) {
            frames.unlockExclusive(frame); // free, or between a fault's claim and its bind
            return;
        }
        unbind(frames, policy, resident, frame, key);
        frames.unlockExclusive(frame);
        free.add(frame);
    }

    /**
     * As the page cache unbinds: the binding and the page's entry go before the policy hears, so another thread may
     * fault the page into another frame in between.
     */
    private static void unbind(FrameTable frames, EvictionPolicy policy, ConcurrentHashMap<Long, Long> resident, int frame, long key) {
        frames.setBinding(frame, PageKey.UNBOUND);
        resident.remove(key);
        policy.onEvicted(frame, key);
    }

    private static int bound(FrameTable frames) {
        int bound = 0;
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            bound += frames.binding(frame) != PageKey.UNBOUND ? 1 : 0;
        }
        return bound;
    }
}
