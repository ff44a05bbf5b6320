package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy in caches of 2, 3, 4 and 8 frames, with and without the background evictor: as many threads as
 * frames each pin a page, and one more thread's fault is refused with {@link NoEvictableFrameException} (never a
 * hang); with every frame pinned but one, a fault evicts that one; with every frame dirty and the disk refusing
 * writes, a fault gets the write's failure (never a sweep for ever under the policy's lock), and once the disk
 * answers again the cache faults, flushes and closes.
 */
class PolicyPinningEdgeTest {
    private static final int PAGE = 4096;
    private static final int[] FRAME_COUNTS = {2, 3, 4, 8};
    /**
     * How long these caches wait with every frame pinned before they refuse a fault, in place of the two seconds a
     * cache waits: 26 refusals waited out 52 s of them. Long enough that a refusal at once (no wait) cannot pass for one.
     */
    private static final Duration ALL_PINNED_WAIT = Duration.ofMillis(150);
    /**
     * A fault that hangs in the cache (no wait of the test's own covers it) ends the case with the thread's stack:
     * twice {@link Waits#BOUND_SECONDS}, so that it follows {@code ratatosk.test.wait_s} and a wait of the test's
     * that runs out fails first, naming what it waited for.
     */
    private static final Duration HANG = Duration.ofSeconds(2 * Waits.BOUND_SECONDS);
    /**
     * Each policy is refused once per evictor setting: in the smallest cache with the evictor on, in one of a few
     * frames more with it off (both in every case took 106 s of CI, at two seconds a refusal).
     */
    private static int refusalFrames(boolean evictor) {
        return evictor ? 2 : 8;
    }

    @TempDir
    Path dir;

    static Stream<Arguments> policies() {
        List<Arguments> all = new ArrayList<>();
        for (String policy : PolicyRegistry.NAMES) {
            all.add(Arguments.of(policy, true));
            all.add(Arguments.of(policy, false));
        }
        return all.stream();
    }

    private static PageCacheConfig config(String policy, int frames, boolean evictor) {
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(frames * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", String.valueOf(evictor),
            "pagecache.warmup.enabled", "false"));
    }

    @ParameterizedTest(name = "{0}, evictor {1}")
    @MethodSource("policies")
    void allButOnePinnedStillEvictsAndOnePinMoreThanFramesIsRefused(String policy, boolean evictor) {
        assertTimeoutPreemptively(HANG, () -> {
            for (int frames : FRAME_COUNTS) {
                pinEveryFrameButOne(policy, frames, evictor);
            }
            pinEveryFrameThenOneMore(policy, refusalFrames(evictor), evictor);
        });
    }

    private void pinEveryFrameButOne(String policy, int frames, boolean evictor) throws Exception {
        Path path = dir.resolve(policy + "-spared-" + frames + "-" + evictor + ".db");
        ExecutorService pinners = Executors.newFixedThreadPool(frames - 1);
        try (PageCache cache = PageCache.open(config(policy, frames, evictor)); PagedFile file = cache.map(path, PAGE)) {
            CountDownLatch pinned = new CountDownLatch(frames - 1);
            CountDownLatch release = new CountDownLatch(1);
            List<Future<?>> holders = new ArrayList<>();
            for (int t = 0; t < frames - 1; t++) {
                long page = 10L * t;
                holders.add(pinners.submit(() -> holdPage(file, page, pinned, release)));
            }
            awaitPinned(pinned, holders);
            // Every frame pinned but one: a fault of page after page evicts that one frame each time.
            for (long page = 1; page <= 3L * frames; page++) {
                touchPage(file, page);
            }
            release.countDown();
            for (Future<?> holder : holders) {
                holder.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            pinners.shutdownNow();
        }
    }

    private void pinEveryFrameThenOneMore(String policy, int frames, boolean evictor) throws Exception {
        Path path = dir.resolve(policy + "-" + frames + "-" + evictor + ".db");
        ExecutorService pinners = Executors.newFixedThreadPool(frames);
        try (PageCache cache = PageCache.open(config(policy, frames, evictor)); PagedFile file = cache.map(path, PAGE)) {
            cache.engine().allPinnedTimeoutNanos(ALL_PINNED_WAIT.toNanos());
            CountDownLatch pinned = new CountDownLatch(frames - 1);
            CountDownLatch release = new CountDownLatch(1);
            List<Future<?>> holders = new ArrayList<>();
            for (int t = 0; t < frames - 1; t++) {
                long page = 10L * t;
                holders.add(pinners.submit(() -> holdPage(file, page, pinned, release)));
            }
            awaitPinned(pinned, holders);
            CountDownLatch lastPinned = new CountDownLatch(1);
            holders.add(pinners.submit(() -> holdPage(file, 1_000, lastPinned, release)));
            awaitPinned(lastPinned, holders);
            long faultStarted = System.nanoTime();
            NoEvictableFrameException refused = assertThrows(NoEvictableFrameException.class, () -> touchPage(file, 2_000),
                policy + " on " + frames + " frames");
            long waitedNanos = System.nanoTime() - faultStarted;
            // A bound from below only: a loaded machine makes the wait longer, never shorter.
            assertTrue(waitedNanos >= ALL_PINNED_WAIT.toNanos(), "refused after " + waitedNanos / 1_000_000 + " ms, before"
                + " the " + ALL_PINNED_WAIT.toMillis() + " ms wait for a frame to be unpinned: " + refused.getMessage());
            assertTrue(refused.getMessage().contains("all " + frames + " frames"), refused.getMessage());
            assertTrue(refused.getMessage().contains(frames + " by write cursors"), refused.getMessage());
            release.countDown();
            for (Future<?> holder : holders) {
                holder.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
            touchPage(file, 2_000); // the pins are gone: the fault that was refused goes through
        } finally {
            pinners.shutdownNow();
        }
    }

    /**
     * Waits for {@code pinned}; a holder that ended before it was counted down failed to pin its page, and its
     * failure is thrown here (the wait would otherwise run to the test's timeout and the failure never be shown).
     */
    private static void awaitPinned(CountDownLatch pinned, List<Future<?>> holders) throws Exception {
        Waits.until(() -> pinned.getCount() == 0 || holders.stream().anyMatch(Future::isDone), "the holders pinned");
        for (Future<?> holder : holders) {
            if (holder.isDone()) {
                holder.get();
            }
        }
    }

    private static Void holdPage(PagedFile file, long page, CountDownLatch pinned, CountDownLatch release) throws Exception {
        try (PageCursor cursor = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(cursor.next());
            cursor.putLong(0, page);
            pinned.countDown();
            release.await();
        }
        return null;
    }

    private static void touchPage(PagedFile file, long page) throws IOException {
        try (PageCursor cursor = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(cursor.next());
            cursor.putLong(0, page);
        }
    }

    @ParameterizedTest(name = "{0}, evictor {1}")
    @MethodSource("policies")
    void everyFrameDirtyAndTheDiskRefusingGivesTheFaultTheFailure(String policy, boolean evictor) {
        assertTimeoutPreemptively(HANG, () -> {
            for (int frames : FRAME_COUNTS) {
                faultWithEveryFrameDirtyAndWritesFailing(policy, frames, evictor);
            }
        });
    }

    private void faultWithEveryFrameDirtyAndWritesFailing(String policy, int frames, boolean evictor) throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        Path path = dir.resolve(policy + "-dirty-" + frames + "-" + evictor + ".db");
        try (PageCache cache = PageCache.open(config(policy, frames, evictor), swappers)) {
            PagedFile file = cache.map(path, PAGE);
            swappers.failWrites = true;
            IOException failed = null;
            for (long page = 0; page < 4L * frames && failed == null; page++) {
                try {
                    touchPage(file, page);
                } catch (IOException e) {
                    failed = e;
                }
            }
            assertTrue(failed != null, policy + " on " + frames + " frames: no fault met the refused writes");
            assertTrue(swappers.failedWrites.get() > 0, failed.toString());
            swappers.failWrites = false;
            for (long page = 100; page < 100 + 2L * frames; page++) {
                long faulted = page;
                swappers.retryFailuresOfTheFailingPeriod(() -> touchPage(file, faulted));
            }
            swappers.retryFailuresOfTheFailingPeriod(file::flush);
            file.close();
        }
    }
}
