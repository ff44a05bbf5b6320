package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the registry's listener (the warm-up worker) throws as a file's last mapping goes, an {@link OutOfMemoryError}
 * building a large cache's resident-page profile say, leaves the file mapped with its references: a retried close
 * unmaps it. The listener ran before the unmap's try, so its references were gone, and the retried
 * {@code PagedFile.close} found none to release and did nothing, silently; the file stayed mapped until the cache
 * closed.
 */
class UnmapListenerFailureTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
        "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));

    @TempDir
    Path dir;

    /** A listener that runs {@code atMap} as a file is newly mapped and {@code atUnmap} as its last mapping goes. */
    private static MappingListener listener(Runnable atMap, Runnable atUnmap) {
        return new MappingListener() {
            @Override
            public void mapped(FileMapping mapping) {
                atMap.run();
            }

            @Override
            public void unmapping(FileMapping mapping) {
                atUnmap.run();
            }
        };
    }

    /** The first run throws what a large cache's profile can: an OutOfMemoryError; the runs after it do nothing. */
    private static Runnable outOfMemoryOnce() {
        AtomicBoolean fail = new AtomicBoolean(true);
        return () -> {
            if (fail.getAndSet(false)) {
                throw new OutOfMemoryError("Java heap space (test)");
            }
        };
    }

    @Test
    void aListenerThatThrowsAtUnmapLeavesTheFileMappedForARetriedClose() throws IOException {
        try (PageCache cache = PageCache.open(CONFIG)) {
            cache.fileRegistry().listener(listener(() -> { }, outOfMemoryOnce()));
            Path path = dir.resolve("a");
            PagedFile file = cache.map(path, 4096);
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, 42);
            }
            assertThrows(OutOfMemoryError.class, file::close);
            file.close(); // the retry: unmaps now
            PagedFile again = cache.map(path, 4096);
            assertNotSame(file, again, "unmapped by the retried close");
            try (PageCursor c = again.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
                assertEquals(42, c.getLong(0));
            }
            again.close();
        }
    }

    /**
     * What the listener throws as a file is newly mapped fails the map and leaves nothing mapped: the file was left
     * registered with the reference the failed map's caller never got, so a later map and close of it (one reference
     * released of two) left it mapped, its swapper open, until the cache closed.
     */
    @Test
    void aListenerThatThrowsAtMapLeavesTheFileUnmapped() throws IOException {
        try (PageCache cache = PageCache.open(CONFIG)) {
            cache.fileRegistry().listener(listener(outOfMemoryOnce(), () -> { }));
            Path path = dir.resolve("b");
            assertThrows(OutOfMemoryError.class, () -> cache.map(path, 4096));
            assertEquals(0, cache.fileRegistry().mapped().size(), "the failed map left the file mapped");
            PagedFile file = cache.map(path, 4096);
            file.close();
            assertEquals(0, cache.fileRegistry().mapped().size(), "one map, one close: unmapped");
        }
    }

    /**
     * A map whose listener throws and whose unmap's force then fails closes the file all the same: the unmap dropped
     * every page before its force, so nothing of the file is left to keep it for. The swapper stayed open (a file
     * descriptor, a file id, and the file refused to every other cache) until the next map of the file or the cache's
     * close.
     */
    @Test
    void aListenerThatThrowsAtMapWithAForceThatFailsClosesTheFile() throws IOException {
        AtomicInteger closes = new AtomicInteger();
        PageSwapperFactory forceFails = SwapperFactories.wrapping(s -> new ForwardingPageSwapper(s) {
            @Override
            public void force() throws IOException {
                throw new IOException("injected force failure");
            }

            @Override
            public void close() throws IOException {
                closes.incrementAndGet();
                super.close();
            }
        });
        Path path = dir.resolve("c");
        try (PageCache cache = PageCache.open(CONFIG, forceFails); PageCache other = PageCache.open(CONFIG)) {
            cache.fileRegistry().listener(listener(() -> {
                throw new IllegalStateException("injected listener failure");
            }, () -> { }));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.map(path, 4096));
            assertEquals("injected listener failure", e.getMessage());
            assertTrue(e.getSuppressed().length == 1 && e.getSuppressed()[0].getMessage().contains("injected force failure"),
                "the force's failure is suppressed in the listener's");
            assertEquals(1, closes.get(), "the failed map closed the file it opened");
            other.map(path, 4096).close(); // and no cache holds it
        }
        assertEquals(1, closes.get());
    }
}
