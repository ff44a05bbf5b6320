package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link PagedFile#flush} that waits for its file's close under way on another thread: the close wrote and forced
 * what the flush was to, so the flush's failure says that (and, where the close's force failed, that the data may not be
 * durable), not the bare "is not mapped" of a call on a file its caller had closed already.
 */
class FlushRacingItsCloseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aFlushThatWaitedForTheCloseSaysTheCloseWroteAndForcedTheFile() throws Exception {
        Throwable failure = flushWhileTheCloseForces(false);
        assertTrue(failure instanceof IllegalStateException, String.valueOf(failure));
        assertTrue(failure.getMessage().contains("closed by another thread while this flush waited"), failure.getMessage());
        assertTrue(failure.getMessage().contains("forced"), failure.getMessage());
    }

    @Test
    void aFlushThatWaitedForACloseWhoseForceFailedSaysTheDataMayNotBeDurable() throws Exception {
        Throwable failure = flushWhileTheCloseForces(true);
        assertTrue(failure instanceof IOException, String.valueOf(failure));
        assertTrue(failure.getMessage().contains("closed while it was being flushed"), failure.getMessage());
        assertTrue(failure.getMessage().contains("injected force failure"), failure.getMessage());
    }

    /** Closes a file with a dirty page, held in its unmap's force while another thread flushes it; the flush's failure. */
    private Throwable flushWhileTheCloseForces(boolean forceFails) throws Exception {
        Path path = dir.resolve("racing.db");
        CountDownLatch forceHeld = new CountDownLatch(1);
        CountDownLatch letForceGo = new CountDownLatch(1);
        AtomicBoolean holdForce = new AtomicBoolean();
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false",
            "pagecache.jmx.enabled", "false"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void force() throws IOException {
                if (holdForce.compareAndSet(true, false)) {
                    forceHeld.countDown();
                    Waits.awaitQuietly(letForceGo);
                    if (forceFails) {
                        throw new IOException("injected force failure");
                    }
                }
                super.force();
            }
        }))) {
            PagedFile file = cache.map(path, PAGE);
            write(file, 3, 33);
            holdForce.set(true);
            Future<?> close = pool.submit(() -> {
                file.close();
                return null;
            });
            Waits.await(forceHeld, "the close reached its force");
            Future<?> flush = pool.submit(() -> {
                file.flush();
                return null;
            });
            Waits.until(FlushRacingItsCloseTest::aFlushWaits, "the flush waits for the close under way");
            letForceGo.countDown();
            if (forceFails) {
                assertThrows(ExecutionException.class, () -> close.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS));
            } else {
                close.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
            Throwable failure = assertThrows(ExecutionException.class,
                () -> flush.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "the file was unmapped under the flush").getCause();
            assertFalse(failure.getMessage().contains("is not mapped"), "blames the caller: " + failure.getMessage());
            try (PagedFile again = cache.map(path, PAGE, false)) {
                assertEquals(33, read(again, 3), "the close wrote the page");
            }
            return failure;
        } finally {
            letForceGo.countDown();
            pool.shutdownNow();
        }
    }

    /** Whether a thread's flush waits to enter its file's gate (FileMapping.enterGate under FileMapping.flush). */
    private static boolean aFlushWaits() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> Arrays.stream(stack)
            .anyMatch(frame -> frame.getClassName().equals(FileMapping.class.getName())
                && frame.getMethodName().equals("enterGate")));
    }
}
