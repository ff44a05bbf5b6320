package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PagedFile.touch, PagedFile.numberOfCachedPages and the PF_READ_AHEAD flag. */
class TouchAndReadAheadTest {
    private static final int PAGE = 4096;
    private static final int FILE_PAGES = 200;

    @TempDir
    Path dir;
    private PageCache cache;

    @AfterEach
    void close() throws Exception {
        if (cache != null) {
            cache.close();
        }
    }

    /** A file of {@link #FILE_PAGES} pages, each holding its id, written and then mapped into a fresh cache. */
    private PagedFile freshFile() throws IOException {
        Path path = dir.resolve("scan.db");
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "2m", "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.warmup.enabled", "false")); // cold scans: a reheat from the last map would hide the faults counted here
        if (cache == null) {
            try (PageCache writer = PageCache.open(config); PagedFile file = writer.map(path, PAGE);
                 PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < FILE_PAGES; p++) {
                    assertTrue(w.next());
                    w.putLong(0, p);
                }
            }
        } else {
            cache.close();
        }
        cache = PageCache.open(config);
        return cache.map(path, PAGE, false);
    }

    @Test
    void touchFaultsInWhatIsMissingWithoutPinningAndSaysHowMany() throws Exception {
        PagedFile file = freshFile();
        assertEquals(0, file.numberOfCachedPages());
        assertEquals(10, file.touch(0, 10));
        assertEquals(10, file.numberOfCachedPages());
        assertEquals(5, file.touch(5, 10), "pages 5..9 were there already");
        assertEquals(0, file.touch(0, 15));
        assertEquals(0, file.touch(0, 0));
        PageCacheStats stats = cache.stats();
        assertEquals(0, stats.hits() + stats.faults(), "touch is no cursor's access");
        for (int f = 0; f < cache.frameCount(); f++) {
            assertTrue(cache.frames().isUnlocked(f), "touch leaves nothing pinned: frame " + f);
        }
        try (PageCursor r = file.io(12, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            long v;
            do {
                v = r.getLong(0);
            } while (r.shouldRetry());
            assertEquals(12, v, "a touched page holds the file's content");
            assertEquals(0, r.faultsWaitedFor(), "and is a hit");
        }
    }

    @Test
    void touchStopsAtTheFilesEndAndValidatesItsArguments() throws Exception {
        PagedFile file = freshFile();
        assertEquals(3, file.touch(FILE_PAGES - 3, 100));
        assertEquals(3, file.numberOfCachedPages());
        assertEquals(0, file.touch(FILE_PAGES + 5, 1));
        assertThrows(IllegalArgumentException.class, () -> file.touch(0, -1));
        assertThrows(IllegalArgumentException.class, () -> file.touch(-1, 1));
        file.close();
        assertThrows(IllegalStateException.class, () -> file.touch(0, 1));
        assertThrows(IllegalStateException.class, () -> file.touch(0, 0), "no page to fault in: refused all the same");
        assertThrows(IllegalStateException.class, () -> file.touch(FILE_PAGES + 5, 1), "past the end: refused all the same");
        assertEquals(0, file.numberOfCachedPages(), "an unmapped file has no page in the cache");
    }

    @Test
    void readAheadOnASequentialScanSparesTheScannerMostFaultWaits() throws Exception {
        long plain = scan(freshFile(), PagedFile.PF_SHARED_READ_LOCK, false);
        assertEquals(FILE_PAGES, plain, "without read-ahead the scanner waits for every page");

        PagedFile file = freshFile();
        long ahead = scan(file, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD, true);
        assertTrue(ahead <= FILE_PAGES / 10, "with read-ahead the scanner waited for " + ahead + " of " + FILE_PAGES + " pages");
        assertTrue(cache.stats().faults() <= ahead, "the read-ahead's faults are not the scanner's");
        assertEquals(FILE_PAGES, file.numberOfCachedPages(), "nothing past the end was read ahead");
    }

    @Test
    void readAheadWorksForWriteCursorsAndSurvivesJumpsAndTheFilesEnd() throws Exception {
        PagedFile file = freshFile();
        try (PageCursor w = file.io(FILE_PAGES - 5, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW | PagedFile.PF_READ_AHEAD)) {
            while (w.next()) {
                w.putLong(8, 1);
            }
            assertTrue(w.next(3), "a jump");
            assertTrue(w.next(100));
        }
        assertTrue(file.numberOfCachedPages() <= FILE_PAGES);
        assertEquals(FILE_PAGES - 1, file.getLastPageId(), "read-ahead never grows the file");
    }

    @Test
    void aJumpOrARepeatedPageReadsNothingAheadASequentialMoveDoes() throws Exception {
        PagedFile file = freshFile();
        long lookup = 100;
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD);
             PageCursor scan = file.io(150, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
            assertTrue(c.next(lookup), "a jump from before page 0");
            assertTrue(c.next(lookup), "the same page again");
            // The worker takes requests oldest first, each whole: once the scan's request is served, any the lookup
            // made before it was too.
            assertTrue(scan.next(), "a scan's first page, from where io() put it");
            awaitResident(file, 151);
            assertEquals(0, PageCacheInternals.tableEntry(file, lookup + 1), "read ahead of a lookup");

            assertTrue(c.next(), "one page on from the lookup: a scan from there");
            awaitResident(file, lookup + 2);
        }
    }

    /**
     * A scan that reached the file's end, then goes on once the file grew (a reader tailing a file another cursor
     * appends to). The window requested at the end was cut short there, but the scan took it for requested in full:
     * after the growth nothing was read ahead for the rest of that window, and the scanner waited for each of its
     * pages itself (23 of the next 31, pages 10 to 32, with a window of 32).
     */
    @Test
    void aScanThatReachedTheFilesEndReadsAheadAgainOnceTheFileGrew() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "2m", "pagecache.page_size",
            String.valueOf(PAGE), "pagecache.warmup.enabled", "false")));
        PagedFile file = cache.map(dir.resolve("growing.db"), PAGE);
        int first = 10;
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (int p = 0; p < first; p++) {
                assertTrue(w.next());
                w.putLong(0, p);
            }
        }
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
            for (int p = 0; p < first; p++) {
                assertTrue(c.next());
            }
            assertFalse(c.next(), "the file's end");
            try (PageCursor w = file.io(99, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next()); // the file grows to 100 pages: 10 to 98 are holes, read as zeros
            }
            long before = c.faultsWaitedFor();
            int scanned = 31;
            for (int p = first; p < first + scanned; p++) {
                assertTrue(c.next());
                assertEquals(p, c.getCurrentPageId());
                awaitReadAhead(file, p + 1, p); // a scan slower than the disk
            }
            long waited = c.faultsWaitedFor() - before;
            assertTrue(waited <= 2, "after the file grew the scanner waited for " + waited + " of its next " + scanned
                + " pages itself");
        }
    }

    private static void awaitResident(PagedFile file, long pageId) throws InterruptedException {
        Waits.until(() -> PageCacheInternals.tableEntry(file, pageId) > 0, "page " + pageId + " read ahead",
            Waits.threadNamed("ratatosk-read-ahead"));
    }

    /**
     * Until {@code pageId}, which the scan on {@code scannedPageId} has requested (its window reaches a half window past
     * it), is read ahead: the scanner "works" on its page that long. A scan slower than the disk, which is when
     * read-ahead pays, whatever the machine's load: a bound of a second once let a read-ahead thread kept off a busy
     * core count its pages as the scanner's waits.
     */
    private static void awaitReadAhead(PagedFile file, long pageId, long scannedPageId) throws InterruptedException {
        Waits.until(() -> PageCacheInternals.tableEntry(file, pageId) > 0, "page " + pageId + " read ahead while the scan"
            + " worked on page " + scannedPageId, Waits.threadNamed("ratatosk-read-ahead"));
    }

    @Test
    void closingTheFileAndTheCacheWithReadAheadQueuedLeavesNothingBehind() throws Exception {
        PagedFile file = freshFile();
        PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD);
        assertTrue(c.next());
        assertTrue(c.next());
        c.close();
        file.close(); // read-ahead requested for pages 1..32 may still be queued or running
        assertThrows(IllegalStateException.class, () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD));
        cache.close();
        assertTrue(cache.isMemoryReleased(), "the read-ahead thread holds nothing once the cache is closed");
        cache = null;
    }

    @Test
    void readAheadIsAnAcceptedFlagAndFaultsWaitedForRefusesAClosedCursor() throws Exception {
        PagedFile file = freshFile();
        PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_READ_AHEAD);
        assertEquals(0, c.faultsWaitedFor());
        c.close();
        assertThrows(IllegalStateException.class, c::faultsWaitedFor);
        assertThrows(IllegalArgumentException.class, () -> file.io(0, PagedFile.PF_READ_AHEAD), "a lock mode is still required");
    }

    /**
     * Scans the file, checking each page. With {@code giveReadAheadTime}, the scanner "works" on each page
     * until the page after it is read ahead ({@link #awaitReadAhead}); the scan itself is the same in both runs.
     */
    private long scan(PagedFile file, int flags, boolean giveReadAheadTime) throws Exception {
        try (PageCursor c = file.io(0, flags)) {
            for (int p = 0; p < FILE_PAGES; p++) {
                assertTrue(c.next());
                long v;
                do {
                    v = c.getLong(0);
                } while (c.shouldRetry());
                assertEquals(p, v);
                if (giveReadAheadTime && p + 1 < FILE_PAGES) {
                    awaitReadAhead(file, p + 1, p);
                }
            }
            assertFalse(c.next());
            return c.faultsWaitedFor();
        }
    }
}
