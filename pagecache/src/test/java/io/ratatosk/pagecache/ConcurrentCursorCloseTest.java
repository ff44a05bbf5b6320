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

        race(new Round() {
            @Override
            public PageCursor[] open(SplittableRandom random) throws Exception {
                PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
                return new PageCursor[] {c, c};
            }

            @Override
            public String check() {
                long open = cache.openCursors();
                return open == 1 ? null : "the cache counted " + open + " cursors open, not the one still open";
            }
        });

        // The kept cursor still holds the page memory: closing the file and the cache must not free it under it.
        file.close();
        cache.close();
        assertFalse(cache.isMemoryReleased(), "page memory freed while a cursor was still open");
        kept.close();
        assertTrue(cache.isMemoryReleased());
    }

    /**
     * A parent write cursor and its linked cursor closed from two threads at once (the link shared by mistake). The
     * parent's close walks its links while the link's own close takes itself out of them: the walk met index -1 or a
     * null slot (an exception out of the parent's close, which then skipped releasing its own page: write-locked for
     * good, so no cursor could write it and the cache could never close), or waited for the link's close to leave.
     * Every close must return normally, and both pages be free again, whoever wins.
     */
    @Test
    void aParentAndItsLinkClosedFromTwoThreadsAtOnceReleaseBothPages() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false")));
             PagedFile file = cache.map(dir.resolve("links.db"), 4096)) {
            race(new Round() {
                @Override
                public PageCursor[] open(SplittableRandom random) throws Exception {
                    PageCursor parent = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
                    assertTrue(parent.next());
                    PageCursor link = parent.openLinkedCursor(1 + random.nextInt(3));
                    assertTrue(link.next());
                    return new PageCursor[] {parent, link};
                }

                @Override
                public String check() {
                    long open = cache.openCursors();
                    return open == 0 ? null : open + " cursors left counted open";
                }
            });
            for (long page = 0; page < 4; page++) { // a page left write-locked would keep this waiting for good
                try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(w.next());
                }
            }
        }
    }

    /** One round of {@link #race}: what the two threads close, and the check once both have. */
    private interface Round {
        /** The cursor the leader closes, then the one the other thread closes (the same one, or another). */
        PageCursor[] open(SplittableRandom random) throws Exception;

        /** What is wrong once both closed, or null. */
        String check();
    }

    /**
     * Round after round, two threads close what the round opened: the leader opens it, publishes it and closes its
     * part, the other thread closes its part as soon as it sees it. Each waits a random few hundred nanoseconds first,
     * so that now and then both closes run at the same instant whichever thread saw the round first (two threads: the
     * race needs only two cores). Until {@link #ROUNDS}, {@link #BUDGET_NANOS} or the first round that went wrong.
     */
    private static void race(Round round) throws InterruptedException {
        PageCursor[] opened = new PageCursor[2];
        AtomicInteger published = new AtomicInteger();
        AtomicInteger otherClosed = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread leader = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(1);
                long start = System.nanoTime();
                for (int r = 1; r <= ROUNDS && System.nanoTime() - start < BUDGET_NANOS; r++) {
                    PageCursor[] pair = round.open(random);
                    opened[0] = pair[0];
                    opened[1] = pair[1];
                    published.set(r); // publishes the pair
                    pause(random);
                    pair[0].close();
                    while (otherClosed.get() < r) {
                        if (failure.get() != null) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    rounds.set(r);
                    String problem = round.check();
                    if (problem != null) {
                        wrong.set("after round " + r + ": " + problem);
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
                    while (published.get() < r) {
                        if (stop.get()) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    pause(random);
                    opened[1].close(); // the round's volatile read above makes it visible
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
            Waits.join(t, t.getName() + " finished"); // fails with its stack, within ratatosk.test.wait_s
        }
        assertNull(failure.get(), () -> "after " + rounds.get() + " rounds: " + failure.get());
        assertNull(wrong.get());
    }

    /** Busy-waits 0 to about 400 ns. */
    private static void pause(SplittableRandom random) {
        long until = System.nanoTime() + random.nextInt(400);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
