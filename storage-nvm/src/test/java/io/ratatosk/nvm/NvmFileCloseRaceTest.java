package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The close of a file through the tier (the page cache retrying a close that failed) and the tier's own close of that
 * file, at once: the one that comes second waits for the first and, finding the file durable and closed, does nothing.
 * Both ran side by side: the second forced (or closed) a file the first had made durable and closed meanwhile, and
 * reported a ClosedChannelException to its caller, a failure of a file that was fine, which tells a store to recover it.
 */
class NvmFileCloseRaceTest {
    private static final int PAGE = 512;

    @TempDir
    Path dir;

    @Test
    void aFileClosedWhileTheTiersCloseClosesItReportsNoFailure() throws Exception {
        CountDownLatch inForce = new CountDownLatch(1);
        CountDownLatch letForceEnd = new CountDownLatch(1);
        AtomicInteger forces = new AtomicInteger();
        FileChannelFiles files = new FileChannelFiles();
        PageSwapperFactory slowFirstForce = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(files.create(path, fileId, filePageSize, create)) {
                    @Override
                    public void force() throws IOException {
                        if (forces.incrementAndGet() == 1) {
                            inForce.countDown(); // the file's close is in its force: the tier's close comes now
                            await(letForceEnd);
                        }
                        super.force();
                    }
                };
            }

            @Override
            public void close() {
            }
        };
        NvmSwapStore store = new NvmSwapStore(
            NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(), slowFirstForce);
        Path file = Files.createFile(dir.resolve("a.db"));
        PageSwapper swapper = store.create(file, 0, PAGE, true);

        AtomicReference<Throwable> fileClose = new AtomicReference<>();
        Thread fileCloser = new Thread(() -> {
            try {
                swapper.close();
            } catch (Throwable t) {
                fileClose.set(t);
            }
        }, "file-close");
        fileCloser.start();
        Waits.await(inForce, "the file's close reached its force", fileCloser);
        AtomicReference<Throwable> tierClose = new AtomicReference<>();
        Thread tierCloser = new Thread(() -> {
            try {
                store.close();
            } catch (Throwable t) {
                tierClose.set(t);
            }
        }, "tier-close");
        tierCloser.start();
        waitUntilDoneOrBlocked(tierCloser);
        letForceEnd.countDown();
        Waits.join(fileCloser, "the file's close ended");
        Waits.join(tierCloser, "the tier's close ended");

        assertNull(fileClose.get(), "the file is durable and closed, by one close or the other: no failure to report");
        assertNull(tierClose.get(), "nor for the tier's close");
        assertEquals(1, forces.get(), "one close forced the file, the other found it closed");
    }

    /** Until {@code thread} ended, or waits for a lock (the file's close under way). */
    private static void waitUntilDoneOrBlocked(Thread thread) throws InterruptedException {
        Waits.until(() -> !thread.isAlive() || thread.getState() == Thread.State.BLOCKED, thread.getName()
            + " ended or waits for a lock", thread);
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(Waits.BOUND_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the test never let the force end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
