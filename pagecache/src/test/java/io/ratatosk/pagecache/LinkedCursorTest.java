package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linked cursors: a record whose head is at the end of one page and whose tail is at the start of the
 * next, read through a cursor and a linked cursor, with the tail's page rewritten, evicted or truncated
 * under the reader. The record here is a version written at {@link #HEAD} on page 0 and again at offset 0
 * of page 1: a read that accepts two different versions is torn.
 */
class LinkedCursorTest {
    private static final int PAGE = 8192;
    private static final int HEAD = PAGE - 8;

    @TempDir
    Path dir;
    private PageCache cache;
    private PagedFile file;

    @BeforeEach
    void open() throws Exception {
        // A usage clock: evictEverything() evicts by one pass over new pages, which a scan-resistant policy
        // (CLOCK-Pro, best-of's start) rightly survives with the pages read before it.
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.evictor.enabled", "false",
            "pagecache.policy", "muninn")));
        file = cache.map(dir.resolve("linked.db"), PAGE);
        writeRecord(1);
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
    }

    @Test
    void aLinkedCursorReadsTheSameFileWithTheSameLockModeFromTheGivenPage() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            PageCursor linked = c.openLinkedCursor(1);
            assertEquals(-1, linked.getCurrentPageId(), "positioned before the page");
            assertTrue(linked.next());
            assertEquals(1, linked.getCurrentPageId());
            assertThrows(IllegalStateException.class, () -> linked.putLong(0, 3), "a read cursor's link reads only");
            assertFalse(linked.next(), "page 2 is past the end, as for any read cursor");
        }
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            PageCursor linked = w.openLinkedCursor(5);
            assertTrue(linked.next(), "a write cursor's link grows the file");
            linked.putLong(0, 99);
            assertEquals(5, file.getLastPageId());
        }
    }

    @Test
    void theParentsShouldRetryIsTrueWhenTheLinkedPageIsRewrittenAndTheRepeatedReadIsWhole() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor linked = c.openLinkedCursor(1)) {
            assertTrue(c.next());
            assertTrue(linked.next());
            long head = c.getLong(HEAD);
            long tail = linked.getLong(0);
            assertEquals(1, head);
            assertEquals(1, tail);
            writeTail(2); // only the linked cursor's page changes
            assertTrue(c.shouldRetry(), "the parent sees its linked cursor's page change");
            writeRecord(3);
            assertTrue(c.shouldRetry(), "both pages changed: still true");
            head = c.getLong(HEAD);
            tail = linked.getLong(0);
            assertFalse(c.shouldRetry());
            assertEquals(3, head);
            assertEquals(3, tail);
        }
    }

    @Test
    void theParentsShouldRetryIsTrueWhenTheLinkedPageIsEvictedAndReadsItAnew() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor linked = c.openLinkedCursor(1)) {
            assertTrue(c.next());
            assertTrue(linked.next());
            linked.getLong(0);
            evictEverything();
            assertEquals(0, PageCacheInternals.tableEntry(file, 1), "the linked cursor's page was evicted");
            assertTrue(c.shouldRetry());
            long head;
            long tail;
            do {
                head = c.getLong(HEAD);
                tail = linked.getLong(0);
            } while (c.shouldRetry());
            assertEquals(1, head);
            assertEquals(1, tail);
            assertTrue(PageCacheInternals.tableEntry(file, 1) > 0, "the re-pin faulted the linked page back in");
        }
    }

    @Test
    void aLinkedPageTruncatedAwayMakesTheParentRetryAndThenReportIt() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor linked = c.openLinkedCursor(1)) {
            assertTrue(c.next());
            assertTrue(linked.next());
            linked.getLong(0);
            file.truncate(1);
            assertTrue(c.shouldRetry(), "the linked cursor's page is gone");
            long tail;
            do {
                c.getLong(HEAD);
                tail = linked.getLong(0);
            } while (c.shouldRetry());
            assertEquals(0, tail, "the linked cursor has no page: its reads are out of bounds");
            assertTrue(c.checkAndClearBoundsFlag(), "the parent's bounds flag covers the linked cursor");
            CursorException e = assertThrows(CursorException.class, c::checkAndClearCursorException);
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void aLinkedCursorClosedBeforeShouldRetryIsStillValidated() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            try (PageCursor linked = c.openLinkedCursor(1)) {
                assertTrue(linked.next());
                linked.getLong(0);
            }
            writeTail(2);
            assertTrue(c.shouldRetry(), "the closed link's read was torn");
            assertFalse(c.shouldRetry(), "and it is forgotten once reported");
        }
    }

    @Test
    void aLinkedCursorMovedOnWithinOneReadStillHasItsEarlierPageValidated() throws Exception {
        writePage(2, 7);
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor linked = c.openLinkedCursor(1)) {
            assertTrue(c.next());
            assertTrue(linked.next());
            linked.getLong(0);
            assertTrue(linked.next(), "on to page 2");
            writeTail(2); // page 1, which the linked cursor left
            assertTrue(c.shouldRetry());
        }
    }

    /**
     * A cursor's next() ends its read: the pins its links left are forgotten, as next(pageId)'s Javadoc says, also those
     * a link's own link left with it (a record read through a chain of links), not only those its direct links left.
     */
    @Test
    void theParentsNextForgetsThePinsLeftAnywhereBelowIt() throws Exception {
        writePage(2, 2);
        writePage(3, 3);
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            PageCursor linked = c.openLinkedCursor(1);
            assertTrue(linked.next());
            PageCursor below = linked.openLinkedCursor(2);
            assertTrue(below.next());
            below.getLong(0);
            assertTrue(below.next(), "on to page 3: page 2's pin is left with the link above it");
            assertEquals(1, linked.linkPinsKept());

            assertTrue(c.next(), "a new read, on page 1: the last one's pins are forgotten");
            assertEquals(0, linked.linkPinsKept(), "page 2's pin belonged to the read next() ended");
            writePage(2, 20); // the page only that read saw
            assertFalse(c.shouldRetry(), "nothing the new read read changed");

            below.getLong(0); // a read of this round through the open link below: still validated
            writePage(3, 30);
            assertTrue(c.shouldRetry(), "the open link below is on page 3, which changed");
        }
    }

    @Test
    void theParentsBoundsFlagAndCursorExceptionCoverItsLinkedCursors() throws Exception {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor linked = c.openLinkedCursor(1)) {
            assertTrue(c.next());
            assertTrue(linked.next());
            linked.getLong(PAGE);
            assertTrue(c.checkAndClearBoundsFlag());
            assertFalse(linked.checkAndClearBoundsFlag(), "cleared through the parent");
            linked.setCursorException("tail length makes no sense");
            assertFalse(c.shouldRetry());
            assertEquals("tail length makes no sense",
                assertThrows(CursorException.class, c::checkAndClearCursorException).getMessage());
            assertDoesNotThrow(linked::checkAndClearCursorException, "cleared through the parent");
            linked.setCursorException("again");
            c.clearCursorException();
            assertDoesNotThrow(linked::checkAndClearCursorException);
        }
    }

    @Test
    void closingTheParentClosesItsLinkedCursorsAndTheirLinks() throws Exception {
        PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        PageCursor linked = c.openLinkedCursor(1);
        PageCursor linkedOfLinked = linked.openLinkedCursor(0);
        assertTrue(linkedOfLinked.next());
        c.close();
        assertThrows(IllegalStateException.class, linked::next);
        assertThrows(IllegalStateException.class, linkedOfLinked::shouldRetry);
        assertThrows(IllegalStateException.class, () -> c.openLinkedCursor(1));
        linked.close(); // closing again is harmless
        cache.close();
        assertTrue(cache.isMemoryReleased(), "every cursor, linked ones included, was counted closed");
    }

    @Test
    void aWriteCursorsLinkedCursorHoldsItsPageWriteLocked() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK); PageCursor linked = w.openLinkedCursor(1)) {
            assertTrue(w.next());
            assertTrue(linked.next());
            w.putLong(HEAD, 8);
            linked.putLong(0, 8);
            assertFalse(w.shouldRetry());
            assertThrows(IllegalStateException.class, () -> file.truncate(1), "page 1 is held by the linked write cursor");
        }
        assertEquals(8, readHead());
    }

    @Test
    void openingALinkedCursorOnAnUnmappedFileIsRefused() throws Exception {
        PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        file.close();
        assertThrows(IllegalStateException.class, () -> c.openLinkedCursor(1));
        c.close();
    }

    @Test
    void readersThroughLinkedCursorsNeverAcceptATornRecordWhileWritersRewriteIt() throws Exception {
        cache.close();
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "128k")));
        file = cache.map(dir.resolve("linked-concurrent.db"), PAGE);
        int records = 24; // record r spans pages r and r + 1: more pages than the 16 frames, so they are evicted too
        for (int r = 0; r <= records; r++) {
            writePage(r, 0);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong accepted = new AtomicLong();
        AtomicLong torn = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            futures.add(pool.submit(() -> {
                // Writes on until the readers have accepted reads too: on a loaded machine the 3000 could all be done
                // before a reader ran (it happened), which made the test fail with nothing read. Stopped by a reader
                // that failed: with none left to accept, it wrote on for good, and the test failed as a timeout.
                try {
                    for (long version = 1; (version < 3000 || accepted.get() < 100) && !stop.get(); version++) {
                        int r = (int) (version % records);
                        try (PageCursor w = file.io(r, PagedFile.PF_SHARED_WRITE_LOCK);
                             PageCursor tail = w.openLinkedCursor(r + 1)) {
                            assertTrue(w.next());
                            assertTrue(tail.next());
                            w.putLong(HEAD, version);
                            tail.putLong(0, version);
                        }
                    }
                } finally {
                    stop.set(true); // also where the writer failed: the readers would read for good
                }
                return null;
            }));
            for (int t = 0; t < 3; t++) {
                long seed = t;
                futures.add(pool.submit(() -> {
                    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                    try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                        while (!stop.get()) {
                            int r = random.nextInt(records);
                            assertTrue(c.next(r));
                            long head;
                            long tail;
                            do {
                                head = c.getLong(HEAD);
                                try (PageCursor linked = c.openLinkedCursor(r + 1)) {
                                    linked.next();
                                    tail = linked.getLong(0);
                                }
                            } while (c.shouldRetry());
                            accepted.incrementAndGet();
                            if (head != tail) {
                                torn.incrementAndGet();
                            }
                        }
                    } finally {
                        stop.set(true); // ends only once stopped, or failed: then the writer stops, and the failure shows
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true); // an interrupt stops none of the loops
            pool.shutdownNow();
        }
        assertTrue(accepted.get() > 0);
        assertEquals(0, torn.get(), "torn records accepted out of " + accepted.get());
    }

    // ---- helpers --------------------------------------------------------------------------------

    /**
     * More links than the first link array holds, and more pages left behind than the first pin arrays hold: every
     * page a link read since the parent's last round is still validated, each link's bounds flag and cursor
     * exception reach the parent, and links close in any order.
     */
    @Test
    void manyLinksAndManyPagesLeftBehindAreAllValidatedAndReported() throws Exception {
        int pages = 12;
        for (int p = 2; p < pages; p++) {
            writePage(p, p);
        }
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            List<PageCursor> links = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                links.add(c.openLinkedCursor(1));
            }
            for (PageCursor link : links) { // each link reads pages 1 .. pages-1, leaving each behind but the last
                for (int p = 1; p < pages; p++) {
                    assertTrue(link.next(p));
                    assertEquals(p, link.getLong(0)); // page 1 holds the record, version 1
                }
            }
            assertFalse(c.shouldRetry(), "nothing changed");
            for (PageCursor link : links) {
                for (int p = 1; p < pages; p++) {
                    assertTrue(link.next(p));
                }
            }
            writePage(3, 33); // a page every link left behind
            assertTrue(c.shouldRetry(), "a page a link left since the last round changed");
            assertFalse(c.shouldRetry(), "the round is over: the pages left behind are forgotten");

            links.get(3).getLong(PAGE); // out of bounds
            links.get(1).setCursorException("link 1");
            links.get(4).close();
            links.get(0).close();
            assertTrue(c.checkAndClearBoundsFlag(), "a link's bounds flag reaches the parent");
            CursorException e = assertThrows(CursorException.class, c::checkAndClearCursorException);
            assertEquals("link 1", e.getMessage());
            writePage(pages - 1, 111); // the page a closed link was on
            assertTrue(c.shouldRetry(), "a closed link's last page is still validated");
            assertEquals(3, links.stream().filter(l -> {
                try {
                    l.getCurrentPageId();
                    return true;
                } catch (IllegalStateException closed) {
                    return false;
                }
            }).count());
        }
        assertEquals(0, cache.openCursors(), "closing the parent closed the links still open");
    }

    /**
     * A linked cursor that moves over the same few pages again and again before its parent's {@code shouldRetry()}
     * (a long scan through a link) leaves its parent at most one pin per frame, and the parent's round still validates
     * every page it left. The parent kept a pin per move before: 12 bytes a page, without bound, so a long enough scan
     * ran the heap out.
     */
    @Test
    void aLinkedCursorMovingOverManyPagesLeavesAtMostAPinPerFrameAndAllAreStillValidated() throws Exception {
        int pages = 8;
        for (int p = 2; p < pages; p++) {
            writePage(p, p);
        }
        int moves = 100 * CursorLinks.COMPACT_PINS_FROM;
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            try (PageCursor link = c.openLinkedCursor(1)) {
                for (int i = 0; i < moves; i++) {
                    assertTrue(link.next(1 + i % (pages - 1)));
                }
                assertTrue(c.linkPinsKept() <= 2 * CursorLinks.COMPACT_PINS_FROM, c.linkPinsKept() + " pins kept for "
                    + moves + " moves over " + (pages - 1) + " pages");
                assertFalse(c.shouldRetry(), "nothing changed");

                for (int i = 0; i < moves; i++) {
                    assertTrue(link.next(1 + i % (pages - 1)));
                    if (i == moves / 2) {
                        writePage(3, 33); // a page the link left before this and leaves again after
                    }
                }
                assertTrue(c.shouldRetry(), "a page the link left changed during the round");
                assertFalse(c.shouldRetry());
            }
        }
    }

    private void writeRecord(long version) throws IOException {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putLong(HEAD, version);
            assertTrue(w.next());
            w.putLong(0, version);
        }
    }

    private void writeTail(long version) throws IOException {
        writePage(1, version);
    }

    private void writePage(long pageId, long value) throws IOException {
        try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putLong(0, value);
        }
    }

    private long readHead() throws IOException {
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            long v;
            do {
                v = c.getLong(HEAD);
            } while (c.shouldRetry());
            return v;
        }
    }

    /** Writes ten times the cache's worth of pages of another file, with the evictor off: every page of {@link #file} goes. */
    private void evictEverything() throws IOException {
        try (PagedFile other = cache.map(dir.resolve("other.db"), PAGE)) {
            try (PageCursor w = other.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < 10 * cache.frameCount(); p++) {
                    assertTrue(w.next());
                }
            }
        }
    }
}
