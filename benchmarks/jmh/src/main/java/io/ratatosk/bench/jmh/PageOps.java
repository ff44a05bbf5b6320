package io.ratatosk.bench.jmh;

import java.io.IOException;

/**
 * The body of every benchmark operation, one method per kind, written once against {@link CacheSide.Cursor}
 * so that both sides run literally the same code. The long slot read or written is a function of the page
 * id, and every value read is checked against the file's known contents after the optimistic-read loop.
 */
final class PageOps {
    private PageOps() {
    }

    /** Pin {@code pageId}, read one long until the read validates, check it. Returns the value. */
    static long read(CacheSide.Cursor cursor, long pageId) throws IOException {
        return read(cursor, pageId, slotOf(pageId));
    }

    /** Pin {@code pageId}, read long slot {@code slot} until the read validates, check it. Returns the value. */
    static long read(CacheSide.Cursor cursor, long pageId, int slot) throws IOException {
        if (!cursor.next(pageId)) {
            throw pastEnd(pageId);
        }
        long value;
        do {
            value = cursor.getLong(slot * Long.BYTES);
        } while (cursor.shouldRetry());
        if (value != BenchFile.expected(pageId, slot)) {
            throw wrongValue(pageId, slot, value);
        }
        return value;
    }

    /** Pin {@code pageId} for writing and write one long: the value it already holds, so reads stay checkable. */
    static void write(CacheSide.Cursor cursor, long pageId) throws IOException {
        int slot = slotOf(pageId);
        if (!cursor.next(pageId)) {
            throw pastEnd(pageId);
        }
        do {
            cursor.putLong(slot * Long.BYTES, BenchFile.expected(pageId, slot));
        } while (cursor.shouldRetry());
    }

    static int slotOf(long pageId) {
        return (int) (pageId & (BenchFile.SLOTS - 1));
    }

    private static IllegalStateException pastEnd(long pageId) {
        return new IllegalStateException("next(" + pageId + ") returned false: the page is past the end of the file");
    }

    private static IllegalStateException wrongValue(long pageId, int slot, long value) {
        return new IllegalStateException("page " + pageId + " slot " + slot + " read " + value + " after validation, expected "
            + BenchFile.expected(pageId, slot) + ": a torn or misplaced read was accepted");
    }
}
