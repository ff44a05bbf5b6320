package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageCursorTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;
    private PageCache cache;

    @BeforeEach
    void open() {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k")));
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
    }

    /**
     * A read that overlaps a write in progress never validates, even though the lock word does not change while
     * the writer writes (the hit path validates by comparing the word with the stamp: a stamp taken with a
     * writer present must not take that path). Then, once the writer is gone, the read validates and sees the
     * write.
     */
    @Test
    void aReadOverlappingAWriteInProgressNeverValidates() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("overlap.db"), PAGE)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, 1);
            }
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next(0)); // a hit on the read path, no writer: validates
                assertEquals(1, r.getLong(0));
                assertFalse(r.shouldRetry());

                PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
                assertTrue(w.next()); // the writer holds page 0 from here on
                w.putLong(0, 2);
                assertTrue(r.next(0), "the page is resident: the reader pins it");
                r.getLong(0);
                assertTrue(r.shouldRetry(), "read under a writer: retry");
                r.getLong(0);
                assertTrue(r.shouldRetry(), "still under the writer: retry again");
                w.close();

                long value;
                int attempts = 0;
                do {
                    value = r.getLong(0);
                    attempts++;
                } while (r.shouldRetry());
                assertEquals(2, value, "the validated read sees the finished write");
                assertTrue(attempts <= 2, "the writer gone, the read validates at once or after one re-pin: " + attempts);
            }
        }
    }

    @Test
    void writtenValuesOfEveryTypeReadBackAndSurviveReopen() throws Exception {
        Path path = dir.resolve("types.db");
        byte[] bytes = {1, 2, 3, 4, 5};
        try (PagedFile file = cache.map(path, PAGE)) {
            try (PageCursor c = file.io(3, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                assertEquals(3, c.getCurrentPageId());
                c.putByte(0, (byte) -7);
                c.putShort(2, (short) 30000);
                c.putInt(4, 123456789);
                c.putLong(8, Long.MIN_VALUE + 5);
                c.putBytes(100, bytes, 0, bytes.length);
            }
            assertEquals(3, file.getLastPageId());
        }
        cache.close();
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k")));
        assertEquals(4L * PAGE, Files.size(path), "four pages: 0..3");
        try (PagedFile file = cache.map(path, PAGE, false); PageCursor c = file.io(3, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            byte b;
            short s;
            int i;
            long l;
            byte[] got = new byte[5];
            do {
                b = c.getByte(0);
                s = c.getShort(2);
                i = c.getInt(4);
                l = c.getLong(8);
                c.getBytes(100, got, 0, got.length);
            } while (c.shouldRetry());
            assertEquals(-7, b);
            assertEquals(30000, s);
            assertEquals(123456789, i);
            assertEquals(Long.MIN_VALUE + 5, l);
            assertArrayEquals(bytes, got);
        }
    }

    @Test
    void nextWalksFromTheGivenPageAndReadCursorsStopAtTheEnd() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("walk.db"), PAGE)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < 5; p++) {
                    assertTrue(w.next());
                    w.putLong(0, p * 10L);
                }
            }
            try (PageCursor r = file.io(2, PagedFile.PF_SHARED_READ_LOCK)) {
                long expected = 2;
                while (r.next()) {
                    assertEquals(expected, r.getCurrentPageId());
                    long v;
                    do {
                        v = r.getLong(0);
                    } while (r.shouldRetry());
                    assertEquals(expected * 10, v);
                    expected++;
                }
                assertEquals(5, expected, "pages 2, 3, 4 and then the end");
                assertFalse(r.next(17), "past the end of the file");
                assertTrue(r.next(1));
                assertEquals(1, r.getCurrentPageId());
            }
        }
    }

    @Test
    void noGrowWriteCursorDoesNotExtendTheFile() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("nogrow.db"), PAGE)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW)) {
                assertFalse(w.next(), "empty file, no growth allowed");
            }
            assertEquals(-1, file.getLastPageId());
        }
    }

    @Test
    void accessesOutsideThePageRaiseTheBoundsFlagAndTouchNothing() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("bounds.db"), 512); PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertEquals(0, w.getLong(0), "not on a page yet: reads 0");
            assertTrue(w.checkAndClearBoundsFlag(), "an access before next() is out of bounds");
            assertTrue(w.next());
            w.putLong(504, 9L);
            assertFalse(w.checkAndClearBoundsFlag());
            w.putLong(505, 1L);
            assertTrue(w.checkAndClearBoundsFlag(), "a long at 505 runs past a 512-byte page");
            assertFalse(w.checkAndClearBoundsFlag(), "the flag was cleared");
            assertEquals(0, w.getInt(-4));
            assertTrue(w.checkAndClearBoundsFlag());
            w.putBytes(500, new byte[20], 0, 20);
            assertTrue(w.checkAndClearBoundsFlag());
            assertEquals(9L, w.getLong(504), "the out-of-bounds writes changed nothing");
        }
    }

    @Test
    void writingThroughAReadCursorIsRefused() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("ro.db"), PAGE)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
            }
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next());
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.putLong(0, 1));
                assertTrue(e.getMessage().contains("PF_SHARED_WRITE_LOCK"), e.getMessage());
                assertThrows(IllegalStateException.class, () -> r.fill(0, -1, (byte) 1), "whatever the length");
                assertFalse(r.checkAndClearBoundsFlag(), "refused, not out of bounds");
            }
        }
    }

    @Test
    void mappingAPathTwiceSharesOneFileUntilBothAreClosed() throws Exception {
        Path path = dir.resolve("twice.db");
        PagedFile a = cache.map(path, PAGE);
        PagedFile b = cache.map(dir.resolve(".").resolve("twice.db"), PAGE);
        assertSame(a, b);
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> cache.map(path, 4096));
        assertTrue(other.getMessage().contains("already mapped"), other.getMessage());
        a.close();
        try (PageCursor w = b.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next(), "still mapped through b");
        }
        b.close();
        assertThrows(IllegalStateException.class, () -> b.io(0, PagedFile.PF_SHARED_READ_LOCK));
    }

    @Test
    void aClosedCursorRefusesEveryCallEvenAfterANewCursorIsOpened() throws Exception {
        try (PagedFile file = cache.map(dir.resolve("reuse.db"), PAGE)) {
            PageCursor first = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
            assertTrue(first.next());
            first.close();
            PageCursor second = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            assertNotSame(first, second, "a closed cursor is never handed out again");
            assertThrows(IllegalStateException.class, first::next);
            assertThrows(IllegalStateException.class, () -> first.getLong(0));
            assertThrows(IllegalStateException.class, () -> first.putLong(0, 1));
            assertThrows(IllegalStateException.class, first::shouldRetry);
            assertThrows(IllegalStateException.class, () -> first.getBytes(0, new byte[0], 0, 0));
            second.close();
            second.close(); // harmless
            first.close();
        }
    }

    @Test
    void statsCountHitsFaultsAndEvictions() throws Exception {
        // Evictor off, so that the last page written is certainly still resident when it is hit.
        try (PageCache quiet = PageCache.open(PageCacheConfig.parse(Map.of(
                 "pagecache.memory", "256k", "pagecache.evictor.enabled", "false")));
             PagedFile file = quiet.map(dir.resolve("stats.db"), PAGE)) {
            int frames = quiet.frameCount();
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < frames * 3; p++) {
                    assertTrue(w.next());
                    w.putLong(0, p);
                }
            }
            try (PageCursor w = file.io(frames * 3 - 1, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
            }
            PageCacheStats s = quiet.stats();
            assertEquals(frames * 3L, s.faults());
            assertEquals(1, s.hits());
            assertEquals(frames * 2L, s.evictions(), "3 x frames pages faulted into a full cache: " + s);
            assertEquals(s.evictions(), s.cooperativeEvictions(), s.toString());
            assertEquals(s.evictions(), s.evictionWrites(), "every evicted page was dirty: " + s);
        }
    }

    @Test
    void aRetriedReadIsOneAccessNotTwoHits() throws Exception {
        try (PageCache quiet = PageCache.open(PageCacheConfig.parse(Map.of(
                 "pagecache.memory", "256k", "pagecache.evictor.enabled", "false")));
             PagedFile file = quiet.map(dir.resolve("retry.db"), PAGE)) {
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next()); // fault 1
                w.putLong(0, 1);
            }
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next()); // hit 1
                long v = r.getLong(0);
                try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(w.next()); // hit 2: a writer changes the page under the reader
                    w.putLong(0, 2);
                }
                assertEquals(1, v);
                assertTrue(r.shouldRetry(), "the page changed while it was read");
                assertEquals(2, r.getLong(0));
                assertFalse(r.shouldRetry());
            }
            PageCacheStats s = quiet.stats();
            assertEquals(1, s.faults(), s.toString());
            assertEquals(2, s.hits(), "the retry is the same access as the read it repeats: " + s);
        }
    }
}
