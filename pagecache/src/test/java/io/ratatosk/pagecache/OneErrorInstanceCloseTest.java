package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache's close where one file cannot be written and another's swapper cannot be closed, both failing with one Error
 * instance (the JVM's preallocated {@code OutOfMemoryError}, which it throws again and again once the heap is
 * exhausted): the close throws that Error and stays open, as for any file it could not unmap. Adding the instance to
 * itself as suppressed threw {@code IllegalArgumentException: Self-suppression not permitted} out of the close instead,
 * a failure that named neither file nor the Error.
 */
class OneErrorInstanceCloseTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", "8k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false",
        "pagecache.evictor.enabled", "false"));

    @TempDir
    Path dir;

    @Test
    void aCloseFailingTwiceWithOneErrorInstanceThrowsThatError() throws IOException {
        OutOfMemoryError exhausted = new OutOfMemoryError("Java heap space (injected: one preallocated instance)");
        AtomicBoolean failing = new AtomicBoolean(true);
        Path written = dir.resolve("written.db");
        Path clean = dir.resolve("clean.db");
        PageCache cache = PageCache.open(CONFIG, SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
            @Override
            public void write(long pageId, long address) throws IOException {
                if (failing.get()) {
                    throw exhausted;
                }
                super.write(pageId, address);
            }

            @Override
            public void write(long startPageId, long[] addresses, int count) throws IOException {
                if (failing.get()) {
                    throw exhausted;
                }
                super.write(startPageId, addresses, count);
            }

            @Override
            public void close() throws IOException {
                if (failing.get()) {
                    throw exhausted;
                }
                super.close();
            }
        }));
        PagedFile dirty = cache.map(written, 8192);
        cache.map(clean, 8192);
        try (PageCursor cursor = dirty.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(cursor.next());
            cursor.putLong(0, 42);
        }

        Error thrown = assertThrows(Error.class, cache::close);

        assertSame(exhausted, thrown, "the Error itself");
        assertFalse(cache.isClosed(), "a file could not be unmapped: the cache stays open");
        failing.set(false);
        cache.close();
        assertTrue(cache.isClosed());
    }
}
