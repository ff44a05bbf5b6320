package io.ratatosk.policies.deferredlru;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * Kroilov's DeferredLRU over node indexes 0..n-1 (page frames, or a cache's entries): an LRU list
 * that is reordered in batches instead of on every hit. Kroilov (2020), chapter 4.
 *
 * <pre>
 *   LRU list     doubly linked, prev/next int arrays, dummy HEAD (newest side) and TAIL
 *   Recent list  singly linked through recentNext, a tagged CAS-pushed head, ending at TERMINAL;
 *                recentNext == NOT_RECENT means "not in Recent"
 * </pre>
 *
 * <p>Who does what:
 * <ul>
 *   <li>a hit ({@link #touch}, any thread, no lock) pushes the node onto Recent unless it is there
 *       already (algorithm 9, with its test the right way round), and when Recent has reached the
 *       pull threshold asks for a pull and tries the consolidation lock;</li>
 *   <li>a new node is claimed with the "already recent" mark (TERMINAL in its recentNext), spliced in
 *       after HEAD with one CAS (algorithm 6) and unmarked (algorithm 11), by any thread;</li>
 *   <li>only the holder of the consolidation lock unlinks nodes: a pull (algorithm 13) detaches
 *       Recent with one exchange and moves its nodes to the head as one spliced list; a purge
 *       (algorithm 14) walks from TAIL towards HEAD past Recent nodes and hands the rest to its
 *       owner.</li>
 * </ul>
 * Insertion after HEAD races with unlinking only at the node after HEAD, whose prev still reads
 * HEAD until an insertion's last step: so pulls and purges never unlink the node after HEAD. The
 * one place that must ({@link #unlink} of an entry the owner is discarding) does it with a CAS on
 * HEAD's next, which an insertion's CAS then fails against and retries.
 *
 * <p>Nodes are recycled, so the JVM does not rule out ABA on the Recent head: it carries a tag that
 * every exchange and push bumps.
 */
final class DeferredLruList {
    /** The most nodes: the arrays hold two sentinels more, and a Java array at most a few under {@link Integer#MAX_VALUE}. */
    static final int MAX_NODES = Integer.MAX_VALUE - 16;
    static final int NIL = -1;
    static final int NOT_RECENT = -1;
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private final int nodes;
    private final int head;
    private final int tail;
    private final int terminal;
    private final int pullThreshold;
    private final int[] prev;
    private final int[] next;
    private final int[] recentNext;
    private final AtomicLong recentHead;
    private final AtomicInteger recentCount = new AtomicInteger();
    private final ReentrantLock consolidation = new ReentrantLock();
    private volatile boolean pullRequested;
    private final Runnable afterPull;
    private long pulls;

    /**
     * @param nodes         node indexes 0..nodes-1
     * @param pullThreshold nodes in Recent that trigger a pull, at least 1
     * @param afterPull     run under the consolidation lock after each pull (the LRU order changed)
     */
    DeferredLruList(int nodes, int pullThreshold, Runnable afterPull) {
        if (nodes < 1 || nodes > MAX_NODES || pullThreshold < 1) {
            throw new IllegalArgumentException("nodes must be in [1, " + MAX_NODES + "] and the pull threshold >= 1: nodes="
                + nodes + ", pullThreshold=" + pullThreshold);
        }
        this.nodes = nodes;
        this.head = nodes;
        this.tail = nodes + 1;
        this.terminal = nodes + 2;
        this.pullThreshold = pullThreshold;
        this.afterPull = afterPull;
        prev = new int[nodes + 2];
        next = new int[nodes + 2];
        Arrays.fill(prev, NIL);
        Arrays.fill(next, NIL);
        next[head] = tail;
        prev[tail] = head;
        recentNext = new int[nodes];
        Arrays.fill(recentNext, NOT_RECENT);
        recentHead = new AtomicLong(terminal);
    }

    int pullThreshold() {
        return pullThreshold;
    }

    // ---------------------------------------------------------------- hit path (any thread)

    /** A hit on {@code node}: into Recent if not there yet; at the threshold, ask for a pull. */
    void touch(int node) {
        if (recent(node) != NOT_RECENT || !INTS.compareAndSet(recentNext, node, NOT_RECENT, terminal)) {
            return;
        }
        long top;
        do {
            top = recentHead.get();
            INTS.setRelease(recentNext, node, (int) top);
        } while (!recentHead.compareAndSet(top, tagged(top, node)));
        if (recentCount.incrementAndGet() >= pullThreshold) {
            pullRequested = true;
            tryConsolidate();
        }
    }

    private static long tagged(long old, int node) {
        return (((old >>> 32) + 1) << 32) | (node & 0xFFFFFFFFL);
    }

    // ---------------------------------------------------------------- insertion (any thread)

    /**
     * Marks {@code node} "already recent" before it is linked, so that no hit pushes it and no purge
     * takes it half linked. A node that still sits in Recent from an earlier life (it was discarded
     * while in Recent) is pulled out of it first.
     */
    void claim(int node) {
        while (!INTS.compareAndSet(recentNext, node, NOT_RECENT, terminal)) {
            consolidateNow();
        }
    }

    /** Splices a claimed node in after HEAD (algorithm 6), then lets hits push it. */
    void linkClaimed(int node) {
        finishInsert(spliceAfterHead(node, node), node);
        INTS.setVolatile(recentNext, node, NOT_RECENT);
    }

    /** Gives up a claim on a node that was not linked after all. */
    void releaseClaim(int node) {
        INTS.setVolatile(recentNext, node, NOT_RECENT);
    }

    /** Algorithm 6: first..last (linked among themselves, owned by the caller) go in after HEAD. */
    private void insertAfterHead(int first, int last) {
        finishInsert(spliceAfterHead(first, last), last);
    }

    /** Algorithm 6 up to its CAS: HEAD's next is first; returns the node that was there, whose prev still reads HEAD. */
    int spliceAfterHead(int first, int last) {
        INTS.setVolatile(prev, first, head);
        int oldNext;
        do {
            oldNext = (int) INTS.getVolatile(next, head);
            INTS.setVolatile(next, last, oldNext);
        } while (!INTS.compareAndSet(next, head, oldNext, first));
        return oldNext;
    }

    /**
     * Algorithm 6's last step: {@code oldNext}'s prev, which read HEAD until now, reads {@code last}. Until it runs,
     * {@code last} cannot be unlinked: this write would then point {@code oldNext} back at a node no longer in
     * the list ({@link #unlink} waits for it).
     */
    void finishInsert(int oldNext, int last) {
        INTS.setVolatile(prev, oldNext, last);
    }

    // ---------------------------------------------------------------- consolidation

    /** Runs a requested pull if the consolidation lock is free; never waits. */
    boolean tryConsolidate() {
        if (!consolidation.tryLock()) {
            return false;
        }
        try {
            if (pullRequested) {
                pullRecent();
            }
        } finally {
            consolidation.unlock();
        }
        return true;
    }

    /** Waits for the consolidation lock and pulls. */
    void consolidateNow() {
        consolidation.lock();
        try {
            pullRecent();
        } finally {
            consolidation.unlock();
        }
    }

    void lock() {
        consolidation.lock();
    }

    boolean tryLock() {
        return consolidation.tryLock();
    }

    void unlock() {
        consolidation.unlock();
    }

    boolean pullPending() {
        return pullRequested;
    }

    /**
     * Algorithm 13, under the lock: detach Recent with one tagged exchange; unlink each of its nodes
     * from the LRU list, except the node after HEAD (already newest, and not to be unlinked) and
     * nodes not in the list; collect them, oldest access last, in a local list; splice that in after
     * HEAD with one CAS.
     */
    void pullRecent() {
        assert consolidation.isHeldByCurrentThread();
        pullRequested = false;
        long top;
        do {
            top = recentHead.get();
        } while (!recentHead.compareAndSet(top, tagged(top, terminal)));
        int first = NIL;
        int last = NIL;
        int detached = 0;
        for (int node = (int) top; node != terminal; ) {
            int following = (int) INTS.getVolatile(recentNext, node);
            detached++;
            if (isLinked(node) && prevOf(node) != head) {
                unlinkInside(node);
                if (first == NIL) {
                    first = node;
                } else {
                    INTS.setVolatile(next, last, node);
                    INTS.setVolatile(prev, node, last);
                }
                last = node;
            }
            INTS.setVolatile(recentNext, node, NOT_RECENT);
            node = following;
        }
        recentCount.addAndGet(-detached);
        if (first != NIL) {
            insertAfterHead(first, last);
        }
        pulls++;
        afterPull.run();
    }

    /**
     * Algorithm 14's walk, under the lock: from TAIL towards HEAD, offers {@code take} every linked
     * node that is not in Recent and not the node after HEAD, until it has accepted {@code max}.
     * {@code take} may unlink the node it accepts. Returns how many it accepted.
     */
    int purge(int max, IntPredicate take) {
        assert consolidation.isHeldByCurrentThread();
        int taken = 0;
        for (int node = prevOf(tail); node != head && taken < max; ) {
            int older = node;
            node = prevOf(node);
            if (node == head) {
                break; // older is the node after HEAD
            }
            if (recent(older) == NOT_RECENT && take.test(older)) {
                taken++;
            }
        }
        return taken;
    }

    /** The node right after HEAD, or NIL for an empty list (the last resort of a tiny cache). */
    int first() {
        int first = nextOf(head);
        return first == tail ? NIL : first;
    }

    /**
     * Takes a node the owner is discarding out of the LRU list, under the lock. Inside the list that
     * is a plain unlink; the node after HEAD is taken off with a CAS on HEAD's next, after waiting out
     * an insertion that has already swung HEAD past it but not yet repointed its prev. First it waits
     * out the node's own insertion, if its last step has not run yet (the node after HEAD, or the one
     * after that, can be that young: a cache's last resort evicts the node after HEAD).
     */
    void unlink(int node) {
        assert consolidation.isHeldByCurrentThread();
        while (isLinked(node) && (nextOf(node) == NIL || prevOf(nextOf(node)) != node)) {
            Thread.onSpinWait(); // its inserter has yet to point its successor's prev at it (finishInsert)
        }
        while (isLinked(node) && prevOf(node) == head) {
            int after = nextOf(node);
            INTS.setVolatile(prev, after, head); // only we, the consolidator, read prev
            if (INTS.compareAndSet(next, head, node, after)) {
                INTS.setVolatile(prev, node, NIL);
                INTS.setVolatile(next, node, NIL);
                return;
            }
            INTS.setVolatile(prev, after, node);
            Thread.onSpinWait(); // an insertion is in flight in front of node; it repoints node's prev last
        }
        if (isLinked(node)) {
            unlinkInside(node);
        }
    }

    /** Unlinks a node whose prev is not HEAD (nothing but the lock holder touches its links). */
    private void unlinkInside(int node) {
        int before = prevOf(node);
        int after = nextOf(node);
        INTS.setVolatile(next, before, after);
        INTS.setVolatile(prev, after, before);
        INTS.setVolatile(prev, node, NIL);
        INTS.setVolatile(next, node, NIL);
    }

    // ---------------------------------------------------------------- reads

    boolean isRecent(int node) {
        return recent(node) != NOT_RECENT;
    }

    boolean isLinked(int node) {
        return prevOf(node) != NIL;
    }

    /** True if {@code node} is the node right after HEAD. */
    boolean isFirst(int node) {
        return prevOf(node) == head;
    }

    int recentCount() {
        return recentCount.get();
    }

    /** Pulls done so far. */
    long pulls() {
        consolidation.lock();
        try {
            return pulls;
        } finally {
            consolidation.unlock();
        }
    }

    private int recent(int node) {
        return (int) INTS.getVolatile(recentNext, node);
    }

    private int prevOf(int node) {
        return (int) INTS.getVolatile(prev, node);
    }

    private int nextOf(int node) {
        return (int) INTS.getVolatile(next, node);
    }

    /** The linked nodes from newest (after HEAD) to oldest; for tests and checks, on a quiet list. */
    int[] order() {
        int[] order = new int[nodes];
        int count = 0;
        for (int node = nextOf(head); node != tail && count < nodes; node = nextOf(node)) {
            order[count++] = node;
        }
        return Arrays.copyOf(order, count);
    }

    /** The nodes in Recent, most recently pushed first; for tests and checks, on a quiet list. */
    int[] recentNodes() {
        int[] recent = new int[nodes];
        int count = 0;
        for (int node = (int) recentHead.get(); node != terminal && count < nodes; node = recent(node)) {
            recent[count++] = node;
        }
        return Arrays.copyOf(recent, count);
    }

    /**
     * On a quiet list: the LRU list is one well-linked chain from HEAD to TAIL holding exactly the
     * nodes {@code linked} accepts, each once; Recent holds {@link #recentCount} distinct nodes,
     * exactly those whose recentNext is set, and no node is left marked "already recent".
     */
    void checkInvariants(String owner, IntPredicate linked) {
        boolean[] seen = new boolean[nodes];
        int count = 0;
        int before = head;
        for (int node = nextOf(head); node != tail; node = nextOf(node)) {
            check(owner, node >= 0 && node < nodes, "the LRU list reaches " + node + " after " + before);
            check(owner, !seen[node], "node " + node + " is in the LRU list twice");
            check(owner, prevOf(node) == before, "node " + node + "'s prev is " + prevOf(node) + ", not " + before);
            seen[node] = true;
            count++;
            before = node;
        }
        check(owner, prevOf(tail) == before, "TAIL's prev is " + prevOf(tail) + ", not " + before);
        for (int node = 0; node < nodes; node++) {
            check(owner, seen[node] == linked.test(node), "node " + node + (seen[node] ? " is" : " is not")
                + " in the LRU list" + (seen[node] ? " but should not be" : " but should be"));
            check(owner, seen[node] == isLinked(node), "node " + node + "'s prev disagrees with the list");
        }
        boolean[] inRecent = new boolean[nodes];
        int recent = 0;
        for (int node = (int) recentHead.get(); node != terminal; node = recent(node)) {
            check(owner, node >= 0 && node < nodes && !inRecent[node], "Recent reaches " + node + " twice or out of range");
            inRecent[node] = true;
            recent++;
        }
        check(owner, recent == recentCount.get(), "Recent holds " + recent + " nodes, counted " + recentCount.get());
        for (int node = 0; node < nodes; node++) {
            check(owner, inRecent[node] == isRecent(node), "node " + node + "'s recentNext disagrees with Recent");
        }
        check(owner, count <= nodes, "LRU list longer than the nodes");
    }

    private static void check(String owner, boolean condition, String problem) {
        if (!condition) {
            throw new IllegalStateException(owner + ": " + problem);
        }
    }
}
