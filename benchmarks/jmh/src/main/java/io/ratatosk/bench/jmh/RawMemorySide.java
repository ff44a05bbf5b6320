package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.BufferUtil;
import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;
import sun.misc.Unsafe;

/**
 * No cache at all: the whole file copied into one off-heap buffer, and a "cursor" that reads a page's bytes
 * straight from it ({@code base + pageId * page size + offset}). It is what the memory can give the benchmarks'
 * loop: the upper limit that a page cache's hit path is measured against ({@link RawMemoryBenchmark}). It
 * reads only; it has no eviction, no translation, no lock word, and {@code shouldRetry()} is always false.
 */
final class RawMemorySide implements CacheSide {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;

    /** Page-aligned, like a page cache's frames, so a page never straddles more lines or pages than it must. */
    private final ByteBuffer memory;
    private final long base;
    private final long pages;

    RawMemorySide(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long bytes = ch.size();
            if (bytes > Integer.MAX_VALUE || bytes % BenchFile.PAGE_SIZE != 0) {
                throw new IllegalArgumentException("the raw side holds a file of whole pages, at most "
                    + Integer.MAX_VALUE / BenchFile.PAGE_SIZE + " of them, in one buffer: " + path + " has " + bytes + " bytes");
            }
            this.pages = bytes / BenchFile.PAGE_SIZE;
            this.memory = BufferUtil.allocateDirectAligned((int) bytes, BenchFile.PAGE_SIZE);
            this.base = new UnsafeBuffer(memory).addressOffset();
            ByteBuffer dst = memory.duplicate();
            while (dst.hasRemaining()) {
                if (ch.read(dst, dst.position()) < 0) {
                    throw new IOException(path + " ended after " + dst.position() + " of its " + bytes + " bytes");
                }
            }
        }
    }

    @Override
    public Cursor readCursor() {
        return new RawCursor();
    }

    /** No cursor to open: the read alone, as {@link RawCursor} does it. */
    @Override
    public long readWithNewCursor(long pageId, int slot) {
        if (pageId < 0 || pageId >= pages) {
            throw new IllegalStateException("page " + pageId + " is past the end of the file");
        }
        return UNSAFE.getLong(base + pageId * BenchFile.PAGE_SIZE + (long) slot * Long.BYTES);
    }

    /** The raw side has nothing to lock, so a "write cursor" would measure nothing a cache does. */
    @Override
    public Cursor writeCursor() {
        throw new UnsupportedOperationException("the raw memory side is a read limit; it has no write cursor");
    }

    /** Nothing is ever read from the file after the copy. */
    @Override
    public long pagesRead() {
        return 0;
    }

    @Override
    public void close() {
        // The buffer is freed with its ByteBuffer; nothing else is held.
    }

    private final class RawCursor implements Cursor {
        private long address;

        @Override
        public boolean next(long pageId) {
            if (pageId < 0 || pageId >= pages) {
                return false;
            }
            address = base + pageId * BenchFile.PAGE_SIZE;
            return true;
        }

        @Override
        public long getLong(int offset) {
            return UNSAFE.getLong(address + offset);
        }

        @Override
        public void putLong(int offset, long value) {
            throw new UnsupportedOperationException("the raw memory side reads only");
        }

        @Override
        public boolean shouldRetry() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}
