package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.neo4j.internal.unsafe.UnsafeUtil;
import org.neo4j.io.fs.DefaultFileSystemAbstraction;
import org.neo4j.io.pagecache.PageCursor;
import org.neo4j.io.pagecache.PagedFile;
import org.neo4j.io.pagecache.context.CursorContext;
import org.neo4j.io.pagecache.impl.SingleFilePageSwapperFactory;
import org.neo4j.io.pagecache.impl.muninn.MuninnPageCache;
import org.neo4j.io.pagecache.tracing.DefaultPageCacheTracer;
import org.neo4j.memory.EmptyMemoryTracker;

/**
 * The peer: Neo4j 5.26's MuninnPageCache, standalone, over the default file system, with
 * {@code frames} pages of 8 KiB and the file mapped at 8 KiB. Cursors use
 * {@link CursorContext#NULL_CONTEXT}, so pins are not traced; pages read are counted by wrapping the
 * swappers ({@link CountingSwapperFactory}), which costs nothing on a hit.
 * Used from bench-jmh only (neo4j-io is GPLv3 and never a library dependency).
 */
final class MuninnPeer implements CacheSide {
    /*
     * The JVM options Neo4j's own launcher passes. Without java.nio opened, Muninn cannot build direct
     * ByteBuffers over its page memory and falls back to a swapper that copies every page through a new
     * 8 KiB heap buffer: measured here, 3x slower faults and 6.5 KB allocated per operation at 25% hits.
     * Every page benchmark fork gets them, on both sides (see the @Fork annotation of PageBenchmark).
     */
    static final String OPEN_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String OPEN_NIO_CHANNELS = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String OPEN_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";

    private static final String DATABASE = "ratatosk-bench";
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final DefaultFileSystemAbstraction fs = new DefaultFileSystemAbstraction();
    private final PeerJobScheduler scheduler = new PeerJobScheduler();
    private final DefaultPageCacheTracer tracer = new DefaultPageCacheTracer();
    private final CountingSwapperFactory swappers =
        new CountingSwapperFactory(new SingleFilePageSwapperFactory(fs, tracer, EmptyMemoryTracker.INSTANCE));
    private final MuninnPageCache cache;
    private final PagedFile file;

    MuninnPeer(Path path, int frames, boolean evictor) throws IOException {
        if (!UnsafeUtil.unsafeByteBufferAccessAvailable() && WARNED.compareAndSet(false, true)) {
            System.err.println("MuninnPeer: this JVM lacks " + OPEN_NIO + ", so Muninn pages through its slow fallback"
                + " swapper; its fault path is not measured fairly here");
        }
        MuninnPageCache.Configuration config = MuninnPageCache.config(frames)
            .pageSize(BenchFile.PAGE_SIZE)
            .pageCacheTracer(tracer)
            .closeAllocatorOnShutdown(true);
        if (!evictor) {
            config = config.disableEvictionThread();
        }
        MuninnPageCache opened = new MuninnPageCache(swappers, scheduler, config);
        PagedFile mapped = null;
        try {
            mapped = opened.map(path, BenchFile.PAGE_SIZE, DATABASE);
            if (mapped.payloadSize() != BenchFile.PAGE_SIZE) {
                throw new IllegalStateException("Muninn maps " + path + " with a payload of " + mapped.payloadSize()
                    + " bytes per page, not " + BenchFile.PAGE_SIZE + ": the two sides would not do the same work");
            }
        } finally {
            if (mapped == null) {
                opened.close();
                scheduler.close();
                fs.close();
            }
        }
        this.cache = opened;
        this.file = mapped;
    }

    @Override
    public Cursor readCursor() throws IOException {
        return new MuninnCursor(file.io(0, PagedFile.PF_SHARED_READ_LOCK, CursorContext.NULL_CONTEXT));
    }

    @Override
    public long readWithNewCursor(long pageId, int slot) throws IOException {
        try (PageCursor cursor = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK, CursorContext.NULL_CONTEXT)) {
            if (!cursor.next()) {
                throw new IllegalStateException("page " + pageId + " is past the end of the file");
            }
            long value;
            do {
                value = cursor.getLong(slot * Long.BYTES);
            } while (cursor.shouldRetry());
            return value;
        }
    }

    @Override
    public Cursor writeCursor() throws IOException {
        return new MuninnCursor(file.io(0, PagedFile.PF_SHARED_WRITE_LOCK, CursorContext.NULL_CONTEXT));
    }

    @Override
    public long pagesRead() {
        return swappers.pagesRead();
    }

    /** Evictions the tracer has seen, for tests and diagnostics. */
    long evictions() {
        return tracer.evictions();
    }

    @Override
    public void close() throws IOException {
        try {
            file.close();
            cache.close();
        } finally {
            scheduler.close();
            fs.close();
        }
    }

    private static final class MuninnCursor implements Cursor {
        private final PageCursor cursor;

        MuninnCursor(PageCursor cursor) {
            this.cursor = cursor;
        }

        @Override
        public boolean next(long pageId) throws IOException {
            return cursor.next(pageId);
        }

        @Override
        public long getLong(int offset) {
            return cursor.getLong(offset);
        }

        @Override
        public void putLong(int offset, long value) {
            cursor.putLong(offset, value);
        }

        @Override
        public boolean shouldRetry() throws IOException {
            return cursor.shouldRetry();
        }

        @Override
        public void close() {
            cursor.close();
        }
    }
}
