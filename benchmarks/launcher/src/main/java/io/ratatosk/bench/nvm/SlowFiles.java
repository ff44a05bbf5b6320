package io.ratatosk.bench.nvm;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.LatencyWait;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * The files behind the cache as a storage device: every page read or write waits out a fixed
 * latency on top of the real file call, and is counted. Without it the benchmark's files would sit in
 * the operating system's page cache, a file read would be a DRAM copy of a few microseconds, and no
 * NVM tier could beat it. The latency is an assumption of the benchmark, stated in its report; waits
 * spin below 20 us and park above ({@link LatencyWait}), as the NVM device's do. Requests do not queue: the device serves
 * any number at once.
 */
final class SlowFiles implements PageSwapperFactory {
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
        return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
            @Override
            public int read(long pageId, long address) throws IOException {
                long start = System.nanoTime();
                int bytes = super.read(pageId, address);
                reads.increment();
                LatencyWait.until(start + latencyNanos);
                return bytes;
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                long start = System.nanoTime();
                super.write(pageId, address);
                writes.increment();
                LatencyWait.until(start + latencyNanos);
            }

            /** Each page its own device write, as when this was first measured. */
            @Override
            public void write(long startPageId, long[] addresses, int count) throws IOException {
                for (int i = 0; i < count; i++) {
                    write(startPageId + i, addresses[i]);
                }
            }

            /** A file's eviction is its write, and pays the device's latency. */
            @Override
            public void evict(long pageId, long address, boolean dirty) throws IOException {
                if (dirty) {
                    write(pageId, address);
                }
            }
        };
    }

    @Override
    public void close() throws IOException {
        files.close();
    }
}
