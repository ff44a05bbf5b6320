package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Waits;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The list's lock-free insertion against the lock holder's unlink. An insertion swings HEAD's next to the new
 * node with a CAS and then, as its last step, points the old first node's prev at it: a node whose last step
 * has not run yet must not be unlinked, or that late write points its successor back at a node no longer in the
 * list. (DeferredLruCache's last resort evicts the node after HEAD, which can be that young: its concurrent test
 * failed once in a few hundred runs with an index of -1 in purge's walk.)
 */
class DeferredLruListTest {
    @Test
    void theNodeAfterHeadIsUnlinkedOnlyOnceItsInsertionHasFinished() throws Exception {
        DeferredLruList list = new DeferredLruList(4, 4, () -> { });
        insert(list, 0); // HEAD -> 0 -> TAIL
        list.claim(1);
        int oldNext = list.spliceAfterHead(1, 1); // HEAD -> 1 -> 0; 0's prev still reads HEAD
        assertEquals(0, oldNext);
        Unlink unlink = unlinkInAnotherThread(list, 1);
        unlink.assertStillWaits();
        list.finishInsert(oldNext, 1);
        unlink.awaitEnd();
        list.releaseClaim(1);
        assertConsistent(list, new int[] {0});
    }

    @Test
    void aNodeOneInsertionDeepIsUnlinkedOnlyOnceItsOwnInsertionHasFinished() throws Exception {
        DeferredLruList list = new DeferredLruList(4, 4, () -> { });
        insert(list, 0);
        list.claim(1);
        int oldNext = list.spliceAfterHead(1, 1); // HEAD -> 1 -> 0, 0's prev still HEAD
        insert(list, 2); // HEAD -> 2 -> 1 -> 0: 1's prev is 2, not HEAD, but its own last step is still to come
        Unlink unlink = unlinkInAnotherThread(list, 1);
        unlink.assertStillWaits();
        list.finishInsert(oldNext, 1);
        unlink.awaitEnd();
        list.releaseClaim(1);
        assertConsistent(list, new int[] {2, 0});
    }

    @Test
    void aNodeWhoseInsertionHasFinishedIsUnlinkedAtOnce() throws Exception {
        DeferredLruList list = new DeferredLruList(4, 4, () -> { });
        insert(list, 0);
        insert(list, 1);
        insert(list, 2); // HEAD -> 2 -> 1 -> 0
        for (int node : new int[] {1, 2}) { // one inside, then the one after HEAD
            unlinkInAnotherThread(list, node).awaitEnd();
        }
        assertConsistent(list, new int[] {0});
    }

    private static void insert(DeferredLruList list, int node) {
        list.claim(node);
        list.linkClaimed(node);
    }

    /**
     * An unlink on a thread of its own, and what it threw: a latch counted down at its end said nothing of an unlink that
     * threw, which passed the check that it waits (its latch not counted down) and failed a minute later, without why.
     */
    private record Unlink(Thread thread, AtomicReference<Throwable> failure) {
        /** Still running after 200 ms: waiting, as it must while the node's insertion has a step left. */
        void assertStillWaits() throws InterruptedException {
            thread.join(200);
            assertNoFailure();
            assertTrue(thread.isAlive(), "the unlink waits for the insertion's last step");
        }

        void awaitEnd() throws InterruptedException {
            Waits.join(thread, "the unlink");
            assertNoFailure();
        }

        private void assertNoFailure() {
            if (failure.get() != null) {
                throw new AssertionError("the unlink failed", failure.get());
            }
        }
    }

    private static Unlink unlinkInAnotherThread(DeferredLruList list, int node) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread evictor = new Thread(() -> {
            try {
                list.lock();
                try {
                    list.unlink(node);
                } finally {
                    list.unlock();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "deferred-lru-unlink");
        evictor.setDaemon(true);
        evictor.start();
        return new Unlink(evictor, failure);
    }

    private static void assertConsistent(DeferredLruList list, int[] order) {
        list.lock();
        try {
            list.checkInvariants("test", node -> java.util.Arrays.stream(order).anyMatch(n -> n == node));
        } finally {
            list.unlock();
        }
        assertArrayEquals(order, list.order());
    }
}
