package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.OperationGate;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A file mapped into the {@link PageCache}: its pages are read and written through {@link PageCursor}s
 * from {@link #io}. Mapping the same file twice, by any spelling of its path, returns the same object;
 * it is unmapped when every mapping is closed, or when the cache closes. Thread-safe.
 *
 * <p>Once unmapped, {@link #io}, {@link #flush} and the next {@code next()} or {@code shouldRetry()} of
 * any of its cursors throw {@link IllegalStateException}; {@link #close} again does nothing.
 */
public final class PagedFile implements AutoCloseable {
    /** Optimistic reads: nothing is locked; validate with {@link PageCursor#shouldRetry()}. */
    public static final int PF_SHARED_READ_LOCK = 1;
    /** A shared write lock per page: the page is pinned and marked modified. */
    public static final int PF_SHARED_WRITE_LOCK = 1 << 1;
    /** With a write lock: do not grow the file; {@code next()} past the last page returns false. */
    public static final int PF_NO_GROW = 1 << 2;

    /**
     * A write cursor's fault of a page this far past the file's last page writes the (zero) page at once:
     * a far write makes a sparse file there and then, and a file system that cannot hold a file that
     * large refuses on that call, before anything is dirtied, instead of on a later flush.
     */
    static final long FAR_PAGE_DISTANCE = 4096;
    private static final int FAILURE_SLOTS = 16;

    private final PageCache cache;
    private final int fileId;
    private final Path path;
    private final Object identity;
    private final int filePageSize;
    private final long maxPageId;
    private final PageSwapper swapper;
    private final TranslationTable table;
    private final AtomicLong lastPageId;
    /** Faults, prefetches and flushes in flight; closed by unmap. */
    private final OperationGate gate = new OperationGate();
    /** The latest failed fault per slot (page id hash), so that threads that waited for it get its failure. */
    private final AtomicReferenceArray<FaultFailure> recentFailures = new AtomicReferenceArray<>(FAILURE_SLOTS);
    /** Guarded by the cache's mapping lock. */
    private int references = 1;
    private volatile boolean closed;

    PagedFile(PageCache cache, int fileId, Path path, Object identity, int filePageSize, PageSwapper swapper) throws IOException {
        this.cache = cache;
        this.fileId = fileId;
        this.path = path;
        this.identity = identity;
        this.filePageSize = filePageSize;
        this.maxPageId = Math.min(PageKey.MAX_PAGE_ID, Long.MAX_VALUE / filePageSize - 1);
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
     * @throws IllegalArgumentException for a page id the file cannot address, or bad flags
     * @throws IllegalStateException    once the file is unmapped
     */
    public PageCursor io(long pageId, int flags) throws IOException {
        checkPageId(pageId);
        int lockFlags = flags & (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK);
        if (lockFlags == 0 || lockFlags == (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK)
            || (flags & ~(PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK | PF_NO_GROW)) != 0) {
            throw new IllegalArgumentException("flags must be PF_SHARED_READ_LOCK or PF_SHARED_WRITE_LOCK,"
                + " optionally | PF_NO_GROW: flags=" + flags);
        }
        // Counted before the closed check, so that the cache, which sets closed before it counts open
        // cursors, either sees this cursor or this call sees the file closed (OpenCursorCount).
        int stripe = cache.cursorOpened();
        if (closed) {
            cache.cursorClosed(stripe);
            throw unmappedException();
        }
        return new PageCursor(this, pageId, flags, stripe);
    }

    /** The file's page size, as given to {@link PageCache#map}. */
    public int pageSize() {
        return filePageSize;
    }

    /** The file's real path (symbolic links resolved) when it was mapped. */
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

    /** The highest page id this file can address: its byte offset must fit a long, its id a {@link PageKey}. */
    public long maxPageId() {
        return maxPageId;
    }

    void checkPageId(long pageId) {
        if (pageId < 0 || pageId > maxPageId) {
            throw new IllegalArgumentException("page id must be in [0, " + maxPageId + "] (a page's byte offset must fit"
                + " a signed 64-bit integer and its id 48 bits): pageId=" + pageId + " in " + path);
        }
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
     *
     * @throws IllegalStateException once the file is unmapped
     */
    public void flush() throws IOException {
        if (!gate.enter()) {
            throw unmappedException();
        }
        try {
            cache.throwPendingEvictionError();
            flushPages();
            swapper.force();
        } finally {
            gate.exit();
        }
    }

    private void flushPages() throws IOException {
        FrameTable frames = cache.frames();
        for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
            int entry = table.get(pageId);
            if (entry > 0) {
                flushPage(frames, pageId, entry - 1);
            }
        }
    }

    private void flushPage(FrameTable frames, long pageId, int frame) throws IOException {
        long key = PageKey.of(fileId, pageId);
        int attempt = 0;
        while (frames.binding(frame) == key && frames.isModified(frame)) {
            long flushStamp = frames.tryFlushLock(frame);
            if (flushStamp == FrameTable.FLUSH_LOCK_FAILED) {
                attempt = Backoff.pause(attempt); // being evicted (which writes it) or flushed by another thread
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

    // ---- faults ---------------------------------------------------------------------------------

    /**
     * Faults {@code pageId} in unless another thread is doing so or already has. Returns the frame,
     * bound and exclusively locked by the caller, or -1 if the caller should look the page up again.
     * Whatever goes wrong, the page's entry goes back to absent and the frame back to the free list,
     * and threads waiting for this fault get its failure ({@link #awaitFault}).
     *
     * @param forWrite a write cursor's fault: a page far past the end is written (zeros) at once
     * @throws IllegalStateException once the file is unmapped
     */
    int faultIn(long pageId, long key, boolean forWrite) throws IOException {
        if (!gate.enter()) {
            throw unmappedException();
        }
        try {
            cache.throwPendingEvictionError();
            if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
                return -1;
            }
            int frame;
            try {
                frame = cache.grabFrame();
            } catch (Throwable t) {
                failed(pageId, t);
                throw t;
            }
            return fill(pageId, key, frame, forWrite);
        } finally {
            gate.exit();
        }
    }

    /**
     * Faults a page in for the NVM prefetcher, into a free frame only: true if it did, false if the page
     * is resident or being faulted, no frame is free, or the file is being unmapped. Leaves it unlocked.
     */
    boolean prefetch(long pageId) throws IOException {
        if (!gate.enter()) {
            return false;
        }
        try {
            if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
                return false;
            }
            int frame = cache.tryGrabFreeFrame();
            if (frame < 0) {
                table.set(pageId, TranslationTable.ABSENT);
                return false;
            }
            cache.frames().unlockExclusive(fill(pageId, PageKey.of(fileId, pageId), frame, false));
            return true;
        } finally {
            gate.exit();
        }
    }

    /**
     * Reads the page into {@code frame} (exclusively locked and unbound; a failure to get one arrives
     * as an exception before this is called) and binds it. The caller marked the entry FAULTING.
     */
    private int fill(long pageId, long key, int frame, boolean forWrite) throws IOException {
        boolean bound = false;
        try {
            long address = cache.pageAddress(frame);
            int read;
            try {
                read = swapper.read(pageId, address);
                if (read == 0 && forWrite && pageId > getLastPageId() + FAR_PAGE_DISTANCE) {
                    swapper.write(pageId, address);
                }
            } catch (IOException e) {
                throw new IOException((forWrite && pageId > getLastPageId() ? "growing " : "reading ") + path
                    + " to page " + pageId + " (byte offset " + pageId * filePageSize + ") failed: " + e.getMessage(), e);
            }
            cache.bind(frame, key);
            bound = true;
            cache.countRead(filePageSize);
            table.set(pageId, frame + 1);
            return frame;
        } catch (Throwable t) {
            cache.abandonFill(frame, key, bound);
            failed(pageId, t);
            throw t;
        }
    }

    /** The fault of {@code pageId} failed: the page is absent again, and its waiters learn why. */
    private void failed(long pageId, Throwable cause) {
        recentFailures.set(failureSlot(pageId), new FaultFailure(pageId, cause));
        table.set(pageId, TranslationTable.ABSENT);
    }

    /**
     * Called with the page's entry seen FAULTING: waits (spin, yield, park) until the faulting thread is
     * done. If its fault failed, throws that failure instead of letting the caller retry blindly.
     */
    void awaitFault(long pageId) throws IOException {
        FaultFailure before = recentFailures.get(failureSlot(pageId));
        int attempt = 0;
        while (table.get(pageId) == TranslationTable.FAULTING) {
            attempt = Backoff.pause(attempt);
        }
        FaultFailure after = recentFailures.get(failureSlot(pageId));
        if (after != before && after != null && after.pageId == pageId) {
            throw new IOException("page " + pageId + " of " + path + " could not be faulted in: the fault in another"
                + " thread failed: " + after.cause, after.cause);
        }
    }

    private static int failureSlot(long pageId) {
        return (int) (pageId ^ (pageId >>> 17)) & (FAILURE_SLOTS - 1);
    }

    /** A fault that failed, kept for the threads that waited for it. */
    private record FaultFailure(long pageId, Throwable cause) {
    }

    /** Called by the eviction engine, holding the frame exclusively: the page leaves the cache. */
    void evicted(long pageId, int frame) {
        table.compareAndSet(pageId, frame + 1, TranslationTable.ABSENT);
    }

    // ---- accessors for the cache and cursors ----------------------------------------------------

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

    /** What makes two paths the same file (see {@link PageCache#map}). */
    Object identity() {
        return identity;
    }

    /** Guarded by the cache's mapping lock. */
    void retain() {
        references++;
    }

    /** Guarded by the cache's mapping lock; true when the last mapping went away. */
    boolean releaseReference() {
        return --references == 0;
    }

    /** True once unmapped (or while an unmap is under way). */
    boolean isClosed() {
        return closed;
    }

    IllegalStateException unmappedException() {
        return new IllegalStateException(path + " is not mapped: it was closed (unmapped), or the page cache was closed");
    }

    // ---- unmapping ------------------------------------------------------------------------------

    /**
     * Refuses new cursors and operations, waits for faults and flushes in flight, flushes, then drops
     * every page of the file from the cache. Fails, leaving the file mapped and its dirty pages in the
     * cache, if a page cannot be written or a write cursor still holds one. Does not close the swapper:
     * the cache does that once this returned. Called under the cache's mapping lock.
     */
    void unmap() throws IOException {
        closed = true;
        gate.close();
        try {
            flushPages();
            swapper.force();
            dropPages();
        } catch (Throwable t) {
            gate.reopen();
            closed = false;
            throw t;
        }
    }

    private void dropPages() throws IOException {
        FrameTable frames = cache.frames();
        for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId)) {
            int entry = table.get(pageId);
            if (entry == TranslationTable.FAULTING) {
                // Only a fault in flight marks an entry FAULTING, and the gate is closed and drained.
                throw new IllegalStateException("page " + pageId + " of " + path + " is being faulted in while the file is"
                    + " unmapped: a fault bypassed the file's operation gate");
            }
            if (entry == TranslationTable.ABSENT) {
                continue; // evicted meanwhile
            }
            int frame = entry - 1;
            int attempt = 0;
            while (!frames.tryExclusiveLock(frame)) {
                if (frames.writeLockCount(frame) > 0) {
                    throw new IllegalStateException("cannot close " + path + ": page " + pageId
                        + " is still held by a write cursor; close every cursor first");
                }
                attempt = Backoff.pause(attempt); // being evicted, flushed or read in by a cursor
            }
            cache.dropLocked(this, pageId, frame);
        }
    }

    @Override
    public void close() throws IOException {
        cache.unmap(this);
    }

    @Override
    public String toString() {
        return "PagedFile[" + path + ", pageSize=" + filePageSize + ", lastPageId=" + getLastPageId()
            + (closed ? ", unmapped" : "") + "]";
    }
}
