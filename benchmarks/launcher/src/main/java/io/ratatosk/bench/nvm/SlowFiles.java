package io.ratatosk.bench.nvm;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The files behind the cache as a storage device: every page read or write waits out a fixed
 * latency on top of the real file call, and is counted. Without it the benchmark's files would sit in
 * the operating system's page cache, a file read would be a DRAM copy of a few microseconds, and no
 * NVM tier could beat it. The latency is an assumption of the benchmark, stated in its report; waits
 * spin below 20 us and park above, as the NVM device's do. Requests do not queue: the device serves
 * any number at once.
 */
final class SlowFiles implements PageSwapperFactory {
    private static final long SPIN_BELOW_NANOS = 20_000;

    private final PageSwapperFactory files;
    private final long latencyNanos;
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();

    SlowFiles(PageSwapperFactory files, long latencyNanos) {
        this.files = files;
        this.latencyNanos = latencyNanos;
    }

    long reads() {
        return reads.sum();
    }

    long writes() {
        return writes.sum();
    }

    long latencyNanos() {
        return latencyNanos;
    }

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        PageSwapper delegate = files.create(file, fileId, filePageSize, create);
        return new PageSwapper() {
            @Override
            public int filePageSize() {
                return delegate.filePageSize();
            }

            @Override
            public int read(long pageId, long address) throws IOException {
                long start = System.nanoTime();
                int bytes = delegate.read(pageId, address);
                reads.increment();
                waitUntil(start + latencyNanos);
                return bytes;
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                long start = System.nanoTime();
                delegate.write(pageId, address);
                writes.increment();
                waitUntil(start + latencyNanos);
            }

            @Override
            public void force() throws IOException {
                delegate.force();
            }

            @Override
            public long pageCount() throws IOException {
                return delegate.pageCount();
            }

            @Override
            public void truncate(long pageCount) throws IOException {
                delegate.truncate(pageCount);
            }

            @Override
            public void close() throws IOException {
                delegate.close();
            }
        };
    }

    private static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > SPIN_BELOW_NANOS) {
            LockSupport.parkNanos(left - SPIN_BELOW_NANOS);
        }
        while (deadline - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() throws IOException {
        files.close();
    }
}
