package io.ratatosk.pagecache;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real file swappers whose writes (of one page or of a run) fail while {@link #failWrites} is on, and whose forces fail
 * while {@link #failForces} is: a disk that has gone bad for a while.
 */
final class FaultySwapperFactory implements PageSwapperFactory {
    private final FileSwapperFactory files = new FileSwapperFactory();
    volatile boolean failWrites;
    volatile boolean failForces;
    final AtomicInteger failedWrites = new AtomicInteger();
    final AtomicInteger failedWritesOnEvictorThread = new AtomicInteger();
    /** Swappers closed, each counted once. */
    final AtomicInteger closedSwappers = new AtomicInteger();

    /** A call into the cache that may fail with an I/O error. */
    interface IoCall {
        void run() throws IOException;
    }

    /**
     * Runs {@code call} once {@link #failWrites} is off, again as long as it fails with a failure of the failing period.
     * A write that read failWrites just before it went off (the background evictor's, preempted between its check and
     * its throw) fails after it, and its failure waits, pending, for the next fault or flush: a call that took one
     * failure of that period does not make the next call succeed. No injected failure can begin once failWrites is
     * off, so a few retries end it; any other failure is thrown.
     */
    void retryFailuresOfTheFailingPeriod(IoCall call) throws IOException {
        if (failWrites) {
            throw new IllegalStateException("writes still fail: turn failWrites off first");
        }
        for (int attempt = 1; ; attempt++) {
            try {
                call.run();
                return;
            } catch (IOException e) {
                if (!isInjectedWriteFailure(e) || attempt == 16) {
                    throw e;
                }
            }
        }
    }

    private static boolean isInjectedWriteFailure(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            if (String.valueOf(cause.getMessage()).contains("injected write failure")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
            private boolean closed;

            @Override
            public void close() throws IOException {
                super.close();
                if (!closed) {
                    closed = true;
                    closedSwappers.incrementAndGet();
                }
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                if (failWrites) {
                    failedWrites.incrementAndGet();
                    if (Thread.currentThread().getName().equals("ratatosk-evictor")) {
                        failedWritesOnEvictorThread.incrementAndGet();
                    }
                    throw new IOException("injected write failure: page " + pageId);
                }
                super.write(pageId, address);
            }

            /** A run of pages in one call (a flush's, a write-behind's) fails as a whole, as the single-page write does. */
            @Override
            public void write(long startPageId, long[] addresses, int count) throws IOException {
                if (failWrites) {
                    failedWrites.incrementAndGet();
                    if (Thread.currentThread().getName().equals("ratatosk-evictor")) {
                        failedWritesOnEvictorThread.incrementAndGet();
                    }
                    throw new IOException("injected write failure: pages " + startPageId + " to " + (startPageId + count - 1));
                }
                super.write(startPageId, addresses, count);
            }

            @Override
            public void force() throws IOException {
                if (failForces) {
                    throw new IOException("injected force failure");
                }
                super.force();
            }

            @Override
            public void evict(long pageId, long address, boolean dirty) throws IOException {
                if (dirty) {
                    write(pageId, address); // a file swapper's eviction is its write
                }
            }
        };
    }
}
