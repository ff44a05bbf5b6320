package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmap or a truncate that waits for a page being evicted holds only the frame the page's entry named. By the time
 * it can look again the page may be gone and the frame reused: held by a write cursor on a page of another file, which
 * says nothing about the page waited for. The evictions here are faults' (cooperative: the cache's frames are all
 * taken), which then fill the frame with a page of another file, for a write cursor that keeps it.
 */
class ReusedFrameTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;
    private PageCache cache;
    private ExecutorService pool;
    private final AtomicBoolean holdNextEviction = new AtomicBoolean();
    private final CountDownLatch evicting = new CountDownLatch(1);
    private final CountDownLatch finishEviction = new CountDownLatch(1);
    /** Run by the next look at a file's length, after the length was taken. */
    private final AtomicReference<Callable<?>> atNextLength = new AtomicReference<>();
    /** The task of the cursor that pins the first frame: kept, so that its failure is not lost. */
    private Future<?> pinning;

    @AfterEach
    void close() throws Exception {
        finishEviction.countDown();
        if (pool != null) {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        if (cache != null) {
            cache.close();
        }
    }

    /**
     * A cache of {@code frames} frames, no evictor; an eviction, once asked to, waits inside the swapper's evict, and
     * a look at a file's length runs {@link #atNextLength} once set.
     */
    private void open(int frames) {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(frames * PAGE),
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
                "pagecache.warmup.enabled", "false")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void evict(long pageId, long address, boolean dirty) throws IOException {
                    if (holdNextEviction.compareAndSet(true, false)) {
                        evicting.countDown();
                        Waits.awaitQuietly(finishEviction); // the bound, keeping an interrupt
                    }
                    super.evict(pageId, address, dirty);
                }

                @Override
                public long pageCount() throws IOException {
                    long pages = super.pageCount();
                    Callable<?> action = atNextLength.getAndSet(null);
                    if (action != null) {
                        try {
                            action.call();
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }
                    return pages; // as it was before the action
                }
            }));
        pool = Executors.newFixedThreadPool(3);
    }

    /**
     * The frames: one pinned by a write cursor on {@code pinned}, the other holding {@code page} 0 of {@code file}
     * (resident, clean); then a write cursor's fault on page 0 of {@code other} evicts it and waits inside the
     * eviction. Returns the fault's task, which keeps its cursor (and the frame) until {@code release} is counted down.
     */
    private Future<?> evictThenKeepTheFrame(PagedFile pinned, PagedFile file, PagedFile other, CountDownLatch pinnedBoth,
                                            CountDownLatch release) throws Exception {
        CountDownLatch pinnedFirst = new CountDownLatch(1);
        pinning = pool.submit(() -> {
            try (PageCursor w = pinned.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                pinnedFirst.countDown();
                Waits.await(release, "the test released the cursors");
            }
            return null;
        });
        awaitPinned(pinnedFirst, pinning);
        LifecycleTest.read(file, 0);
        assertEquals(0, cache.freeFrames(), "both frames taken");
        holdNextEviction.set(true);
        Future<?> fault = pool.submit(() -> {
            try (PageCursor w = other.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next()); // evicts page 0 of file, the one frame not pinned
                pinnedBoth.countDown();
                Waits.await(release, "the test released the cursors");
            }
            return null;
        });
        Waits.await(evicting, "the eviction began");
        return fault;
    }

    /**
     * Waits for {@code pinnedFirst}; where the task that counts it down ended first, its failure is thrown (not a
     * wait to the bound that says nothing of why).
     */
    private static void awaitPinned(CountDownLatch pinnedFirst, Future<?> task) throws Exception {
        Waits.until(() -> pinnedFirst.getCount() == 0 || task.isDone(), "the first cursor pinned its page");
        if (pinnedFirst.getCount() != 0) {
            task.get();
        }
    }

    /** Waits until {@code thread} waits in {@code method}. */
    private static void awaitWaitingIn(Thread thread, String method) throws InterruptedException {
        Waits.until(() -> {
            assertTrue(thread.isAlive(), thread.getName() + " ended without waiting in " + method);
            return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getMethodName().equals(method));
        }, thread.getName() + " waits in " + method, thread);
    }

    @Test
    void anUnmapWaitingForAnEvictionIsNotRefusedForTheWriteCursorThatGetsTheFrameNext() throws Exception {
        open(2);
        PagedFile pinned = cache.map(dir.resolve("pinned.db"), PAGE);
        PagedFile file = cache.map(dir.resolve("closed.db"), PAGE);
        PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
        LifecycleTest.write(file, 0, 7);
        file.flush();
        CountDownLatch pinnedBoth = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> fault = evictThenKeepTheFrame(pinned, file, other, pinnedBoth, release);
        AtomicReference<Thread> closer = new AtomicReference<>(); // read in a loop: a plain field's load may be hoisted
        Future<?> close = pool.submit(() -> {
            closer.set(Thread.currentThread());
            file.close();
            return null;
        });
        Waits.until(() -> closer.get() != null, "the close started");
        awaitWaitingIn(closer.get(), "dropPages"); // its page's entry names the frame being evicted
        finishEviction.countDown();
        Waits.await(pinnedBoth, "the fault's cursor holds the frame");
        close.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS); // was: "cannot close closed.db: page 0 is still held by a write cursor"
        assertTrue(file.mapping().isClosed(), "unmapped");
        release.countDown();
        fault.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        pinning.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS); // the first cursor's task: a failure of it is the test's
        assertEquals(7, LifecycleTest.read(cache.map(dir.resolve("closed.db"), PAGE), 0));
    }

    /**
     * A cut below the end the cache grew the file to, past its end on disk: the page left last is a hole read in
     * (clean zeros), to be written so that the file reaches it. The truncate read its entry, and as it looked at the
     * file's length the page was evicted (clean: nothing written) by a write cursor's fault of another file, which kept
     * the frame. The truncate took that writer for one on its page, dirty, which the next flush would write: it wrote
     * nothing, and the file stayed shorter than getLastPageId() said (a flush, close or map found it so).
     */
    @Test
    void aTruncateWhoseLastPageIsEvictedAsItLooksWritesItThoughAWriteCursorGetsTheFrame() throws Exception {
        open(3);
        Path path = dir.resolve("cut.db");
        PagedFile file = cache.map(path, PAGE);
        PagedFile pinned = cache.map(dir.resolve("pinned.db"), PAGE);
        PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
        PagedFile another = cache.map(dir.resolve("another.db"), PAGE);
        LifecycleTest.write(file, 0, 1);
        LifecycleTest.write(file, 1, 1);
        file.flush(); // the file on disk: 2 pages
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch pinnedFirst = new CountDownLatch(1);
        pinning = pool.submit(() -> {
            try (PageCursor w = pinned.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                pinnedFirst.countDown();
                Waits.await(release, "the test released the cursors");
            }
            return null;
        });
        awaitPinned(pinnedFirst, pinning);
        try (PageCursor w = file.io(9, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next()); // the cache's end: 10 pages, page 9 dirty and pinned while
            w.putLong(0, 9);
            assertEquals(0, LifecycleTest.read(file, 3)); // page 3, a hole, comes in clean into the last frame
        }
        assertEquals(0, cache.freeFrames(), "three frames: pinned.db's, page 9's and page 3's");
        CountDownLatch pinnedBoth = new CountDownLatch(2);
        Future<?>[] faults = new Future<?>[2];
        atNextLength.set(() -> {
            // page 9 was cut, its frame freed: a write cursor takes it, and another's fault evicts page 3, the one
            // frame left that no cursor pins
            for (int i = 0; i < 2; i++) {
                PagedFile target = i == 0 ? another : other;
                faults[i] = pool.submit(() -> {
                    try (PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next());
                        pinnedBoth.countDown();
                        Waits.await(release, "the test released the cursors");
                    }
                    return null;
                });
                // bounded, and yielding the core: the fault waited for may need it on a 2-core machine
                Future<?> fault = faults[i];
                long left = 1 - i;
                Waits.until(() -> pinnedBoth.getCount() <= left || fault.isDone(), "write cursor " + i + " holds a frame");
            }
            return null;
        });
        file.truncate(4);
        assertEquals(null, atNextLength.get(), "the truncate looked at the file's length");
        assertEquals(0, pinnedBoth.getCount(), "both write cursors hold a frame");
        assertEquals(3, file.getLastPageId());
        assertEquals(4L * PAGE, Files.size(path), "the file reaches the last page the cache says it has");
        release.countDown();
        pinning.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        for (Future<?> fault : faults) {
            fault.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        }
    }
}
