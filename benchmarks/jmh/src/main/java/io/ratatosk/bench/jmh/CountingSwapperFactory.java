package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import org.neo4j.io.pagecache.IOController;
import org.neo4j.io.pagecache.PageEvictionCallback;
import org.neo4j.io.pagecache.PageSwapper;
import org.neo4j.io.pagecache.PageSwapperFactory;
import org.neo4j.io.pagecache.impl.muninn.EvictionBouncer;
import org.neo4j.io.pagecache.impl.muninn.SwapperSet;
import org.neo4j.io.pagecache.tracing.PageFileSwapperTracer;

/**
 * Muninn's swapper factory with a count of the pages its swappers read from the file. Muninn counts page
 * faults only through a per-cursor tracer, which would add work to its every pin; counting the swapper's
 * reads instead leaves the hit path untouched and counts exactly what our cache's {@code bytesRead} counts:
 * one page read per fault.
 */
final class CountingSwapperFactory implements PageSwapperFactory {
    private final PageSwapperFactory delegate;
    private final LongAdder pagesRead = new LongAdder();

    CountingSwapperFactory(PageSwapperFactory delegate) {
        this.delegate = delegate;
    }

    long pagesRead() {
        return pagesRead.sum();
    }

    @Override
    public PageSwapper createPageSwapper(Path path, int filePageSize, PageEvictionCallback onEviction, boolean createIfNotExist,
                                         boolean useDirectIO, IOController ioController, EvictionBouncer evictionBouncer,
                                         SwapperSet swappers) throws IOException {
        PageSwapper swapper = delegate.createPageSwapper(path, filePageSize, onEviction, createIfNotExist, useDirectIO,
            ioController, evictionBouncer, swappers);
        return new CountingSwapper(swapper, pagesRead);
    }

    /** Forwards every call; counts the pages of each read. */
    private static final class CountingSwapper implements PageSwapper {
        private final PageSwapper swapper;
        private final LongAdder pagesRead;

        CountingSwapper(PageSwapper swapper, LongAdder pagesRead) {
            this.swapper = swapper;
            this.pagesRead = pagesRead;
        }

        @Override
        public long read(long filePageId, long bufferAddress) throws IOException {
            pagesRead.increment();
            return swapper.read(filePageId, bufferAddress);
        }

        @Override
        public long read(long filePageId, long bufferAddress, int bufferLength) throws IOException {
            pagesRead.increment();
            return swapper.read(filePageId, bufferAddress, bufferLength);
        }

        @Override
        public long read(long startFilePageId, long[] bufferAddresses, int[] bufferLengths, int length) throws IOException {
            pagesRead.add(length);
            return swapper.read(startFilePageId, bufferAddresses, bufferLengths, length);
        }

        @Override
        public long write(long filePageId, long bufferAddress) throws IOException {
            return swapper.write(filePageId, bufferAddress);
        }

        @Override
        public long write(long filePageId, long bufferAddress, int bufferLength) throws IOException {
            return swapper.write(filePageId, bufferAddress, bufferLength);
        }

        @Override
        public long write(long startFilePageId, long[] bufferAddresses, int[] bufferLengths, int length, int totalAffectedPages)
            throws IOException {
            return swapper.write(startFilePageId, bufferAddresses, bufferLengths, length, totalAffectedPages);
        }

        @Override
        public void evicted(long filePageId, long pageRef) {
            swapper.evicted(filePageId, pageRef);
        }

        @Override
        public Path path() {
            return swapper.path();
        }

        @Override
        public void close() throws IOException {
            swapper.close();
        }

        @Override
        public void closeAndDelete() throws IOException {
            swapper.closeAndDelete();
        }

        @Override
        public void force() throws IOException {
            swapper.force();
        }

        @Override
        public long getLastPageId() throws IOException {
            return swapper.getLastPageId();
        }

        @Override
        public void truncate() throws IOException {
            swapper.truncate();
        }

        @Override
        public void truncate(long size) throws IOException {
            swapper.truncate(size);
        }

        @Override
        public boolean canAllocate() {
            return swapper.canAllocate();
        }

        @Override
        public void allocate(long newFileSize) throws IOException {
            swapper.allocate(newFileSize);
        }

        @Override
        public int swapperId() {
            return swapper.swapperId();
        }

        @Override
        public PageFileSwapperTracer fileSwapperTracer() {
            return swapper.fileSwapperTracer();
        }

        @Override
        public boolean isPageFlushable(long filePageId) {
            return swapper.isPageFlushable(filePageId);
        }
    }
}
