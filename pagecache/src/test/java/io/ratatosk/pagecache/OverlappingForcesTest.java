package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.ratatosk.core.ForwardingPageSwapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two flushes of one file whose forces overlap, the first one's failing: the operating system reports a page it could
 * not write to one fsync only (and the NVM tier a dirty copy it lost to one force only), so the second force may succeed
 * though the pages its flush wrote are not on storage. It once returned normally before the first had recorded its
 * failure; it reports that failure now.
 */
class OverlappingForcesTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    @Test
    void aFlushWhoseForceOverlapsAFailingOneReportsThatFailure() throws Exception {
        CountDownLatch firstForceEntered = new CountDownLatch(1);
        CountDownLatch firstForceMayFail = new CountDownLatch(1);
        AtomicBoolean firstForce = new AtomicBoolean(true);
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size",
            String.valueOf(PAGE), "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false",
            "pagecache.jmx.enabled", "false"));
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(file -> new ForwardingPageSwapper(file) {
            @Override
            public void force() throws IOException {
                if (firstForce.getAndSet(false)) {
                    firstForceEntered.countDown();
                    Waits.awaitQuietly(firstForceMayFail);
                    throw new IOException("injected: the fsync found a page it could not write");
                }
                super.force(); // succeeds: the operating system reported the failure to the first fsync
            }
        }))) {
            Path path = dir.resolve("overlapping.db");
            PagedFile file = cache.map(path, PAGE);
            write(file, 0, 1);
            AtomicReference<Throwable> firstOutcome = new AtomicReference<>();
            Thread first = new Thread(() -> firstOutcome.set(outcomeOf(file)), "first flush");
            first.start();
            Waits.await(firstForceEntered, "the first flush reached its force", first);

            write(file, 1, 2); // the second flush writes it, and counts on its force for it
            AtomicReference<Throwable> secondOutcome = new AtomicReference<>();
            Thread second = new Thread(() -> secondOutcome.set(outcomeOf(file)), "second flush");
            second.start();
            awaitEndedOrWaitingToForce(second);
            firstForceMayFail.countDown();
            Waits.join(first, "the first flush ended");
            Waits.join(second, "the second flush ended");

            assertInstanceOf(IOException.class, firstOutcome.get(), "the failed force");
            Throwable secondFailure = secondOutcome.get();
            assertInstanceOf(IOException.class, secondFailure, "the second flush returned normally, though the force"
                + " its own overlapped had failed");
            assertTrue(secondFailure.getMessage().contains("an earlier force of " + path + " failed"),
                secondFailure.getMessage());
            assertInstanceOf(IOException.class, outcomeOf(file), "it sticks");
            try {
                file.close();
            } catch (IOException sticks) {
                // the failure, said again by the close that unmaps the file
            }
        }
    }

    /** What the flush threw, or null if it returned normally. */
    private static Throwable outcomeOf(PagedFile file) {
        try {
            file.flush();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Until the thread has ended, or waits in a force of the file (for the one under way). */
    private static void awaitEndedOrWaitingToForce(Thread thread) throws InterruptedException {
        Waits.until(() -> !thread.isAlive() || waitsToForce(thread), "the second flush ended or waited to force", thread);
    }

    private static boolean waitsToForce(Thread thread) {
        Thread.State state = thread.getState();
        return (state == Thread.State.BLOCKED || state == Thread.State.WAITING) && Arrays.stream(thread.getStackTrace())
            .anyMatch(frame -> frame.getClassName().equals(FileMapping.class.getName()) && frame.getMethodName().equals("force"));
    }
}
