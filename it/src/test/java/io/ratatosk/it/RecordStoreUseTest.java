package io.ratatosk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cursor API as a record store uses it, through the public API only: records of {@value #RECORD}
 * bytes packed back to back on 8 KiB pages, so that many span two pages, written with relative puts,
 * read field by field through a cursor and a linked cursor with the length checked by a cursor exception,
 * from several threads while others rewrite them in a cache much smaller than the file; then copyTo,
 * truncate and a read-ahead scan.
 */
class RecordStoreUseTest {
    private static final int PAGE = 8192;
    private static final int RECORD = 4000;
    /** Header: the payload's length (int), the version (long); never crosses a page at this record size. */
    private static final int HEADER = 12;
    private static final int PAYLOAD = RECORD - HEADER;
    private static final int RECORDS = 400; // 1.6 MB of records in front of a 512 KB cache
    private static final int WRITERS = 2;
    private static final int READERS = 3;

    @TempDir
    Path dir;

    @Test
    void recordsSpanningPagesAreWrittenReadCopiedTruncatedAndScannedWithoutATornReadAccepted() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "512k", "pagecache.page_size", "8k"));
        Path path = dir.resolve("records.store");
        AtomicLongArray acked = new AtomicLongArray(RECORDS);
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            for (int r = 0; r < RECORDS; r++) {
                writeRecord(file, r, 0);
            }
            TestThreads.run("records", WRITERS + READERS, t -> {
                if (t < WRITERS) {
                    SplittableRandom random = new SplittableRandom(t);
                    for (int op = 0; op < 3000; op++) {
                        int r = random.nextInt(RECORDS / WRITERS) * WRITERS + t; // records this writer owns
                        long version = acked.get(r) + 1;
                        writeRecord(file, r, version);
                        acked.set(r, version);
                    }
                } else {
                    SplittableRandom random = new SplittableRandom(100 + t - WRITERS);
                    byte[] payload = new byte[PAYLOAD];
                    try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                        for (int op = 0; op < 6000; op++) {
                            int r = random.nextInt(RECORDS);
                            long before = acked.get(r);
                            long version = readRecord(c, r, payload);
                            assertTrue(version >= before, "record " + r + " read version " + version + " after " + before);
                        }
                    }
                }
            });

            // copyTo: the first page of the store, copied into another file page by page.
            try (PagedFile copy = cache.map(dir.resolve("copy.store"), PAGE);
                 PageCursor from = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
                 PageCursor to = copy.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(from.next());
                assertTrue(to.next());
                int copied;
                do {
                    copied = from.copyTo(0, to, 0, PAGE);
                } while (from.shouldRetry());
                assertEquals(PAGE, copied);
                to.setOffset(0);
                assertEquals(PAYLOAD, to.getInt());
                assertEquals(acked.get(0), to.getLong());
            }

            // truncate: keep the records that end on the first 100 pages.
            file.truncate(100);
            assertEquals(99, file.getLastPageId());
            try (PageCursor c = file.io(100, PagedFile.PF_SHARED_READ_LOCK)) {
                assertFalse(c.next(), "page 100 was truncated away");
            }
            int kept = (100 * PAGE) / RECORD; // records wholly on the first 100 pages
            byte[] payload = new byte[PAYLOAD];
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int r = 0; r < kept; r++) {
                    assertEquals(acked.get(r), readRecord(c, r, payload));
                }
                long start = (long) kept * RECORD;
                if (start / PAGE < 100 && (start + RECORD - 1) / PAGE >= 100) {
                    assertThrows(CursorException.class, () -> readRecord(c, kept, payload), "the record cut in two");
                }
            }

            // A scan with read-ahead: every page once, in order.
            try (PageCursor scan = file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                int pages = 0;
                while (scan.next()) {
                    pages++;
                }
                assertEquals(100, pages);
                assertTrue(scan.faultsWaitedFor() <= pages);
            }
        }
        assertEquals(100L * PAGE, Files.size(path));
    }

    private static byte payloadByte(int record, long version, int i) {
        return (byte) (record * 31 + version * 7 + i);
    }

    /** Writes a record with relative puts: its first part on its first page, the rest through a linked write cursor. */
    private static void writeRecord(PagedFile file, int record, long version) throws IOException {
        long pos = (long) record * RECORD;
        long pageId = pos / PAGE;
        int offset = (int) (pos % PAGE);
        try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK); PageCursor next = w.openLinkedCursor(pageId + 1)) {
            assertTrue(w.next());
            w.setOffset(offset);
            w.putInt(PAYLOAD);
            w.putLong(version);
            PageCursor on = w;
            for (int i = 0; i < PAYLOAD; i++) {
                if (on == w && w.getOffset() == PAGE) {
                    assertTrue(next.next());
                    on = next;
                }
                on.putByte(payloadByte(record, version, i));
            }
            assertFalse(w.checkAndClearBoundsFlag());
        }
    }

    /**
     * Reads a record field by field: the length is checked through a cursor exception, the part on the
     * next page is read through a linked cursor, and shouldRetry() of the first cursor validates both.
     * Returns the version after checking every payload byte against it: a torn record accepted fails here.
     */
    private static long readRecord(PageCursor c, int record, byte[] payload) throws IOException {
        long pos = (long) record * RECORD;
        long pageId = pos / PAGE;
        int offset = (int) (pos % PAGE);
        assertTrue(c.next(pageId));
        long version;
        try (PageCursor next = c.openLinkedCursor(pageId + 1)) {
            do {
                c.setOffset(offset);
                int length = c.getInt();
                version = c.getLong();
                if (length != PAYLOAD) {
                    c.setCursorException("record " + record + " has length " + length);
                    continue;
                }
                int first = Math.min(PAYLOAD, PAGE - c.getOffset());
                c.getBytes(payload, 0, first);
                if (first < PAYLOAD) {
                    if (next.getCurrentPageId() != pageId + 1 && !next.next()) {
                        c.setCursorException("record " + record + " runs past the end of the file");
                        continue;
                    }
                    next.setOffset(0);
                    next.getBytes(payload, first, PAYLOAD - first);
                }
            } while (c.shouldRetry());
        }
        c.checkAndClearCursorException();
        assertFalse(c.checkAndClearBoundsFlag(), "record " + record);
        for (int i = 0; i < PAYLOAD; i++) {
            if (payload[i] != payloadByte(record, version, i)) {
                throw new AssertionError("record " + record + " version " + version + " accepted torn at byte " + i);
            }
        }
        return version;
    }
}
