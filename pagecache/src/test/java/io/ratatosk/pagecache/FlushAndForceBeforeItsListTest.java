package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link PageCache#flushAndForce} that began before a file's {@link PagedFile#close} whose force failed, and took its
 * list of files after that close, reports the failure, as it does for a file closed after the list: the file was in
 * neither, so the call returned normally over pages modified before it began that the close could not make durable (a
 * host that lets a close go once its checkpoint has begun, through a flag, sees that window).
 */
@Timeout(300) // above the bound of its waits (Waits), which name what hung
class FlushAndForceBeforeItsListTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @AfterEach
    void noSeam() {
        FileRegistry.listing = () -> { };
    }

    @Test
    void aFileClosedWithAFailedForceAfterTheCallBeganAndBeforeItsListIsReported() throws Exception {
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        AtomicBoolean forceFails = new AtomicBoolean();
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
                            if (file.equals(a) && forceFails.get()) {
                                throw new IOException("injected force failure of " + file);
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
            write(fileA, 0, 1); // modified before the flushAndForce begins
            write(fileB, 0, 2);
            CountDownLatch began = new CountDownLatch(1);
            CountDownLatch takeTheList = new CountDownLatch(1);
            FileRegistry.listing = () -> {
                began.countDown();
                Waits.awaitQuietly(takeTheList); // the bound, keeping an interrupt
            };
            CompletableFuture<Void> flush = CompletableFuture.runAsync(() -> {
                try {
                    cache.flushAndForce();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Waits.await(began, "flushAndForce began");
            forceFails.set(true);
            assertThrows(IOException.class, fileA::close, "its unmap's force fails");
            takeTheList.countDown();
            Waits.until(flush::isDone, "the flushAndForce ended");

            Throwable reported = assertThrows(CompletionException.class, flush::join,
                "the flushAndForce began before the close: the close's failed force is its own too").getCause();
            assertTrue(reported.getMessage().contains(a.toString()) && reported.getMessage().contains("injected force"),
                reported.getMessage());
            forceFails.set(false);
            cache.flushAndForce(); // a later call began after the close: nothing of it is reported again
        } finally {
            FileRegistry.listing = () -> { };
            cache.close();
        }
    }
}
