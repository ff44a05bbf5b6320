package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that shares a cursor by mistake and closes it from two threads at once. Both closes used to see the cursor
 * open and both gave it back, so the cache counted one cursor too few: with another cursor still open, closing the
 * cache then freed page memory under that cursor (a read through it could crash the JVM). Now one close wins.
 */
class ConcurrentCursorCloseTest {
    /** Rounds at most, and the time they may take: without the fix the count went wrong within 20-77 rounds. */
    private static final int ROUNDS = 20_000;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(5);

    @TempDir
    Path dir;

    @Test
    void twoThreadsClosingOneCursorGiveItBackOnce() throws Exception {
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false")));
        PagedFile file = cache.map(dir.resolve("shared.db"), 4096);
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            c.putLong(0, 42);
        }
        PageCursor kept = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        assertTrue(kept.next());

        // Two threads close the same cursor each round: the leader opens it, publishes it and closes it, the other closes
        // it as soon as it sees it. Each waits a random few hundred nanoseconds first, so that now and then both closes
        // run at the same instant whichever thread saw the round first (two threads: the race needs only two cores).
        PageCursor[] shared = new PageCursor[1];
        AtomicInteger round = new AtomicInteger();
        AtomicInteger otherClosed = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger wrongAfterRound = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread leader = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(1);
                long start = System.nanoTime();
                for (int r = 1; r <= ROUNDS; r++) {
                    PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
                    shared[0] = c;
                    round.set(r); // publishes the cursor
                    pause(random);
                    c.close();
                    while (otherClosed.get() < r) {
                        if (failure.get() != null) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    rounds.set(r);
                    if (cache.openCursors() != 1) {
                        wrongAfterRound.set(r); // the count stays wrong from here on
                        return;
                    }
                    if (System.nanoTime() - start > BUDGET_NANOS) {
                        return;
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            } finally {
                stop.set(true);
            }
        }, "leader");
        Thread other = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(2);
                for (int r = 1; ; r++) {
                    while (round.get() < r) {
                        if (stop.get()) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    pause(random);
                    shared[0].close(); // the round's volatile read above makes the cursor visible
                    otherClosed.set(r);
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "other");
        for (Thread t : new Thread[] {leader, other}) {
            t.setDaemon(true); // a thread left waiting fails the test below, and must not keep the JVM alive
            t.start();
        }
        for (Thread t : new Thread[] {leader, other}) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        assertNull(failure.get(), () -> String.valueOf(failure.get()));
        assertEquals(0, wrongAfterRound.get(), "the round after which the cache first did not count exactly the one"
            + " cursor still open (0: none, in " + rounds.get() + " rounds)");

        // The kept cursor still holds the page memory: closing the file and the cache must not free it under it.
        file.close();
        cache.close();
        assertFalse(cache.isMemoryReleased(), "page memory freed while a cursor was still open");
        kept.close();
        assertTrue(cache.isMemoryReleased());
    }

    /**
     * A parent write cursor and its linked cursor closed from two threads at once (the link shared by mistake). The
     * parent's close walks its links while the link's own close takes itself out of them: the walk met a null slot
     * (a NullPointerException out of the parent's close, which then skipped releasing its own page: write-locked for
     * good, so no cursor could write it and the cache could never close), or waited for the link's close to leave.
     * Every close must return normally, and both pages be free again, whoever wins.
     */
    @Test
    void aParentAndItsLinkClosedFromTwoThreadsAtOnceReleaseBothPages() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false")));
             PagedFile file = cache.map(dir.resolve("links.db"), 4096)) {
            PageCursor[] pair = new PageCursor[2];
            AtomicInteger round = new AtomicInteger();
            AtomicInteger otherClosed = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger rounds = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread leader = new Thread(() -> {
                try {
                    SplittableRandom random = new SplittableRandom(3);
                    long start = System.nanoTime();
                    for (int r = 1; r <= ROUNDS && System.nanoTime() - start < BUDGET_NANOS; r++) {
                        PageCursor parent = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
                        assertTrue(parent.next());
                        PageCursor link = parent.openLinkedCursor(1 + random.nextInt(3));
                        assertTrue(link.next());
                        pair[0] = parent;
                        pair[1] = link;
                        round.set(r); // publishes the pair
                        pause(random);
                        parent.close();
                        while (otherClosed.get() < r) {
                            if (failure.get() != null) {
                                return;
                            }
                            Thread.onSpinWait();
                        }
                        rounds.set(r);
                        assertEquals(0, cache.openCursors(), "round " + r + ": cursors left counted open");
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    stop.set(true);
                }
            }, "leader");
            Thread other = new Thread(() -> {
                try {
                    SplittableRandom random = new SplittableRandom(4);
                    for (int r = 1; ; r++) {
                        while (round.get() < r) {
                            if (stop.get()) {
                                return;
                            }
                            Thread.onSpinWait();
                        }
                        pause(random);
                        pair[1].close();
                        otherClosed.set(r);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "other");
            for (Thread t : new Thread[] {leader, other}) {
                t.setDaemon(true);
                t.start();
            }
            for (Thread t : new Thread[] {leader, other}) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertFalse(t.isAlive(), t.getName() + " did not finish");
            }
            assertNull(failure.get(), () -> "after " + rounds.get() + " rounds: " + failure.get());
            for (long page = 0; page < 4; page++) { // a page left write-locked would keep this waiting for good
                try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(w.next());
                }
            }
        }
    }

    /** Busy-waits 0 to about 400 ns. */
    private static void pause(SplittableRandom random) {
        long until = System.nanoTime() + random.nextInt(400);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
