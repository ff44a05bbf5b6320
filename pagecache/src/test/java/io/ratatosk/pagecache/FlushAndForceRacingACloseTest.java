package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link PageCache#flushAndForce} that finds a file closed by another thread meanwhile (after the call began) counts
 * on that close's force, and reports it when it failed: it skipped the file as flushed by its close and returned
 * normally, telling a checkpoint that pages modified before it began were durable where the close's fsync had failed.
 */
@Timeout(300) // above the bound of its waits (Waits), which name what hung
class FlushAndForceRacingACloseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aFlushAndForceReportsTheFailedForceOfAFileClosedMeanwhile() throws Exception {
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        AtomicReference<Path> heldForce = new AtomicReference<>(); // the file whose force flushAndForce reached first
        CountDownLatch forceHeld = new CountDownLatch(1);
        CountDownLatch letForceGo = new CountDownLatch(1);
        AtomicReference<Path> failingForce = new AtomicReference<>(); // the other file, once the test closes it
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
                "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")),
            new PageSwapperFactory() {
                private final FileSwapperFactory files = new FileSwapperFactory();

                @Override
                public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                    return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                        @Override
                        public void force() throws IOException {
                            if (file.equals(failingForce.get())) {
                                throw new IOException("injected force failure of " + file);
                            }
                            if (heldForce.compareAndSet(null, file)) {
                                forceHeld.countDown();
                                await(letForceGo);
                            }
                            super.force();
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    files.close();
                }
            });
        try {
            PagedFile fileA = cache.map(a, PAGE);
            PagedFile fileB = cache.map(b, PAGE);
            write(fileA, 0, 1);
            write(fileB, 0, 2); // both modified before the flushAndForce begins

            CompletableFuture<Void> flush = CompletableFuture.runAsync(() -> {
                try {
                    cache.flushAndForce();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Waits.await(forceHeld, "flushAndForce reached its first file's force");
            Path other = heldForce.get().equals(a) ? b : a;
            PagedFile closing = other.equals(a) ? fileA : fileB;
            failingForce.set(other);
            IOException closeFailed = assertThrows(IOException.class, closing::close, "its unmap's force fails");
            assertTrue(closeFailed.getMessage().contains("injected force failure"), closeFailed.getMessage());
            letForceGo.countDown();

            Throwable reported = assertThrows(CompletionException.class, flush::join,
                "the flushAndForce began before the close: the close's failed force is its own").getCause();
            assertNotNull(reported);
            assertTrue(reported.getMessage().contains(other.toString()), reported.getMessage());
            assertTrue(reported.getMessage().contains("injected force failure"), reported.getMessage());
            assertFalse(cache.isClosed());
            assertEquals(1, cache.fileRegistry().mapped().size(), "the closed file left, the other stays mapped");
        } finally {
            letForceGo.countDown();
            failingForce.set(null);
            cache.close();
        }
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(Waits.BOUND_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the test never let the held force go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
