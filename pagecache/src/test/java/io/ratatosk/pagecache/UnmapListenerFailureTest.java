package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
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
    @TempDir
    Path dir;

    @Test
    void aListenerThatThrowsAtUnmapLeavesTheFileMappedForARetriedClose() throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
        AtomicBoolean fail = new AtomicBoolean(true);
        try (PageCache cache = PageCache.open(config)) {
            cache.fileRegistry().listener(new MappingListener() {
                @Override
                public void mapped(FileMapping mapping) {
                }

                @Override
                public void unmapping(FileMapping mapping) {
                    if (fail.getAndSet(false)) {
                        throw new OutOfMemoryError("Java heap space (test)");
                    }
                }
            });
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
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
        AtomicBoolean fail = new AtomicBoolean(true);
        try (PageCache cache = PageCache.open(config)) {
            cache.fileRegistry().listener(new MappingListener() {
                @Override
                public void mapped(FileMapping mapping) {
                    if (fail.getAndSet(false)) {
                        throw new OutOfMemoryError("Java heap space (test)");
                    }
                }

                @Override
                public void unmapping(FileMapping mapping) {
                }
            });
            Path path = dir.resolve("b");
            assertThrows(OutOfMemoryError.class, () -> cache.map(path, 4096));
            assertEquals(0, cache.fileRegistry().mapped().size(), "the failed map left the file mapped");
            PagedFile file = cache.map(path, 4096);
            file.close();
            assertEquals(0, cache.fileRegistry().mapped().size(), "one map, one close: unmapped");
        }
    }
}
