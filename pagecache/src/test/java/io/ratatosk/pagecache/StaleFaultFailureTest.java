package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor that waits for another thread's fault of a page, which fails, and wakes only after a third thread faulted the
 * page in: the page is resident, so the waiter reads it. It threw the first fault's failure, stale by then, though
 * nothing was wrong with the page any more. Deterministic: the test holds the monitor the waiter sleeps on (by
 * reflection), so that the failure and the third thread's fault both end before the waiter looks again.
 */
class StaleFaultFailureTest {
    private static final long VALUE = 0x5EED_F00DL;

    @TempDir
    Path dir;

    @Test
    void aWaiterThatWakesAfterAFailedFaultAndASuccessfulOneReadsThePage() throws Exception {
        waiterOfAFailedFault("the page was resident when the waiter woke", (file, fail, failing, succeedingRead) -> {
            fail.countDown();
            Waits.until(() -> PageCacheInternals.tableEntry(file, 0) == 0, "the failed fault's end", failing);
            Thread succeeding = reader(file, 0, new AtomicReference<>(), succeedingRead, "succeeding fault");
            succeeding.start();
            Waits.until(() -> PageCacheInternals.tableEntry(file, 0) > 0, "the second fault's end", succeeding);
            return succeeding;
        });
    }

    /**
     * As above, but the page is evicted again before the waiter looks: absent then, as after the failed fault, though a
     * successful fault came between. The waiter threw the first fault's failure, stale, where its own fault of the page
     * succeeds. The test hides the waiter from the faults' wake-ups (its count in the stripe, by reflection) while it
     * holds the monitor, so that the faults end, and the page is evicted, before the waiter looks again.
     */
    @Test
    void aWaiterThatWakesAfterAFailedFaultASuccessfulOneAndAnEvictionReadsThePage() throws Exception {
        waiterOfAFailedFault("the page's latest fault succeeded before the waiter looked",
            (file, fail, failing, succeedingRead) -> {
                AtomicIntegerArray waiting = stripeWaiting(file);
                int cell = stripeCell(file, 0);
                waiting.decrementAndGet(cell); // the faults' ends wake nobody, so they do not wait for the monitor
                try {
                    fail.countDown();
                    Waits.join(failing, "the failing fault");
                    Thread succeeding = reader(file, 0, new AtomicReference<>(), succeedingRead, "succeeding fault");
                    succeeding.start();
                    Waits.join(succeeding, "the second fault");
                    Evictions.evictPage(file, 0);
                    assertEquals(0, PageCacheInternals.tableEntry(file, 0), "page 0 is absent again");
                    return succeeding;
                } finally {
                    waiting.incrementAndGet(cell);
                }
            });
    }

    /** What a test does while the waiter cannot look again: ends the failing fault and starts a successful one. */
    @FunctionalInterface
    private interface WhileTheWaiterSleeps {
        /** Ends {@code failing} (its read fails once {@code fail} counts down); returns a successful fault's reader. */
        Thread run(PagedFile file, CountDownLatch fail, Thread failing, AtomicReference<Long> succeedingRead)
            throws Exception;
    }

    /**
     * Page 0 of a file holding {@link #VALUE}, faulted in by a thread whose read fails, held until {@code fail} counts
     * down, with a waiter asleep on that fault; {@code meanwhile} runs holding the monitor the waiter sleeps on, then the
     * waiter must read the page ({@code why} it must not fail).
     */
    private void waiterOfAFailedFault(String why, WhileTheWaiterSleeps meanwhile) throws Exception {
        Path path = dir.resolve("f.db");
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        AtomicReference<Boolean> failNextRead = new AtomicReference<>(false);
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public int read(long pageId, long address) throws IOException {
                if (failNextRead.compareAndSet(true, false)) {
                    reading.countDown();
                    Waits.awaitQuietly(fail);
                    throw new IOException("injected read failure");
                }
                return super.read(pageId, address);
            }
        }))) {
            try (PagedFile file = cache.map(path, 8192); PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, VALUE);
            } // unmapped: page 0 is faulted in again below
            try (PagedFile file = cache.map(path, 8192)) {
                failNextRead.set(true);
                AtomicReference<Throwable> failedFault = new AtomicReference<>();
                Thread failing = reader(file, 0, failedFault, new AtomicReference<>(), "failing fault");
                failing.start();
                Waits.await(reading, "the first fault's read", failing);
                AtomicReference<Throwable> waiterFailure = new AtomicReference<>();
                AtomicReference<Long> waiterRead = new AtomicReference<>();
                Thread waiter = reader(file, 0, waiterFailure, waiterRead, "waiter");
                waiter.start();
                Waits.until(() -> inFaultWait(waiter), "the waiter asleep on the first fault", waiter);
                AtomicReference<Long> succeedingRead = new AtomicReference<>();
                Thread succeeding;
                synchronized (stripeMonitor(file, 0)) { // the waiter cannot look again until this ends
                    succeeding = meanwhile.run(file, fail, failing, succeedingRead);
                }
                Waits.join(failing, "the failing fault");
                Waits.join(succeeding, "the second fault");
                Waits.join(waiter, "the waiter");
                assertTrue(failedFault.get() instanceof IOException, String.valueOf(failedFault.get()));
                assertEquals(VALUE, succeedingRead.get());
                assertNull(waiterFailure.get(), why);
                assertEquals(VALUE, waiterRead.get());
            }
        }
    }

    /** A thread that reads {@code pageId} of {@code file} into {@code read}, or keeps its failure in {@code failure}. */
    static Thread reader(PagedFile file, long pageId, AtomicReference<Throwable> failure, AtomicReference<Long> read,
                         String name) {
        return new Thread(() -> {
            try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
                long value;
                do {
                    value = c.getLong(0);
                } while (c.shouldRetry());
                read.set(value);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, name);
    }

    /**
     * Whether {@code thread} sleeps in the waiters' loop (or waits to re-enter it): past the spin before it, from where it
     * looks at the page only holding the stripe's monitor.
     */
    static boolean inFaultWait(Thread thread) {
        Thread.State state = thread.getState();
        if (state != Thread.State.TIMED_WAITING && state != Thread.State.BLOCKED) {
            return false;
        }
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getClassName().endsWith(".FaultWaiters") && frame.getMethodName().equals("await")) {
                return true;
            }
        }
        return false;
    }

    /** The monitor on which waiters of {@code pageId}'s faults sleep and each of its faults' ends wakes them. */
    private static Object stripeMonitor(PagedFile file, long pageId) throws ReflectiveOperationException {
        Object waiters = field(FileMapping.class, "faultWaiters").get(file.mapping());
        java.lang.reflect.Method stripe = waiters.getClass().getDeclaredMethod("stripe", long.class);
        stripe.setAccessible(true);
        Object[] monitors = (Object[]) field(waiters.getClass(), "monitors").get(waiters);
        return monitors[(int) stripe.invoke(null, pageId)];
    }

    /** The waiters' counts per stripe, which a fault's end reads to decide whether to take the monitor. */
    private static AtomicIntegerArray stripeWaiting(PagedFile file) throws ReflectiveOperationException {
        Object waiters = field(FileMapping.class, "faultWaiters").get(file.mapping());
        return (AtomicIntegerArray) field(waiters.getClass(), "waiting").get(waiters);
    }

    /** Where {@link #stripeWaiting} counts the waiters of {@code pageId}'s faults. */
    private static int stripeCell(PagedFile file, long pageId) throws ReflectiveOperationException {
        Object waiters = field(FileMapping.class, "faultWaiters").get(file.mapping());
        java.lang.reflect.Method stripe = waiters.getClass().getDeclaredMethod("stripe", long.class);
        stripe.setAccessible(true);
        java.lang.reflect.Method cell = waiters.getClass().getDeclaredMethod("cell", int.class);
        cell.setAccessible(true);
        return (int) cell.invoke(null, (int) stripe.invoke(null, pageId));
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
