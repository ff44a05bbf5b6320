package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.Backoff;
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
 * {@link #checkAndClearBoundsFlag()} reports.
 *
 * <p>A cursor is not thread-safe: one thread at a time. After {@link #close()} every method but
 * {@code close} throws {@link IllegalStateException}. Once its file is unmapped (or the cache closed),
 * its next {@code next()} or {@code shouldRetry()} throws {@link IllegalStateException}; reads through a
 * page it still has pinned meanwhile see stale memory, never freed memory: the cache keeps its page
 * memory until the last cursor is closed.
 */
public final class PageCursor implements AutoCloseable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int NO_FRAME = -1;
    private static final int COUNTER_BATCH = 1024;

    private final FileMapping file;
    private final EvictionEngine engine;
    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final TranslationTable table;
    private final int filePageSize;
    private final int fileId;
    /** The file's {@link FileMapping#maxPageId()}, here so that the id check loads nothing but this cursor. */
    private final long maxPageId;
    /** Frame 0's page address and log2(page size): a frame's page address from this cursor's own fields. */
    private final long pageBase;
    private final int pageShift;
    private final boolean writeLocked;
    private final boolean noGrow;
    /** Where the cache counted this cursor open (OpenCursorCount); given back on close. */
    private final int openStripe;

    private boolean open = true;
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

    /**
     * @param writeLocked a {@code PF_SHARED_WRITE_LOCK} cursor (else an optimistic reader)
     * @param noGrow      {@code PF_NO_GROW}: a write cursor that does not grow the file
     * @param openStripe  where the engine counted this cursor open, to give back on close
     */
    PageCursor(FileMapping file, long pageId, boolean writeLocked, boolean noGrow, int openStripe) {
        this.file = file;
        this.engine = file.engine();
        this.frames = engine.frames();
        this.policy = engine.policy();
        this.table = file.table();
        this.filePageSize = file.pageSize();
        this.fileId = file.fileId();
        this.maxPageId = file.maxPageId();
        this.pageBase = engine.pageAddress(0);
        this.pageShift = Integer.numberOfTrailingZeros(engine.pageSize());
        this.writeLocked = writeLocked;
        this.noGrow = noGrow;
        this.nextPageId = pageId;
        this.openStripe = openStripe;
    }

    /** Moves to the next page: the one given to {@code io()} first, then each following page in turn. */
    public boolean next() throws IOException {
        return next(nextPageId);
    }

    /**
     * Moves to {@code pageId}. A read cursor returns false past the file's last page; a write cursor
     * grows the file unless it was opened with {@link PagedFile#PF_NO_GROW}.
     *
     * @throws IllegalArgumentException for a page id the file cannot address ({@link PagedFile#maxPageId()})
     * @throws IllegalStateException    if this cursor is closed or its file unmapped
     */
    public boolean next(long pageId) throws IOException {
        checkOpen();
        if (pageId < 0 || pageId > maxPageId) {
            file.checkPageId(pageId); // throws, naming the file and the bounds
        }
        unpin();
        if (!file.awaitMapped()) {
            throw file.unmappedException();
        }
        if (pageId > file.lastPageId() && (!writeLocked || noGrow)) {
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
        int attempt = 0;
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                long s = frames.optimisticStamp(f);
                if (!FrameTable.isReadable(s) || frames.binding(f) != key) {
                    attempt = Backoff.pause(attempt); // being evicted or faulted in right now: look again
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
                file.awaitFault(pageId);
                continue;
            }
            int f = file.faultIn(pageId, key, false);
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
        int attempt = 0;
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                if (!frames.tryWriteLock(f)) {
                    attempt = Backoff.pause(attempt); // being evicted or faulted in right now: look again
                    continue;
                }
                if (frames.binding(f) != key) {
                    frames.unlockWrite(f);
                    continue;
                }
                pinned(f, 0); // first: from here on close() releases the lock, whatever the policy does
                policy.onHit(f);
                countHit();
                return;
            }
            if (entry == TranslationTable.FAULTING) {
                file.awaitFault(pageId);
                continue;
            }
            int f = file.faultIn(pageId, key, true);
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
        address = pageBase + ((long) f << pageShift);
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
     *
     * @throws IllegalStateException if this cursor is closed, or the page changed because its file was unmapped
     */
    public boolean shouldRetry() throws IOException {
        checkOpen();
        if (writeLocked || frame == NO_FRAME || frames.validate(frame, stamp)) {
            return false;
        }
        long pageId = currentPageId;
        int f = frame;
        frame = NO_FRAME;
        limit = 0;
        outOfBounds = false; // the reads are void; the bounds flag speaks of the repeated ones
        if (!file.awaitMapped()) {
            throw file.unmappedException();
        }
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
        checkOpen();
        return frame == NO_FRAME ? -1 : currentPageId;
    }

    public int getCurrentPageSize() {
        checkOpen();
        return filePageSize;
    }

    /** True if an access since the last call was outside the page; clears the flag. */
    public boolean checkAndClearBoundsFlag() {
        checkOpen();
        boolean b = outOfBounds;
        outOfBounds = false;
        return b;
    }

    // ---- typed access ---------------------------------------------------------------------------

    private boolean inBounds(int offset, int size) {
        if (offset < 0 || offset > limit - size) {
            return outOfBounds();
        }
        return true;
    }

    /** The slow path of every access: a closed cursor (limit 0) ends up here and throws. */
    private boolean outOfBounds() {
        checkOpen();
        outOfBounds = true;
        return false;
    }

    private boolean writable(int offset, int size) {
        if (!writeLocked) {
            checkOpen();
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
        checkOpen();
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
        checkOpen();
        if (srcOffset < 0 || length < 0 || srcOffset > src.length - length) {
            throw new IndexOutOfBoundsException("src range [" + srcOffset + ", +" + length + ") of array length " + src.length);
        }
        if (writable(offset, length)) {
            UNSAFE.copyMemory(src, Unsafe.ARRAY_BYTE_BASE_OFFSET + srcOffset, null, address + offset, length);
        }
    }

    /** Fills {@code length} bytes from {@code offset} with {@code value}; nothing if out of bounds. */
    public void fill(int offset, int length, byte value) {
        checkOpen();
        if (length < 0) {
            outOfBounds();
            return;
        }
        if (writable(offset, length)) {
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
        engine.countPins(hits, faults);
        hits = 0;
        faults = 0;
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("cursor on " + file.path() + " is closed");
        }
    }

    /** Releases the page. Closing twice is harmless; every other method throws afterwards. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            unpin();
            publishCounters();
        } finally {
            engine.cursorClosed(openStripe);
        }
    }
}
