package io.ratatosk.bench.jmh;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Our side: a {@link PageCache} of exactly {@code frames} frames with the file mapped at 8 KiB pages. */
final class RatatoskSide implements CacheSide {
    private final PageCache cache;
    private final PagedFile file;

    RatatoskSide(Path path, int frames, String policy, boolean evictor) throws IOException {
        this.cache = PageCache.open(PageCacheConfig.parse(Map.of(
            "pagecache.memory", Long.toString((long) frames * BenchFile.PAGE_SIZE),
            "pagecache.page_size", Integer.toString(BenchFile.PAGE_SIZE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", Boolean.toString(evictor))));
        PagedFile mapped = null;
        try {
            mapped = cache.map(path, BenchFile.PAGE_SIZE, false);
        } finally {
            if (mapped == null) {
                cache.close();
            }
        }
        this.file = mapped;
    }

    @Override
    public Cursor readCursor() throws IOException {
        return new RatatoskCursor(file.io(0, PagedFile.PF_SHARED_READ_LOCK));
    }

    @Override
    public Cursor writeCursor() throws IOException {
        return new RatatoskCursor(file.io(0, PagedFile.PF_SHARED_WRITE_LOCK));
    }

    @Override
    public long pagesRead() {
        return cache.stats().bytesRead() / BenchFile.PAGE_SIZE;
    }

    /** The cache's counters, for tests and diagnostics. */
    PageCache cache() {
        return cache;
    }

    @Override
    public void close() throws IOException {
        try {
            file.close();
        } finally {
            cache.close();
        }
    }

    private static final class RatatoskCursor implements Cursor {
        private final PageCursor cursor;

        RatatoskCursor(PageCursor cursor) {
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
