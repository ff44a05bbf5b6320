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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link PageCache#flushAndForce} reports the failed force of a file closed between its start and its list only where
 * the file was mapped when it began: a file mapped after it holds no page modified before it, so nothing the call
 * answers for. The registry counted every such close, and the call failed over a file it had never covered (a store's
 * scratch file mapped, written and closed while a checkpoint began, its storage failing), telling the host its
 * checkpoint had failed.
 */
@Timeout(300) // above the bound of its waits (Waits), which name what hung
class FlushAndForceMappedAfterItBeganTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @AfterEach
    void noSeam() {
        FileRegistry.listing = () -> { };
    }

    @Test
    void aFileMappedAfterTheCallBeganAndClosedWithAFailedForceBeforeItsListIsNotItsFailure() throws Exception {
        Path a = dir.resolve("a.db");
        Path scratch = dir.resolve("scratch.db");
        Path late = dir.resolve("late.db");
        Set<Path> forceFails = ConcurrentHashMap.newKeySet();
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
                            if (forceFails.contains(file)) {
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
            write(fileA, 0, 1); // modified before the flushAndForce begins; its forces succeed
            PagedFile fileLate = cache.map(late, PAGE);
            write(fileLate, 0, 3); // mapped before too: its close below is the call's failure
            CountDownLatch began = new CountDownLatch(1);
            CountDownLatch takeTheList = new CountDownLatch(1);
            FileRegistry.listing = () -> {
                began.countDown();
                Waits.awaitQuietly(takeTheList); // the bound, keeping an interrupt
            };
            CompletableFuture<Void> flush = flushAndForceAsync(cache);
            Waits.await(began, "flushAndForce began");
            forceFails.add(scratch);
            PagedFile fileScratch = cache.map(scratch, PAGE); // mapped after the call began
            write(fileScratch, 0, 2);
            assertThrows(IOException.class, fileScratch::close, "its unmap's force fails");
            takeTheList.countDown();
            ended(flush, "the first flushAndForce").join(); // nothing it covers failed: a.db forced, scratch.db none of its business

            // A file mapped before the call and closed so is still reported, also after a scratch file's close.
            CountDownLatch beganAgain = new CountDownLatch(1);
            CountDownLatch takeTheListAgain = new CountDownLatch(1);
            FileRegistry.listing = () -> {
                beganAgain.countDown();
                Waits.awaitQuietly(takeTheListAgain); // the bound, keeping an interrupt
            };
            CompletableFuture<Void> second = flushAndForceAsync(cache);
            Waits.await(beganAgain, "the second flushAndForce began");
            forceFails.add(late);
            assertThrows(IOException.class, fileLate::close, "its unmap's force fails");
            PagedFile again = cache.map(scratch, PAGE); // mapped after this call began, closed after late.db
            assertThrows(IOException.class, again::close, "its unmap's force fails");
            takeTheListAgain.countDown();
            Throwable reported = assertThrows(CompletionException.class, ended(second, "the second flushAndForce")::join,
                "late.db was mapped before the second call began").getCause();
            assertTrue(reported.getMessage().contains(late.toString())
                && !reported.getMessage().contains(scratch.toString()), reported.getMessage());
        } finally {
            FileRegistry.listing = () -> { };
            forceFails.clear();
            cache.close();
        }
    }

    /** {@code call} once it ended: a flushAndForce stuck in the cache fails the test in the bound, never hangs it. */
    private static CompletableFuture<Void> ended(CompletableFuture<Void> call, String what) throws InterruptedException {
        Waits.until(call::isDone, what + " ended");
        return call;
    }

    private static CompletableFuture<Void> flushAndForceAsync(PageCache cache) {
        return CompletableFuture.runAsync(() -> {
            try {
                cache.flushAndForce();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
