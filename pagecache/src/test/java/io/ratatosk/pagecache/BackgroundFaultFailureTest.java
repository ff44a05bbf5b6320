package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.pagecache.internal.FaultWaiters;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor that waits for a page a background worker (the read-ahead, here) is faulting in: the worker's fault is only a
 * hint, and its failure (a read that failed on the worker's thread alone) is no failure of the cursor's, which faults the
 * page itself once the hint gave up.
 */
class BackgroundFaultFailureTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 20;
    private static final long PAGE_READ_AHEAD_FAILS = 5;

    @TempDir
    Path dir;

    @Test
    void aCursorWaitingForAReadAheadThatFailsFaultsThePageItself() throws Exception {
        assertEquals(1000 + PAGE_READ_AHEAD_FAILS, afterWaitingOutAFailedReadAhead("scan.db",
            file -> read(file, PAGE_READ_AHEAD_FAILS)), "the reader got the page, not the read-ahead's failure");
    }

    /** faultsWaitedFor counts pins: one that waited out the read-ahead's failed fault and then faulted the page is one. */
    @Test
    void aPinThatWaitedForAFailedHintAndThenFaultedThePageCountsOnce() throws Exception {
        assertEquals(1, afterWaitingOutAFailedReadAhead("counted.db", file -> {
            try (PageCursor c = file.io(PAGE_READ_AHEAD_FAILS, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
                return c.faultsWaitedFor();
            }
        }), "one pin waited for a read: the read-ahead's and then its own");
    }

    private interface Reader {
        long read(PagedFile file) throws IOException;
    }

    /**
     * What {@code reader} returns, run on another thread while the read-ahead faults page {@value #PAGE_READ_AHEAD_FAILS}
     * of a fresh file {@code name}: it starts once the read-ahead is reading the page, and the read-ahead's read fails
     * once the reader waits for it.
     */
    private long afterWaitingOutAFailedReadAhead(String name, Reader reader) throws Exception {
        Path path = dir.resolve(name);
        PageCacheConfig config = writtenFile(path);
        CountDownLatch readAheadReading = new CountDownLatch(1);
        CountDownLatch failReadAhead = new CountDownLatch(1);
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                 @Override
                 public int read(long pageId, long address) throws IOException {
                     if (pageId == PAGE_READ_AHEAD_FAILS && Thread.currentThread().getName().equals("ratatosk-read-ahead")) {
                         readAheadReading.countDown();
                         Waits.awaitQuietly(failReadAhead);
                         throw new IOException("injected: the read-ahead thread's own failure");
                     }
                     return super.read(pageId, address);
                 }
             }));
             PagedFile file = cache.map(path, PAGE, false)) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (PageCursor scan = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                assertTrue(scan.next()); // asks for the pages after page 0
                Waits.await(readAheadReading, "the read-ahead reached its read of page " + PAGE_READ_AHEAD_FAILS);
                Future<Long> result = pool.submit(() -> reader.read(file));
                Waits.until(BackgroundFaultFailureTest::aThreadWaitsForAFault,
                    "a reader waits for the read-ahead's fault of page " + PAGE_READ_AHEAD_FAILS);
                failReadAhead.countDown();
                return result.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            } finally {
                failReadAhead.countDown();
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aCursorWaitingForAFaultThatAnInterruptEndedFaultsThePageItself() throws Exception {
        Path path = dir.resolve("interrupted.db");
        PageCacheConfig config = writtenFile(path);
        CountDownLatch faulterReading = new CountDownLatch(1);
        CountDownLatch interruptFaulter = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                 @Override
                 public int read(long pageId, long address) throws IOException {
                     if (pageId == PAGE_READ_AHEAD_FAILS && first.compareAndSet(true, false)) {
                         faulterReading.countDown();
                         Waits.awaitQuietly(interruptFaulter);
                         // as an interruptible channel does when its thread is interrupted in a read
                         Thread.currentThread().interrupt();
                         throw new ClosedByInterruptException();
                     }
                     return super.read(pageId, address);
                 }
             }));
             PagedFile file = cache.map(path, PAGE, false)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Long> faulter = pool.submit(() -> read(file, PAGE_READ_AHEAD_FAILS));
                Waits.await(faulterReading, "the first reader's fault reached its read");
                Future<Long> waiter = pool.submit(() -> read(file, PAGE_READ_AHEAD_FAILS));
                Waits.until(BackgroundFaultFailureTest::aThreadWaitsForAFault, "the second reader waits for the fault");
                interruptFaulter.countDown();
                assertThrows(ExecutionException.class, () -> faulter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS),
                    "the interrupted reader's own read failed");
                assertEquals(1000 + PAGE_READ_AHEAD_FAILS, waiter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS),
                    "the reader that was not interrupted got the page, not the other thread's interrupt");
            } finally {
                interruptFaulter.countDown();
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aCursorWaitingForAFaultThatTimedOutGetsItsFailure() throws Exception {
        // A SocketTimeoutException is an InterruptedIOException, but no thread was interrupted: the read timed out, and a
        // waiter's own read of the page would wait out the same timeout again, each waiter after the other.
        Path path = dir.resolve("timeout.db");
        PageCacheConfig config = writtenFile(path);
        CountDownLatch faulterReading = new CountDownLatch(1);
        CountDownLatch timeOut = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                 @Override
                 public int read(long pageId, long address) throws IOException {
                     if (pageId == PAGE_READ_AHEAD_FAILS && reads.getAndIncrement() == 0) {
                         faulterReading.countDown();
                         Waits.awaitQuietly(timeOut);
                         throw new SocketTimeoutException("injected: Read timed out");
                     }
                     return super.read(pageId, address);
                 }
             }));
             PagedFile file = cache.map(path, PAGE, false)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Long> faulter = pool.submit(() -> read(file, PAGE_READ_AHEAD_FAILS));
                Waits.await(faulterReading, "the first reader's fault reached its read");
                Future<Long> waiter = pool.submit(() -> read(file, PAGE_READ_AHEAD_FAILS));
                // In FaultWaiters.await, past awaitFault's look at the failures recorded before the wait: a waiter that
                // looked after the timeout was recorded would take it for an older failure and read the page itself.
                Waits.until(BackgroundFaultFailureTest::aThreadSleepsInAFaultWait, "the second reader waits for the fault");
                timeOut.countDown();
                assertThrows(ExecutionException.class, () -> faulter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS));
                ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> waiter.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS),
                    "the waiter got the fault's timeout, as for any failure of the page's read, not a read of its own");
                assertTrue(causedBy(failed, SocketTimeoutException.class), () -> "caused by the timeout: " + failed);
                assertEquals(1, reads.get(), "one read of the page timed out, and no waiter read it again");
            } finally {
                timeOut.countDown();
                pool.shutdownNow();
            }
        }
    }

    /** Writes {@value #PAGES} pages at {@code path}, page p holding 1000 + p; returns the tests' cache settings. */
    private static PageCacheConfig writtenFile(Path path) throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size",
            String.valueOf(PAGE), "pagecache.warmup.enabled", "false"));
        try (PageCache writer = PageCache.open(config); PagedFile file = writer.map(path, PAGE);
             PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (int p = 0; p < PAGES; p++) {
                assertTrue(w.next());
                w.putLong(0, 1000 + p);
            }
        }
        return config;
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static long read(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            long v;
            do {
                v = c.getLong(0);
            } while (c.shouldRetry());
            return v;
        }
    }

    /** Whether a thread is in FaultWaiters.await, waiting for a page another thread is faulting in. */
    private static boolean aThreadSleepsInAFaultWait() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> Arrays.stream(stack)
            .anyMatch(frame -> frame.getClassName().equals(FaultWaiters.class.getName())
                && frame.getMethodName().equals("await")));
    }

    /** Whether a thread waits for a page another thread is faulting in (FileMapping.awaitFault). */
    private static boolean aThreadWaitsForAFault() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> Arrays.stream(stack)
            .anyMatch(frame -> frame.getClassName().equals(FileMapping.class.getName())
                && frame.getMethodName().equals("awaitFault")));
    }
}
