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
