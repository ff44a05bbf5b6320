package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The relative accessors: the offset they use and advance, and their bounds at the page's end. */
class RelativeAccessTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;
    private PageCache cache;
    private PagedFile file;

    @BeforeEach
    void open() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k")));
        file = cache.map(dir.resolve("relative.db"), PAGE);
    }

    @AfterEach
    void close() throws Exception {
        cache.close();
    }

    @Test
    void relativePutsAndGetsAdvanceTheOffsetByTheirWidth() throws Exception {
        byte[] bytes = {9, 8, 7};
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            assertEquals(0, w.getOffset());
            w.putByte((byte) 1);
            assertEquals(1, w.getOffset());
            w.putShort((short) 2);
            assertEquals(3, w.getOffset());
            w.putInt(3);
            assertEquals(7, w.getOffset());
            w.putLong(4L);
            assertEquals(15, w.getOffset());
            w.putBytes(bytes);
            assertEquals(18, w.getOffset());
            assertFalse(w.checkAndClearBoundsFlag());
        }
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            byte b;
            short s;
            int i;
            long l;
            byte[] got = new byte[3];
            do {
                r.setOffset(0);
                b = r.getByte();
                s = r.getShort();
                i = r.getInt();
                l = r.getLong();
                r.getBytes(got);
            } while (r.shouldRetry());
            assertEquals(18, r.getOffset());
            assertEquals(1, b);
            assertEquals(2, s);
            assertEquals(3, i);
            assertEquals(4L, l);
            assertArrayEquals(bytes, got);
            assertEquals(1, r.getByte(0), "the absolute form reads the same bytes");
            assertEquals(3, r.getInt(3));
            assertFalse(r.checkAndClearBoundsFlag());
        }
    }

    @Test
    void nextSetsTheOffsetToZero() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.setOffset(100);
            assertTrue(w.next());
            assertEquals(0, w.getOffset());
            w.setOffset(200);
            assertTrue(w.next(0));
            assertEquals(0, w.getOffset());
        }
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            r.setOffset(5);
            assertFalse(r.next(7), "past the end");
            assertEquals(0, r.getOffset(), "next() that returns false also resets the offset");
        }
    }

    /**
     * A retried read's relative reads start where the read began: at 0 after {@code next()}, or where a
     * {@code setOffset} before the loop put the offset. The offset was left where the torn attempt had advanced it, so
     * a loop without a {@code setOffset} of its own read the bytes after the record on its second attempt, and that
     * attempt validated: the wrong values were accepted without a word.
     */
    @Test
    void aRetriedReadsRelativeReadsStartAgainWhereTheReadBegan() throws Exception {
        writeLongs(1, 2, 3, 4);
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            long first;
            long second;
            int attempts = 0;
            do {
                first = r.getLong();
                second = r.getLong();
                if (attempts++ == 0) {
                    writeLongs(10, 20, 30, 40); // a writer comes and goes under the first attempt
                }
            } while (r.shouldRetry());
            assertEquals(2, attempts);
            assertEquals(10, first);
            assertEquals(20, second);
            assertEquals(16, r.getOffset());

            r.setOffset(16);
            attempts = 0;
            long third;
            do {
                third = r.getLong();
                if (attempts++ == 0) {
                    writeLongs(100, 200, 300, 400);
                }
            } while (r.shouldRetry());
            assertEquals(2, attempts);
            assertEquals(300, third, "from the offset set before the loop");
        }
    }

    /** Writes {@code values} as longs from offset 0 of page 0. */
    private void writeLongs(long... values) throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            for (long v : values) {
                w.putLong(v);
            }
        }
    }

    /** Width of each relative accessor, by name. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"byte", "short", "int", "long", "bytes"})
    void eachRelativeAccessFitsExactlyAtThePageEndAndOnePastIsOutOfBounds(String kind) throws Exception {
        int width = switch (kind) {
            case "byte" -> 1;
            case "short" -> 2;
            case "int" -> 4;
            case "long" -> 8;
            default -> 5;
        };
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.setOffset(PAGE - width);
            put(w, kind, 0x5A);
            assertFalse(w.checkAndClearBoundsFlag(), kind + " ending at the page's last byte is in bounds");
            assertEquals(PAGE, w.getOffset());
            assertEquals(0x5A, get(w, kind, PAGE - width));
            assertFalse(w.checkAndClearBoundsFlag());

            // One byte further runs past the page: nothing written, the flag raised, the offset still advances.
            w.putByte(PAGE - width - 1, (byte) 0x11);
            w.setOffset(PAGE - width + 1);
            put(w, kind, 0x77);
            assertTrue(w.checkAndClearBoundsFlag(), kind + " one byte past the page's end is out of bounds");
            assertEquals(PAGE + 1, w.getOffset());
            assertEquals(0x11, w.getByte(PAGE - width - 1), "the byte before is untouched");
            assertEquals(0x5A, get(w, kind, PAGE - width), "the last bytes of the page are untouched");
            w.setOffset(PAGE - width + 1);
            assertEquals(0, get(w, kind, -1), "a relative read out of bounds reads 0");
            assertTrue(w.checkAndClearBoundsFlag());

            w.setOffset(-1);
            put(w, kind, 0x33);
            assertTrue(w.checkAndClearBoundsFlag(), kind + " at a negative offset is out of bounds");
            w.setOffset(-1);
            assertEquals(0, get(w, kind, -1));
            assertTrue(w.checkAndClearBoundsFlag());
        }
    }

    @Test
    void relativeByteRangesUseTheGivenPartOfTheArrayAndAdvanceByItsLength() throws Exception {
        byte[] src = {1, 2, 3, 4, 5, 6};
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
            w.setOffset(10);
            w.putBytes(src, 2, 3);
            assertEquals(13, w.getOffset());
            byte[] dst = new byte[6];
            w.setOffset(10);
            w.getBytes(dst, 1, 3);
            assertEquals(13, w.getOffset());
            assertArrayEquals(new byte[] {0, 3, 4, 5, 0, 0}, dst);
            assertThrows(IndexOutOfBoundsException.class, () -> w.getBytes(dst, 4, 3), "the array range is checked");
            assertThrows(IndexOutOfBoundsException.class, () -> w.putBytes(src, -1, 2));
            w.setOffset(PAGE - 2);
            w.getBytes(dst, 0, 3);
            assertTrue(w.checkAndClearBoundsFlag(), "a range running off the page");
            assertEquals(PAGE + 1, w.getOffset());
        }
    }

    @Test
    void relativeAccessOfAReadCursorWithoutAPageIsOutOfBoundsAndOfAClosedCursorThrows() throws Exception {
        PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        assertEquals(0, r.getLong());
        assertTrue(r.checkAndClearBoundsFlag());
        r.close();
        assertThrows(IllegalStateException.class, r::getInt);
        assertThrows(IllegalStateException.class, r::getOffset);
        assertThrows(IllegalStateException.class, () -> r.setOffset(0));
    }

    @Test
    void relativeWritesThroughAReadCursorAreRefused() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next());
        }
        try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next());
            assertThrows(IllegalStateException.class, () -> r.putInt(1));
            assertThrows(IllegalStateException.class, () -> r.putBytes(new byte[2]));
        }
    }

    private static void put(PageCursor c, String kind, int v) {
        switch (kind) {
            case "byte" -> c.putByte((byte) v);
            case "short" -> c.putShort((short) v);
            case "int" -> c.putInt(v);
            case "long" -> c.putLong(v);
            default -> c.putBytes(new byte[] {(byte) v, (byte) v, (byte) v, (byte) v, (byte) v});
        }
    }

    /** Reads relatively at the cursor's offset, or at {@code at} when it is not negative (after setting the offset there). */
    private static long get(PageCursor c, String kind, int at) {
        if (at >= 0) {
            c.setOffset(at);
        }
        return switch (kind) {
            case "byte" -> c.getByte();
            case "short" -> c.getShort();
            case "int" -> c.getInt();
            case "long" -> c.getLong();
            default -> {
                byte[] b = new byte[5];
                c.getBytes(b);
                yield b[0] == b[4] ? b[0] : -1;
            }
        };
    }
}
