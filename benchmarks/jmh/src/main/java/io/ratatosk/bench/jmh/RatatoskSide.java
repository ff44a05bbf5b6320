package io.ratatosk.bench.jmh;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Our side: a {@link PageCache} of exactly {@code frames} frames with the file mapped at 8 KiB pages, and
 * any further flags a benchmark sets (the NVM tier's, say).
 */
final class RatatoskSide implements CacheSide {
    private final PageCache cache;
    private final PagedFile file;

    RatatoskSide(Path path, int frames, String policy, boolean evictor, Map<String, String> flags) throws IOException {
        Map<String, String> config = new HashMap<>(flags);
        setOwn(config, "pagecache.memory", Long.toString((long) frames * BenchFile.PAGE_SIZE));
        setOwn(config, "pagecache.page_size", Integer.toString(BenchFile.PAGE_SIZE));
        setOwn(config, "pagecache.policy", policy);
        setOwn(config, "pagecache.evictor.enabled", Boolean.toString(evictor));
        config.putIfAbsent("pagecache.warmup.enabled", "false"); // a trial starts cold, whatever the last one left
        this.cache = PageCache.open(PageCacheConfig.parse(config));
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

    /** The settings every side shares are not flags a benchmark may override: both sides must get the same. */
    private static void setOwn(Map<String, String> config, String flag, String value) {
        String given = config.put(flag, value);
        if (given != null) {
            throw new IllegalArgumentException(flag + " is set from the benchmark's geometry, policy and evictor"
                + " parameters, not as a further flag: " + flag + "=" + given);
        }
    }

    @Override
    public Cursor readCursor() throws IOException {
        return new RatatoskCursor(file.io(0, PagedFile.PF_SHARED_READ_LOCK));
    }

    @Override
    public long readWithNewCursor(long pageId, int slot) throws IOException {
        try (PageCursor cursor = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
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
        return new RatatoskCursor(file.io(0, PagedFile.PF_SHARED_WRITE_LOCK));
    }

    @Override
    public long pagesRead() {
        PageCacheStats stats = cache.stats();
        // bytesRead counts every fault, whichever tier served it: those the NVM tier served did not read the file
        return stats.bytesRead() / BenchFile.PAGE_SIZE - stats.nvm().swapIns();
    }

    @Override
    public long swapIns() {
        return cache.stats().nvm().swapIns();
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
