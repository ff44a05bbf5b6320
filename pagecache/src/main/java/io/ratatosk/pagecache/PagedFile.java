package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file mapped into the {@link PageCache}: its pages are read and written through {@link PageCursor}s
 * from {@link #io}. Mapping the same path twice returns the same object; it is unmapped when every
 * mapping is closed. Thread-safe.
 */
public final class PagedFile implements AutoCloseable {
    /** Optimistic reads: nothing is locked; validate with {@link PageCursor#shouldRetry()}. */
    public static final int PF_SHARED_READ_LOCK = 1;
    /** A shared write lock per page: the page is pinned and marked modified. */
    public static final int PF_SHARED_WRITE_LOCK = 1 << 1;
    /** With a write lock: do not grow the file; {@code next()} past the last page returns false. */
    public static final int PF_NO_GROW = 1 << 2;

    private static final int MAX_POOLED_CURSORS = 8;

    private final PageCache cache;
    private final int fileId;
    private final Path path;
    private final int filePageSize;
    private final PageSwapper swapper;
    private final TranslationTable table;
    private final AtomicLong lastPageId;
    private final ThreadLocal<CursorPool> cursorPool = ThreadLocal.withInitial(CursorPool::new);
    /** Guarded by the cache's mapping lock. */
    private int references = 1;
    private volatile boolean closed;

    PagedFile(PageCache cache, int fileId, Path path, int filePageSize, PageSwapper swapper) throws IOException {
        this.cache = cache;
        this.fileId = fileId;
        this.path = path;
        this.filePageSize = filePageSize;
        this.swapper = swapper;
        long pages = swapper.pageCount();
        this.lastPageId = new AtomicLong(pages - 1);
        this.table = new TranslationTable(pages);
    }

    /**
     * A cursor positioned before {@code pageId}: its first {@code next()} moves to {@code pageId}.
     *
     * @param flags exactly one of {@link #PF_SHARED_READ_LOCK} and {@link #PF_SHARED_WRITE_LOCK},
     *              optionally with {@link #PF_NO_GROW}
     */
    public PageCursor io(long pageId, int flags) throws IOException {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
        if (pageId < 0 || pageId > PageKey.MAX_PAGE_ID) {
            throw new IllegalArgumentException("page id must be in [0, " + PageKey.MAX_PAGE_ID + "]: pageId=" + pageId
                + " in " + path);
        }
        int lockFlags = flags & (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK);
        if (lockFlags == 0 || lockFlags == (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK)
            || (flags & ~(PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK | PF_NO_GROW)) != 0) {
            throw new IllegalArgumentException("flags must be PF_SHARED_READ_LOCK or PF_SHARED_WRITE_LOCK,"
                + " optionally | PF_NO_GROW: flags=" + flags);
        }
        PageCursor cursor = cursorPool.get().take();
        if (cursor == null) {
            cursor = new PageCursor(this);
        }
        cursor.open(pageId, flags);
        return cursor;
    }

    void release(PageCursor cursor) {
        cursorPool.get().give(cursor);
    }

    /** The file's page size, as given to {@link PageCache#map}. */
    public int pageSize() {
        return filePageSize;
    }

    public Path path() {
        return path;
    }

    /** The highest page id that exists in the file or has been written through this cache; -1 if empty. */
    public long getLastPageId() {
        return lastPageId.get();
    }

    /** The file's size in bytes as the cache sees it: (last page id + 1) x page size. */
    public long fileSize() {
        return (getLastPageId() + 1) * filePageSize;
    }

    void growTo(long pageId) {
        long last;
        while ((last = lastPageId.get()) < pageId) {
            if (lastPageId.compareAndSet(last, pageId)) {
                return;
            }
        }
    }

    /**
     * Writes every page of this file that was modified before the call began and forces the file.
     * A page held by a write cursor while the flush passes it is written but stays dirty, to be
     * written again by a later flush, eviction or close.
     */
    public void flush() throws IOException {
        cache.throwPendingEvictionError();
        flushPages();
        swapper.force();
    }

    private void flushPages() throws IOException {
        FrameTable frames = cache.frames();
        long last = Math.min(getLastPageId(), table.capacity() - 1);
        for (long pageId = 0; pageId <= last; pageId++) {
            int entry = table.get(pageId);
            if (entry > 0) {
                flushPage(frames, pageId, entry - 1);
            }
        }
    }

    private void flushPage(FrameTable frames, long pageId, int frame) throws IOException {
        long key = PageKey.of(fileId, pageId);
        while (frames.binding(frame) == key && frames.isModified(frame)) {
            long flushStamp = frames.tryFlushLock(frame);
            if (flushStamp == FrameTable.FLUSH_LOCK_FAILED) {
                Thread.yield(); // being evicted (which writes it) or flushed by another thread
                continue;
            }
            boolean written = false;
            try {
                if (frames.binding(frame) == key && frames.isModified(frame)) {
                    swapper.write(pageId, cache.pageAddress(frame));
                    written = true;
                    cache.countFlushed(filePageSize);
                }
            } finally {
                frames.unlockFlush(frame, flushStamp, written);
            }
            return;
        }
    }

    /**
     * Faults {@code pageId} in unless another thread is doing so or already has. Returns the frame,
     * bound and exclusively locked by the caller, or -1 if the caller should look the page up again.
     */
    int faultIn(long pageId, long key) throws IOException {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
        cache.throwPendingEvictionError();
        if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
            return -1;
        }
        int frame;
        try {
            frame = cache.grabFrame();
        } catch (RuntimeException | IOException | Error e) {
            table.set(pageId, TranslationTable.ABSENT);
            throw e;
        }
        FrameTable frames = cache.frames();
        try {
            swapper.read(pageId, cache.pageAddress(frame));
        } catch (IOException e) {
            abandonFault(pageId, frame);
            throw new IOException("reading " + path + " page " + pageId + " failed: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            abandonFault(pageId, frame);
            throw e;
        }
        frames.clearModifiedExclusively(frame);
        frames.setBinding(frame, key);
        cache.policy().onFault(frame, key);
        cache.countRead(filePageSize);
        table.set(pageId, frame + 1);
        return frame;
    }

    private void abandonFault(long pageId, int frame) {
        cache.frames().unlockExclusive(frame);
        cache.freeFrame(frame);
        table.set(pageId, TranslationTable.ABSENT);
    }

    /** Called by the eviction engine, holding the frame exclusively: the page leaves the cache. */
    void evicted(long pageId, int frame) {
        table.compareAndSet(pageId, frame + 1, TranslationTable.ABSENT);
    }

    PageSwapper swapper() {
        return swapper;
    }

    TranslationTable table() {
        return table;
    }

    PageCache cache() {
        return cache;
    }

    int fileId() {
        return fileId;
    }

    /** Guarded by the cache's mapping lock. */
    void retain() {
        references++;
    }

    /** Guarded by the cache's mapping lock; true when the last mapping went away. */
    boolean releaseReference() {
        return --references == 0;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Flushes, then drops every page of the file from the cache and closes the file. Fails, leaving the
     * file mapped and its dirty pages in the cache, if a page cannot be written or a write cursor is
     * still open on it.
     */
    void unmap() throws IOException {
        closed = true;
        try {
            flush();
            dropPages();
        } catch (IOException | RuntimeException e) {
            closed = false;
            throw e;
        }
        swapper.close();
    }

    private void dropPages() throws IOException {
        FrameTable frames = cache.frames();
        long last = Math.min(getLastPageId(), table.capacity() - 1);
        for (long pageId = 0; pageId <= last; pageId++) {
            int entry;
            while ((entry = table.get(pageId)) != TranslationTable.ABSENT) {
                if (entry == TranslationTable.FAULTING) {
                    Thread.yield();
                    continue;
                }
                int frame = entry - 1;
                if (!frames.tryExclusiveLock(frame)) {
                    if (frames.writeLockCount(frame) > 0) {
                        throw new IllegalStateException("cannot close " + path + ": page " + pageId
                            + " is still held by a write cursor; close every cursor first");
                    }
                    Thread.yield();
                    continue;
                }
                cache.dropLocked(this, pageId, frame);
            }
        }
    }

    @Override
    public void close() throws IOException {
        cache.unmap(this);
    }

    @Override
    public String toString() {
        return "PagedFile[" + path + ", pageSize=" + filePageSize + ", lastPageId=" + getLastPageId() + "]";
    }

    /** A thread's released cursors of this file, reused by its next {@code io()}. */
    private static final class CursorPool {
        private final PageCursor[] cursors = new PageCursor[MAX_POOLED_CURSORS];
        private int size;

        PageCursor take() {
            return size == 0 ? null : cursors[--size];
        }

        void give(PageCursor cursor) {
            if (size < cursors.length) {
                cursors[size++] = cursor;
            }
        }
    }
}
