package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.PagedFile.PF_SHARED_READ_LOCK;
import static io.ratatosk.pagecache.PagedFile.PF_SHARED_WRITE_LOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What README.md's "Use it" promises a store, through the public API as a store would call it. */
class ReadmePromiseTest {
    private static final int MAX_LENGTH = 1000;

    @TempDir
    Path dir;

    private PageCache open() {
        return PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.warmup.enabled", "false",
            "pagecache.jmx.enabled", "false")));
    }

    /**
     * "a cursor left open across it never touches freed memory: its next next() throws, and so does a read cursor's
     * shouldRetry() on a page, while its reads of the page it still has pinned read that page's memory as the close left
     * it ... Such a cursor keeps the page memory allocated until it is closed ... cache.openCursors() counts them".
     */
    @Test
    void aCursorLeftOpenAcrossTheCacheCloseReadsItsPageUntilItMovesAndKeepsTheMemoryUntilItCloses() throws Exception {
        PageCache cache = open();
        PagedFile file = cache.map(dir.resolve("nodes.store"), 8192);
        try (PageCursor w = file.io(3, PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.putLong(0, 42L);
        }
        PageCursor moving = file.io(3, PF_SHARED_READ_LOCK);
        PageCursor validating = file.io(3, PF_SHARED_READ_LOCK);
        assertTrue(moving.next());
        assertTrue(validating.next());

        cache.close();

        assertTrue(cache.isClosed());
        assertEquals(2, cache.openCursors(), "the cursors left open are counted");
        assertFalse(cache.isMemoryReleased(), "the open cursors keep the page memory");
        assertEquals(42L, moving.getLong(0), "a read of the page still pinned reads it as the close left it");
        IllegalStateException next = assertThrows(IllegalStateException.class, moving::next);
        assertTrue(next.getMessage().contains("nodes.store"), next.getMessage());
        IllegalStateException retry = assertThrows(IllegalStateException.class, validating::shouldRetry);
        assertTrue(retry.getMessage().contains("nodes.store"), retry.getMessage());

        moving.close();
        assertFalse(cache.isMemoryReleased(), "one cursor is still open");
        validating.close();
        assertEquals(0, cache.openCursors());
        assertTrue(cache.isMemoryReleased(), "the last cursor's close frees the page memory");
    }

    /**
     * The README's write and read idiom, as it stands there: a record written through a write cursor reads back in the
     * optimistic loop; a decoder's complaint noted with setCursorException in that loop comes out of
     * checkAndClearCursorException() as a CursorException carrying it, once the read validated; and what was written
     * survives the file's and the cache's close ("close flushes: nothing written is lost").
     */
    @Test
    void theReadmesIdiomReadsWhatWasWrittenReportsANotedComplaintAndLosesNothingAtClose() throws Exception {
        Path store = dir.resolve("records.store");
        long pageId = 5;
        int goodRecord = 16;
        int badRecord = 64;
        try (PageCache cache = open()) {
            PagedFile file = cache.map(store, 8192);
            try (PageCursor c = file.io(pageId, PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putByte(goodRecord, (byte) 7);
                c.putInt(goodRecord + 1, 123);
                c.putByte(badRecord, (byte) 9);
                c.putInt(badRecord + 1, -5);
            }
            assertEquals(123, readLength(file, pageId, goodRecord), "a sound record reads back");
            CursorException e = assertThrows(CursorException.class, () -> readLength(file, pageId, badRecord));
            assertEquals("record at " + badRecord + " has length -5", e.getMessage());
            file.close();
        }
        try (PageCache cache = open(); PagedFile file = cache.map(store, 8192, false)) {
            assertEquals(pageId, file.getLastPageId(), "the page written is in the file");
            assertEquals(123, readLength(file, pageId, goodRecord), "what was written survived the close");
        }
    }

    /** The README's read loop, line for line. */
    private static int readLength(PagedFile file, long pageId, int recordOffset) throws Exception {
        try (PageCursor c = file.io(pageId, PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            int type;
            int length;
            do {
                c.setOffset(recordOffset);
                type = c.getByte();
                length = c.getInt();
                if (length < 0 || length > MAX_LENGTH) {
                    c.setCursorException("record at " + recordOffset + " has length " + length);
                }
            } while (c.shouldRetry());
            c.checkAndClearCursorException();
            assertTrue(type == 7 || type == 9, "type " + type);
            return length;
        }
    }
}
