package io.ratatosk.pagecache;

import java.io.IOException;

/**
 * The record format of the spanning-record stress: record {@code r} starts {@link #HEAD_BYTES} before the
 * end of page {@code r} and ends {@link #TAIL_BYTES} into page {@code r + 1}, so every record spans two
 * pages and every page holds the tail of one record and the head of the next. A record is a length
 * field (always {@link #LENGTH}), a version, and payload words derived from the record id and version,
 * so a torn record (parts of two versions) is detectable. It is read as a store reads a record: field by
 * field with relative reads, through a linked cursor for the part on the second page, with the length
 * checked through {@link PageCursor#setCursorException}.
 */
public final class SpanningRecord {
    public static final int HEAD_BYTES = 256;
    public static final int TAIL_BYTES = 256;
    /** The record's length in bytes, as its length field states it. */
    public static final int LENGTH = HEAD_BYTES + TAIL_BYTES;
    /** Length field (int) and padding, then the version (long). */
    private static final int HEADER_BYTES = 16;
    public static final int PAYLOAD_WORDS = (LENGTH - HEADER_BYTES) / Long.BYTES;
    private static final int HEAD_WORDS = (HEAD_BYTES - HEADER_BYTES) / Long.BYTES;

    private SpanningRecord() {
    }

    /** Writes version {@code version} of record {@code record} through a write cursor on its first page and one linked to the next. */
    public static void write(PageCursor first, PageCursor second, long record, long version) {
        first.setOffset(first.getCurrentPageSize() - HEAD_BYTES);
        first.putInt(LENGTH);
        first.putInt(0);
        first.putLong(version);
        for (int i = 0; i < HEAD_WORDS; i++) {
            first.putLong(PageContent.word(record, version, i));
        }
        second.setOffset(0);
        for (int i = HEAD_WORDS; i < PAYLOAD_WORDS; i++) {
            second.putLong(PageContent.word(record, version, i));
        }
    }

    /**
     * Reads record {@code record} through {@code c}, a read cursor already on its first page, and a linked
     * cursor on the next page, with the optimistic-read protocol; returns its version, or -1 if it was
     * never written (all zeros). Throws AssertionError if a record that passed {@code shouldRetry()} and
     * {@code checkAndClearCursorException()} is inconsistent: a torn record accepted.
     *
     * @throws CursorException if the stored length is wrong (never, for records this class wrote)
     */
    public static long readValidated(PageCursor c, long record, long[] payload) throws IOException {
        long version;
        int length;
        try (PageCursor second = c.openLinkedCursor(record + 1)) {
            do {
                c.setOffset(c.getCurrentPageSize() - HEAD_BYTES);
                length = c.getInt();
                c.getInt();
                version = c.getLong();
                if (length != 0 && length != LENGTH) {
                    // What a store does with a length that makes no sense: note it, stop decoding, let
                    // shouldRetry() tell a torn read from a damaged record.
                    c.setCursorException("record " + record + " has length " + length + ", expected " + LENGTH);
                    continue;
                }
                for (int i = 0; i < HEAD_WORDS; i++) {
                    payload[i] = c.getLong();
                }
                if (second.getCurrentPageId() != record + 1 && !second.next(record + 1)) {
                    c.setCursorException("record " + record + " runs past the end of the file");
                    continue;
                }
                second.setOffset(0);
                for (int i = HEAD_WORDS; i < PAYLOAD_WORDS; i++) {
                    payload[i] = second.getLong();
                }
            } while (c.shouldRetry());
        }
        c.checkAndClearCursorException();
        if (c.checkAndClearBoundsFlag()) {
            throw new AssertionError("bounds flag raised reading record " + record);
        }
        if (length == 0 && version == 0 && allZero(payload)) {
            return -1;
        }
        for (int i = 0; i < PAYLOAD_WORDS; i++) {
            if (payload[i] != PageContent.word(record, version, i)) {
                throw new AssertionError("record " + record + " version " + version + " accepted torn at word " + i);
            }
        }
        return version;
    }

    private static boolean allZero(long[] words) {
        for (long w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }
}
