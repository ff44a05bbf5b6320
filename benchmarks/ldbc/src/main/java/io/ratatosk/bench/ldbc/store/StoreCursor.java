package io.ratatosk.bench.ldbc.store;

import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;

/**
 * A read cursor on one store file that stays on its page while consecutive reads hit the same page
 * (as record stores do) and tells a {@link PinRecorder} about every access: each move to a page. A
 * read that {@code shouldRetry()} repeats is the same access, as the page cache counts it too; the
 * cache counts it again only when the page was evicted meanwhile and has to be faulted in anew, so
 * its hits plus faults may exceed the recorded accesses by those few re-faults.
 */
final class StoreCursor implements AutoCloseable {
    private final PageCursor cursor;
    private final int fileId;
    private final PinRecorder recorder;
    private long page = -1;

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

    /** True if the reads since the pin must be repeated; the cursor has re-pinned the page. */
    boolean shouldRetry() throws IOException {
        return cursor.shouldRetry();
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
        cursor.close();
    }
}
