package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Moves over the pages of one {@link PagedFile} and reads or writes them in place.
 *
 * <p>A cursor opened with {@link PagedFile#PF_SHARED_READ_LOCK} reads optimistically: nothing is locked,
 * so a concurrent writer or an eviction may change the page while it is read, and the values read are
 * only to be trusted once {@link #shouldRetry()} has returned false:
 * <pre>{@code
 * if (c.next()) { long v; do { v = c.getLong(0); } while (c.shouldRetry()); }
 * }</pre>
 * A cursor opened with {@link PagedFile#PF_SHARED_WRITE_LOCK} holds a shared write lock on its page from
 * {@code next()} until the next {@code next()} or {@link #close()}; the page cannot be evicted meanwhile.
 * Several write cursors may hold one page at once: coordinating them is the caller's business.
 *
 * <p>An access outside the page (a negative offset, or one that would run past the file's page size)
 * reads 0 and writes nothing, never touches memory outside the frame, and raises the bounds flag that
 * {@link #checkAndClearBoundsFlag()} reports. A cursor is not thread-safe; it is reused after
 * {@link #close()}, so do not touch it afterwards.
 */
public final class PageCursor implements AutoCloseable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int NO_FRAME = -1;
    private static final int COUNTER_BATCH = 1024;

    private final PagedFile file;
    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final TranslationTable table;
    private final PageCache cache;
    private final int filePageSize;
    private final int fileId;

    private boolean writeLocked;
    private boolean noGrow;
    private boolean open;
    private long nextPageId;
    private long currentPageId = -1;
    private int frame = NO_FRAME;
    private long stamp;
    private long address;
    /** filePageSize while a page is pinned, else 0, so every access of an unpinned cursor is out of bounds. */
    private int limit;
    private boolean outOfBounds;
    private int hits;
    private int faults;

    PageCursor(PagedFile file) {
        this.file = file;
        this.cache = file.cache();
        this.frames = cache.frames();
        this.policy = file.cache().policy();
        this.table = file.table();
        this.filePageSize = file.pageSize();
        this.fileId = file.fileId();
    }

    void open(long pageId, int flags) {
        this.writeLocked = (flags & PagedFile.PF_SHARED_WRITE_LOCK) != 0;
        this.noGrow = (flags & PagedFile.PF_NO_GROW) != 0;
        this.nextPageId = pageId;
        this.currentPageId = -1;
        this.frame = NO_FRAME;
        this.limit = 0;
        this.outOfBounds = false;
        this.open = true;
    }

    /** Moves to the next page: the one given to {@code io()} first, then each following page in turn. */
    public boolean next() throws IOException {
        return next(nextPageId);
    }

    /**
     * Moves to {@code pageId}. A read cursor returns false past the file's last page; a write cursor
     * grows the file unless it was opened with {@link PagedFile#PF_NO_GROW}.
     */
    public boolean next(long pageId) throws IOException {
        checkOpen();
        if (pageId < 0 || pageId > PageKey.MAX_PAGE_ID) {
            throw new IllegalArgumentException("page id must be in [0, " + PageKey.MAX_PAGE_ID + "]: pageId=" + pageId
                + " in " + file.path());
        }
        unpin();
        if (pageId > file.getLastPageId() && (!writeLocked || noGrow)) {
            currentPageId = -1;
            return false;
        }
        if (writeLocked) {
            pinForWrite(pageId);
            file.growTo(pageId);
        } else {
            pinForRead(pageId, true);
        }
        currentPageId = pageId;
        nextPageId = pageId + 1;
        return true;
    }

    /**
     * @param newAccess false when re-pinning after a failed validation: the same logical access, so it
     *                  neither counts as another hit nor raises the page's usage again
     */
    private void pinForRead(long pageId, boolean newAccess) throws IOException {
        long key = PageKey.of(fileId, pageId);
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                long s = frames.optimisticStamp(f);
                if (!FrameTable.isReadable(s) || frames.binding(f) != key) {
                    Thread.onSpinWait(); // being evicted or faulted in right now: look again
                    continue;
                }
                if (newAccess) {
                    policy.onHit(f);
                    countHit();
                }
                pinned(f, s);
                return;
            }
            if (entry == TranslationTable.FAULTING) {
                Thread.onSpinWait();
                continue;
            }
            int f = file.faultIn(pageId, key);
            if (f >= 0) {
                countFault();
                frames.unlockExclusive(f);
                long s = frames.optimisticStamp(f);
                if (FrameTable.isReadable(s) && frames.binding(f) == key) {
                    pinned(f, s);
                    return;
                }
            }
        }
    }

    private void pinForWrite(long pageId) throws IOException {
        long key = PageKey.of(fileId, pageId);
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                if (!frames.tryWriteLock(f)) {
                    Thread.onSpinWait();
                    continue;
                }
                if (frames.binding(f) != key) {
                    frames.unlockWrite(f);
                    continue;
                }
                policy.onHit(f);
                countHit();
                pinned(f, 0);
                return;
            }
            if (entry == TranslationTable.FAULTING) {
                Thread.onSpinWait();
                continue;
            }
            int f = file.faultIn(pageId, key);
            if (f >= 0) {
                countFault();
                frames.exclusiveToWriteLock(f);
                pinned(f, 0);
                return;
            }
        }
    }

    private void pinned(int f, long s) {
        frame = f;
        stamp = s;
        address = cache.pageAddress(f);
        limit = filePageSize;
    }

    private void unpin() {
        int f = frame;
        if (f != NO_FRAME) {
            frame = NO_FRAME;
            limit = 0;
            if (writeLocked) {
                frames.unlockWrite(f);
            }
        }
    }

    /**
     * For a read cursor: true if the page may have changed while it was read, in which case the cursor
     * has re-pinned the same page (faulting it in again if it was evicted) and the reads must be
     * repeated. Always false for a write cursor, which holds its page locked.
     */
    public boolean shouldRetry() throws IOException {
        if (writeLocked || frame == NO_FRAME || frames.validate(frame, stamp)) {
            return false;
        }
        long pageId = currentPageId;
        int f = frame;
        frame = NO_FRAME;
        limit = 0;
        outOfBounds = false; // the reads are void; the bounds flag speaks of the repeated ones
        if (frames.writeLockCount(f) > 0) {
            // A writer holds the page: reading again before it lets go would fail again. Give it the
            // core instead of spinning (it may be descheduled with more threads than cores).
            Thread.yield();
        }
        pinForRead(pageId, false);
        return true;
    }

    /** The page the cursor is on, or -1 before the first successful {@code next()}. */
    public long getCurrentPageId() {
        return frame == NO_FRAME ? -1 : currentPageId;
    }

    public int getCurrentPageSize() {
        return filePageSize;
    }

    /** True if an access since the last call was outside the page; clears the flag. */
    public boolean checkAndClearBoundsFlag() {
        boolean b = outOfBounds;
        outOfBounds = false;
        return b;
    }

    // ---- typed access ---------------------------------------------------------------------------

    private boolean inBounds(int offset, int size) {
        if (offset < 0 || offset > limit - size) {
            outOfBounds = true;
            return false;
        }
        return true;
    }

    private boolean writable(int offset, int size) {
        if (!writeLocked) {
            throw new IllegalStateException("cursor on " + file.path() + " was opened with PF_SHARED_READ_LOCK;"
                + " writes need PF_SHARED_WRITE_LOCK");
        }
        return inBounds(offset, size);
    }

    public byte getByte(int offset) {
        return inBounds(offset, Byte.BYTES) ? UNSAFE.getByte(address + offset) : 0;
    }

    public short getShort(int offset) {
        return inBounds(offset, Short.BYTES) ? UNSAFE.getShort(address + offset) : 0;
    }

    public int getInt(int offset) {
        return inBounds(offset, Integer.BYTES) ? UNSAFE.getInt(address + offset) : 0;
    }

    public long getLong(int offset) {
        return inBounds(offset, Long.BYTES) ? UNSAFE.getLong(address + offset) : 0L;
    }

    /** Copies {@code length} bytes of the page from {@code offset} into {@code dst}; nothing if out of bounds. */
    public void getBytes(int offset, byte[] dst, int dstOffset, int length) {
        if (dstOffset < 0 || length < 0 || dstOffset > dst.length - length) {
            throw new IndexOutOfBoundsException("dst range [" + dstOffset + ", +" + length + ") of array length " + dst.length);
        }
        if (inBounds(offset, length)) {
            UNSAFE.copyMemory(null, address + offset, dst, Unsafe.ARRAY_BYTE_BASE_OFFSET + dstOffset, length);
        }
    }

    public void putByte(int offset, byte value) {
        if (writable(offset, Byte.BYTES)) {
            UNSAFE.putByte(address + offset, value);
        }
    }

    public void putShort(int offset, short value) {
        if (writable(offset, Short.BYTES)) {
            UNSAFE.putShort(address + offset, value);
        }
    }

    public void putInt(int offset, int value) {
        if (writable(offset, Integer.BYTES)) {
            UNSAFE.putInt(address + offset, value);
        }
    }

    public void putLong(int offset, long value) {
        if (writable(offset, Long.BYTES)) {
            UNSAFE.putLong(address + offset, value);
        }
    }

    public void putBytes(int offset, byte[] src, int srcOffset, int length) {
        if (srcOffset < 0 || length < 0 || srcOffset > src.length - length) {
            throw new IndexOutOfBoundsException("src range [" + srcOffset + ", +" + length + ") of array length " + src.length);
        }
        if (writable(offset, length)) {
            UNSAFE.copyMemory(src, Unsafe.ARRAY_BYTE_BASE_OFFSET + srcOffset, null, address + offset, length);
        }
    }

    /** Fills {@code length} bytes from {@code offset} with {@code value}. */
    public void fill(int offset, int length, byte value) {
        if (length >= 0 && writable(offset, length)) {
            UNSAFE.setMemory(address + offset, length, value);
        }
    }

    // ---- life cycle -----------------------------------------------------------------------------

    private void countHit() {
        if (++hits >= COUNTER_BATCH) {
            publishCounters();
        }
    }

    private void countFault() {
        if (++faults >= COUNTER_BATCH) {
            publishCounters();
        }
    }

    private void publishCounters() {
        file.cache().countPins(hits, faults);
        hits = 0;
        faults = 0;
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("cursor on " + file.path() + " is closed");
        }
    }

    /** Releases the page and returns the cursor for reuse. Closing twice is harmless. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        unpin();
        publishCounters();
        open = false;
        file.release(this);
    }
}
