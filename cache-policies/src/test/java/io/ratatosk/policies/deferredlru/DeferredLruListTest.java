package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        CountDownLatch unlinked = unlinkInAnotherThread(list, 1);
        assertFalse(unlinked.await(200, TimeUnit.MILLISECONDS), "the unlink waits for the insertion's last step");
        list.finishInsert(oldNext, 1);
        assertTrue(unlinked.await(1, TimeUnit.MINUTES));
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
        CountDownLatch unlinked = unlinkInAnotherThread(list, 1);
        assertFalse(unlinked.await(200, TimeUnit.MILLISECONDS), "the unlink waits for the insertion's last step");
        list.finishInsert(oldNext, 1);
        assertTrue(unlinked.await(1, TimeUnit.MINUTES));
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
            assertTrue(unlinkInAnotherThread(list, node).await(1, TimeUnit.MINUTES));
        }
        assertConsistent(list, new int[] {0});
    }

    private static void insert(DeferredLruList list, int node) {
        list.claim(node);
        list.linkClaimed(node);
    }

    private static CountDownLatch unlinkInAnotherThread(DeferredLruList list, int node) {
        CountDownLatch unlinked = new CountDownLatch(1);
        Thread evictor = new Thread(() -> {
            list.lock();
            try {
                list.unlink(node);
            } finally {
                list.unlock();
            }
            unlinked.countDown();
        }, "deferred-lru-unlink");
        evictor.setDaemon(true);
        evictor.start();
        return unlinked;
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
