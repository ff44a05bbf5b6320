package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link PageCache#flushAndForce} that a {@link PageCache#close} on another thread overtakes, before the call has its
 * list of files, does not return normally: it waited for the close (which holds the files) and then found no file to
 * flush, and returned normally although the close's force of a file modified before the call had failed, telling a
 * checkpoint that its pages were durable.
 */
@Timeout(300) // above the bound of its waits (Waits), which name what hung
class FlushAndForceRacingACacheCloseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aFlushAndForceOvertakenByTheCachesCloseDoesNotReturnNormally() throws Exception {
        CountDownLatch forceHeld = new CountDownLatch(1);
        CountDownLatch letForceFail = new CountDownLatch(1);
        AtomicBoolean closing = new AtomicBoolean(); // every force from then on is the close's: the file's only one
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
                "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")),
            SwapperFactories.wrapping(swapper -> new ForwardingPageSwapper(swapper) {
                @Override
                public void force() throws IOException {
                    if (closing.get()) {
                        forceHeld.countDown();
                        Waits.awaitQuietly(letForceFail);
                        throw new IOException("injected force failure at the cache's close");
                    }
                    super.force();
                }
            }));
        PagedFile file = cache.map(dir.resolve("a.db"), PAGE);
        write(file, 0, 1); // modified before the flushAndForce begins

        closing.set(true);
        CompletableFuture<Void> close = new CompletableFuture<>();
        Thread closer = started("closer", close, cache::close);
        Waits.await(forceHeld, "the close reached the file's force", closer);

        CompletableFuture<Void> flush = new CompletableFuture<>();
        Thread flusher = started("flusher", flush, cache::flushAndForce);
        awaitBlockedOrEnded(flusher); // waiting for the files, which the close holds
        letForceFail.countDown();

        ExecutionException closeFailed = assertThrows(ExecutionException.class, close::get);
        assertTrue(closeFailed.getCause() instanceof IOException, closeFailed.toString());
        assertTrue(cache.isClosed(), "a failed force closes the cache all the same");
        ExecutionException reported = assertThrows(ExecutionException.class, flush::get,
            "the flushAndForce began before the cache's close ended, whose force failed");
        assertTrue(reported.getCause() instanceof IllegalStateException, reported.toString());
        assertTrue(reported.getCause().getMessage().contains("closed"), reported.getCause().getMessage());
    }

    /** A call that may throw anything. */
    private interface Call {
        void run() throws Exception;
    }

    /** Starts {@code call} on a thread of its own; {@code outcome} completes as the call ends. */
    private static Thread started(String name, CompletableFuture<Void> outcome, Call call) {
        Thread thread = new Thread(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        }, name);
        thread.start();
        return thread;
    }

    private static void awaitBlockedOrEnded(Thread thread) throws InterruptedException {
        Waits.until(() -> !thread.isAlive() || thread.getState() == Thread.State.BLOCKED, thread.getName()
            + " blocked or ended", thread);
    }
}
