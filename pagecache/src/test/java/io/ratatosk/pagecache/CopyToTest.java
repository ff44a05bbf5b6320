package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** copyTo: bytes between the pages of two cursors, clamped to both pages. */
class CopyToTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;
    private PageCache cache;
    private PagedFile source;
    private PagedFile target;

    @BeforeEach
    void open() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k")));
        source = cache.map(dir.resolve("source.db"), PAGE);
        target = cache.map(dir.resolve("target.db"), 4096);
        try (PageCursor w = source.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            for (int i = 0; i < PAGE; i++) {
                w.putByte(i, (byte) i);
            }
        }
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
    }

    @Test
    void copiesTheBytesFromAReadCursorToAWriteCursorAndReturnsTheCount() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(r.next());
            assertTrue(w.next());
            int copied;
            do {
                copied = r.copyTo(10, w, 100, 50);
            } while (r.shouldRetry());
            assertEquals(50, copied);
            for (int i = 0; i < 50; i++) {
                assertEquals((byte) (10 + i), w.getByte(100 + i));
            }
            assertEquals(0, w.getByte(99));
            assertEquals(0, w.getByte(150));
            assertFalse(r.checkAndClearBoundsFlag());
            assertEquals(0, r.getOffset(), "copyTo moves no offset");
        }
    }

    @Test
    void theCopyIsClampedToTheSourcePageAndToTheTargetPage() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(r.next());
            assertTrue(w.next());
            assertEquals(8, r.copyTo(PAGE - 8, w, 0, 100), "the source page ends after 8 bytes");
            assertEquals((byte) (PAGE - 1), w.getByte(7));
            assertEquals(0, w.getByte(8));
            assertEquals(16, r.copyTo(0, w, 4096 - 16, 100), "the target's 4 KiB page ends after 16 bytes");
            assertEquals(0, r.copyTo(PAGE, w, 0, 10), "nothing left on the source page");
            assertEquals(0, r.copyTo(0, w, 4096, 10), "nothing left on the target page");
        }
    }

    @Test
    void negativeArgumentsCopyNothingAndRaiseTheSourcesBoundsFlag() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(r.next());
            assertTrue(w.next());
            assertEquals(0, r.copyTo(-1, w, 0, 10));
            assertTrue(r.checkAndClearBoundsFlag());
            assertEquals(0, r.copyTo(0, w, -1, 10));
            assertTrue(r.checkAndClearBoundsFlag());
            assertEquals(0, r.copyTo(0, w, 0, -1));
            assertTrue(r.checkAndClearBoundsFlag());
            assertEquals(0, w.getByte(0));
        }
    }

    @Test
    void aRangeStartingAtOrPastAPagesEndCopiesNothingAndRaisesTheSourcesBoundsFlag() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(r.next());
            assertTrue(w.next());
            int targetPage = w.getCurrentPageSize();
            assertEquals(0, r.copyTo(PAGE, w, 0, 10), "the source offset is the page's end");
            assertTrue(r.checkAndClearBoundsFlag(), "a source range starting at the page's end");
            assertEquals(0, r.copyTo(PAGE + 100, w, 0, 10));
            assertTrue(r.checkAndClearBoundsFlag(), "a source range starting past the page's end");
            assertEquals(0, r.copyTo(0, w, targetPage, 10));
            assertTrue(r.checkAndClearBoundsFlag(), "a target range starting at the target page's end");
            assertEquals(0, r.copyTo(0, w, targetPage + 1, 0));
            assertTrue(r.checkAndClearBoundsFlag(), "an empty copy at an offset past the target page");
            assertEquals(0, w.getByte(0), "nothing was written");

            assertEquals(0, r.copyTo(PAGE, w, targetPage, 0), "an empty copy at the pages' ends");
            assertEquals(8, r.copyTo(PAGE - 8, w, 0, 100), "a clamped copy");
            assertFalse(r.checkAndClearBoundsFlag(), "neither is out of bounds");
        }
        try (PageCursor unpinned = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            assertEquals(0, unpinned.copyTo(0, w, 0, 10));
            assertTrue(unpinned.checkAndClearBoundsFlag(), "a cursor with no page has nothing to copy from, as for its reads");
        }
    }

    @Test
    void aCursorWithoutAPageCopiesNothing() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor w = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            assertEquals(0, r.copyTo(0, w, 0, 10), "the source has no page yet");
            assertTrue(r.next());
            try (PageCursor unpinned = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertEquals(0, r.copyTo(0, unpinned, 0, 10), "the target has no page yet");
            }
        }
    }

    @Test
    void overlappingRangesOfOnePageCopyAsThroughABuffer() throws Exception {
        try (PageCursor w = source.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            assertEquals(100, w.copyTo(0, w, 10, 100), "forwards over itself");
            for (int i = 0; i < 100; i++) {
                assertEquals((byte) i, w.getByte(10 + i));
            }
            assertEquals(100, w.copyTo(10, w, 5, 100), "backwards over itself");
            for (int i = 0; i < 100; i++) {
                assertEquals((byte) i, w.getByte(5 + i));
            }
        }
    }

    @Test
    void theTargetMustBeAnOpenWriteCursor() throws Exception {
        try (PageCursor r = source.io(0, PagedFile.PF_SHARED_READ_LOCK); PageCursor other = source.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertTrue(other.next());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.copyTo(0, other, 0, 1));
            assertTrue(e.getMessage().contains("PF_SHARED_WRITE_LOCK"), e.getMessage());
            PageCursor closed = target.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
            closed.close();
            assertThrows(IllegalStateException.class, () -> r.copyTo(0, closed, 0, 1));
        }
    }
}
