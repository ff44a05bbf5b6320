package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The gate an unmap or truncate closes: it refuses new operations and waits out those inside. */
class OperationGateTest {
    private static final long OPERATION_MILLIS = 300;

    /**
     * A store that closes from an interrupted thread (a shutdown path that interrupted its workers first) while another
     * thread's flush of the file is under way: the close waits for the flush at the gate, and every park of that wait
     * returned at once while the interrupt was set, so it spun a core for as long as the flush took. It waits as an
     * uninterrupted thread does now, and returns with the interrupt still set.
     */
    @Test
    void anInterruptedCloserWaitsWithoutSpinning() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperationGate gate = new OperationGate();
        assertTrue(gate.enter());
        CompletableFuture<long[]> closer = new CompletableFuture<>();
        CountDownLatch closing = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            Thread.currentThread().interrupt();
            long id = Thread.currentThread().getId();
            // A park counts as a wait (WAITING or TIMED_WAITING) whether or not it returned at once
            long waitsBefore = threads.getThreadInfo(id).getWaitedCount();
            long start = System.nanoTime();
            closing.countDown();
            gate.close();
            closer.complete(new long[] {threads.getThreadInfo(id).getWaitedCount() - waitsBefore, System.nanoTime() - start,
                Thread.currentThread().isInterrupted() ? 1 : 0});
        }, "interrupted-closer");
        thread.start();
        // The operation's time starts once the closer has, so that its wait is at least that long: timed from the
        // closer's start, a closer that a loaded machine started late waited less (and failed the check below)
        assertTrue(closing.await(1, TimeUnit.MINUTES), "the closer never started");
        Thread.sleep(OPERATION_MILLIS); // the operation inside
        gate.exit();
        long[] outcome = closer.get(1, TimeUnit.MINUTES);
        long parks = outcome[0];
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(outcome[1]);
        assertTrue(waitedMillis >= OPERATION_MILLIS, "the close waited for the operation: " + waitedMillis + " ms");
        // Parked, the close looks about once per longest pause; spinning through parks that return at once, it looked
        // hundreds of thousands of times. Counted in parks, not CPU time (once bounded at a quarter of the wait): CPU
        // includes thread start and compilation, and a busy machine moves it; the parks only fall as it gets slower
        long most = 2 * waitedMillis / TimeUnit.NANOSECONDS.toMillis(Backoff.MAX_PARK_NANOS) + 16;
        assertTrue(parks <= most, "the interrupted close parked " + parks + " times in a wait of " + waitedMillis
            + " ms, more than " + most);
        assertTrue(outcome[2] == 1, "the closer's interrupt is left set");
        assertFalse(gate.enter(), "closed");
    }
}
