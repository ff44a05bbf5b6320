package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** Real file swappers whose writes fail while {@link #failWrites} is on: a disk that has gone bad for a while. */
final class FaultySwapperFactory implements PageSwapperFactory {
    private final FileSwapperFactory files = new FileSwapperFactory();
    volatile boolean failWrites;
    final AtomicInteger failedWrites = new AtomicInteger();
    final AtomicInteger failedWritesOnEvictorThread = new AtomicInteger();

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        PageSwapper real = files.create(file, fileId, filePageSize, create);
        return new PageSwapper() {
            @Override
            public int filePageSize() {
                return real.filePageSize();
            }

            @Override
            public int read(long pageId, long address) throws IOException {
                return real.read(pageId, address);
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
                real.write(pageId, address);
            }

            @Override
            public void force() throws IOException {
                real.force();
            }

            @Override
            public long pageCount() throws IOException {
                return real.pageCount();
            }

            @Override
            public void truncate(long pageCount) throws IOException {
                real.truncate(pageCount);
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
    }
}
