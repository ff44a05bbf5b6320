package io.ratatosk.bench.ldbc.store;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;

/**
 * A read cursor on one store file that stays on its page while consecutive reads hit the same page
 * (as record stores do) and tells a {@link PinRecorder} about every access: each move to a page. A
 * read that {@code shouldRetry()} repeats is the same access, as the page cache counts it too; the
 * cache counts it again only when the page was evicted meanwhile and has to be faulted in anew, so
 * its hits plus faults may exceed the recorded accesses by those few re-faults.
 *
 * <p>Records are read field by field with the relative accessors ({@link #setOffset}, then
 * {@link #getByte()}, {@link #getInt()}, ...). A decoder that reads a value that makes no sense records it
 * with {@link #setCursorException} and stops; {@link #checkAndClearCursorException()} after the
 * {@code shouldRetry()} loop reports it only if the read was not torn. What spans pages (a string's chain
 * of blocks) is read through a linked cursor ({@link #onPage}), so one {@code shouldRetry()} validates
 * every page the read touched.
 */
final class StoreCursor implements AutoCloseable {
    private final PageCursor cursor;
    private final int fileId;
    private final PinRecorder recorder;
    private long page = -1;
    /** The linked cursor of a read that spans pages, open only during such a read; else null. */
    private PageCursor linked;

    StoreCursor(PagedFile file, StoreFile kind, PinRecorder recorder) throws IOException {
        this.cursor = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        this.fileId = kind.traceFileId();
        this.recorder = recorder;
    }

    /** Moves to {@code pageId} unless already there; false if the page lies beyond the file. */
    boolean moveTo(long pageId) throws IOException {
        if (pageId == page && cursor.getCurrentPageId() == pageId) {
            return true;
        }
        if (!cursor.next(pageId)) {
            page = -1;
            return false;
        }
        page = pageId;
        if (recorder != null) {
            recorder.pinned(fileId, pageId);
        }
        return true;
    }

    /**
     * True if the reads since the pin must be repeated, those through the linked cursor included; the
     * cursor has re-pinned the pages that changed.
     */
    boolean shouldRetry() throws IOException {
        return cursor.shouldRetry();
    }

    /**
     * Within one read (a {@code shouldRetry()} loop) that spans pages: the cursor to read page
     * {@code pageId} through, this cursor if it is on that page, else a linked cursor moved there (opened
     * on first use, and recorded as an access when it moves). Null, with a cursor exception recorded, if
     * the page lies past the end of the file. Call {@link #endSpanningRead()} once the read is validated.
     */
    PageCursor onPage(long pageId) throws IOException {
        if (pageId == page) {
            return cursor;
        }
        if (linked == null) {
            linked = cursor.openLinkedCursor(pageId);
        } else if (linked.getCurrentPageId() == pageId) {
            return linked; // a repeated read: still there
        }
        if (!linked.next(pageId)) {
            cursor.setCursorException("page " + pageId + " lies past the end of its file");
            return null;
        }
        if (recorder != null) {
            recorder.pinned(fileId, pageId);
        }
        return linked;
    }

    /** A read that spanned pages is over: closes the linked cursor, so later reads validate this cursor's page only. */
    void endSpanningRead() {
        if (linked != null) {
            linked.close();
            linked = null;
        }
    }

    /** Sets the offset of the relative reads on this cursor's page. */
    void setOffset(int offset) {
        cursor.setOffset(offset);
    }

    /** The byte at the offset, which advances by 1. */
    byte getByte() {
        return cursor.getByte();
    }

    /** The int at the offset, which advances by 4. */
    int getInt() {
        return cursor.getInt();
    }

    /** The long at the offset, which advances by 8. */
    long getLong() {
        return cursor.getLong();
    }

    /** {@code length} bytes from the offset into {@code dst}, advancing the offset by {@code length}. */
    void getBytes(byte[] dst, int dstOffset, int length) {
        cursor.getBytes(dst, dstOffset, length);
    }

    /** Records a decoding problem; see {@link PageCursor#setCursorException}. */
    void setCursorException(String message) {
        cursor.setCursorException(message);
    }

    /** Throws the decoding problem recorded during a read that was not torn, and clears it. */
    void checkAndClearCursorException() throws CursorException {
        cursor.checkAndClearCursorException();
    }

    byte getByte(int offset) {
        return cursor.getByte(offset);
    }

    int getInt(int offset) {
        return cursor.getInt(offset);
    }

    long getLong(int offset) {
        return cursor.getLong(offset);
    }

    void getBytes(int offset, byte[] dst, int dstOffset, int length) {
        cursor.getBytes(offset, dst, dstOffset, length);
    }

    /** True if an access since the last call fell outside the page; clears the flag. */
    boolean checkAndClearBoundsFlag() {
        return cursor.checkAndClearBoundsFlag();
    }

    @Override
    public void close() {
        page = -1;
        linked = null; // closed with its parent
        cursor.close();
    }
}
