package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swapper factory whose {@code create} throws: the map fails naming the file and the factory, leaves nothing behind,
 * and the file maps once the factory works. A factory's own refusal (an IllegalArgumentException or
 * IllegalStateException, as a tier's) passes as it is.
 */
class FactoryCreateFailureTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", "8k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));

    @TempDir
    Path dir;

    /**
     * A RuntimeException that is no refusal (an UncheckedIOException, a plug-in's NullPointerException) came out of
     * {@code map} bare, naming neither the file nor the factory; it is an IOException saying both now, as a failing
     * {@code pageCount()} or {@code filePageSize()} of the swapper is.
     */
    @Test
    void aFactoryWhoseCreateThrowsFailsTheMapWithAnIOExceptionNamingTheFile() throws IOException {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        FileSwapperFactory files = new FileSwapperFactory();
        PageSwapperFactory failing = (file, fileId, filePageSize, create) -> {
            RuntimeException e = failure.get();
            if (e != null) {
                throw e;
            }
            return files.create(file, fileId, filePageSize, create);
        };
        Path file = dir.resolve("a.db");
        try (PageCache cache = PageCache.open(CONFIG, failing)) {
            UncheckedIOException unchecked = new UncheckedIOException(new IOException("injected: device gone"));
            failure.set(unchecked);
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("swapper factory")
                && e.getMessage().contains("device gone"), e.getMessage());
            assertSame(unchecked, e.getCause());
            assertFalse(Files.exists(file), "the file the failed map created is left behind");

            IllegalStateException refusal = new IllegalStateException("the tier is closed");
            failure.set(refusal);
            assertSame(refusal, assertThrows(IllegalStateException.class, () -> cache.map(file, 8192)));

            failure.set(null);
            try (PagedFile mapped = cache.map(file, 8192)) {
                assertEquals(-1, mapped.getLastPageId());
            }
        }
    }
}
