package io.ratatosk.pagecache;

import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A file mapped into the {@link PageCache}: its pages are read and written through {@link PageCursor}s
 * from {@link #io}. Mapping the same file twice, by any spelling of its path, returns the same object;
 * it is unmapped when every mapping is closed, or when the cache closes. Thread-safe.
 *
 * <p>Once unmapped, {@link #io}, {@link #flush}, {@link #truncate}, {@link #touch}, the next {@code next()} of any of its
 * cursors and the next {@code shouldRetry()} of any of its read cursors on a page throw {@link IllegalStateException};
 * {@link #close} again does nothing, and {@link #numberOfCachedPages()} is 0.
 */
public final class PagedFile implements AutoCloseable {
    /** Optimistic reads: nothing is locked; validate with {@link PageCursor#shouldRetry()}. */
    public static final int PF_SHARED_READ_LOCK = 1;
    /** A shared write lock per page: the page is pinned and marked modified. */
    public static final int PF_SHARED_WRITE_LOCK = 1 << 1;
    /** With a write lock: do not grow the file; {@code next()} past the last page returns false. */
    public static final int PF_NO_GROW = 1 << 2;
    /**
     * Read-ahead: while the cursor moves sequentially ({@code next()}, or {@code next(id)} one page on, from
     * the page given to {@code io()} or the page it last jumped to), a background thread faults the following
     * pages in ahead of it, so a scan waits for less IO. A jump, or a {@code next(id)} to the page the cursor
     * is on, reads nothing ahead: a lookup does not bring in the pages after it. Pages
     * past the file's end are never read ahead; a read-ahead evicts only what a background sweep can
     * evict at once, and gives up rather than waits.
     */
    public static final int PF_READ_AHEAD = 1 << 3;

    private final FileMapping mapping;

    PagedFile(FileMapping mapping) {
        this.mapping = mapping;
    }

    /**
     * A cursor positioned before {@code pageId}: its first {@code next()} moves to {@code pageId}.
     *
     * @param flags exactly one of {@link #PF_SHARED_READ_LOCK} and {@link #PF_SHARED_WRITE_LOCK},
     *              optionally with {@link #PF_NO_GROW} and {@link #PF_READ_AHEAD}
     * @throws IllegalArgumentException for a page id the file cannot address, or bad flags
     * @throws IllegalStateException    once the file is unmapped
     */
    public PageCursor io(long pageId, int flags) throws IOException {
        mapping.checkPageId(pageId);
        int lockFlags = flags & (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK);
        if (lockFlags == 0 || lockFlags == (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK)
            || (flags & ~(PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK | PF_NO_GROW | PF_READ_AHEAD)) != 0) {
            throw new IllegalArgumentException("flags must be PF_SHARED_READ_LOCK or PF_SHARED_WRITE_LOCK,"
                + " optionally | PF_NO_GROW | PF_READ_AHEAD: flags=" + flags);
        }
        // Counted before the closed check: the cache sets closed before it counts open cursors, so
        // either it sees this cursor or this call sees the file closed (see CursorCounts).
        EvictionEngine engine = mapping.engine();
        int stripe = engine.cursorOpened();
        if (mapping.isClosed()) {
            refuseUnlessMapped(engine, stripe);
        }
        try {
            ReadAheadWorker readAhead = (flags & PF_READ_AHEAD) == 0 ? null : engine.readAhead();
            return new PageCursor(mapping, pageId, (flags & PF_SHARED_WRITE_LOCK) != 0, (flags & PF_NO_GROW) != 0,
                stripe, readAhead);
        } catch (Throwable t) {
            // An OutOfMemoryError allocating the cursor: it once stayed counted open for good, and the cache's page
            // memory was never freed after close.
            engine.cursorClosed(stripe);
            throw t;
        }
    }

    /**
     * For {@link #io} on a file being unmapped: returns if the unmap fails (the file stays mapped), else throws; and
     * uncounts the cursor whatever it throws, also the refusal of a call from inside a swapper call (once left counted
     * open: the cache then never freed its page memory). Out of {@code io}, which must stay small enough to inline.
     */
    private void refuseUnlessMapped(EvictionEngine engine, int stripe) {
        try {
            if (mapping.awaitMapped()) {
                return;
            }
        } catch (Throwable t) {
            engine.cursorClosed(stripe);
            throw t;
        }
        engine.cursorClosed(stripe);
        throw mapping.unmappedException();
    }

    /** The file's page size, as given to {@link PageCache#map}. */
    public int pageSize() {
        return mapping.pageSize();
    }

    /** The file's real path (symbolic links resolved) when it was mapped. */
    public Path path() {
        return mapping.path();
    }

    /** The highest page id that exists in the file or has been written through this cache; -1 if empty. */
    public long getLastPageId() {
        return mapping.lastPageId();
    }

    /** The file's size in bytes as the cache sees it: (last page id + 1) x page size. */
    public long fileSize() {
        return (getLastPageId() + 1) * pageSize();
    }

    /**
     * The highest page id this file can address: the page must end within a long's byte offsets (its last byte's offset
     * plus one is at most {@code Long.MAX_VALUE}, so that {@link #fileSize()} is a long), and its id must fit 48 bits.
     * The first bounds files of 64 KiB pages and more.
     */
    public long maxPageId() {
        return mapping.maxPageId();
    }

    /**
     * Cuts the file to {@code pageCount} pages: the pages at and after {@code pageCount} leave the cache
     * (dirty or not, they are never written: not by this call, a flush or an eviction), leave the swap tier
     * in front of the file if one is configured, and leave the file. Afterwards {@link #getLastPageId()} is
     * at most {@code pageCount - 1} and a read cursor's {@code next(id)} for such a page returns false; a
     * write cursor may grow the file again. A cut below the last page leaves the file on disk {@code pageCount}
     * pages long, also where pages before the cut were never written (they read as zeros); where the new last page
     * is in the cache, dirty, and lay past the file's end on disk, the file reaches it at the next flush, eviction
     * or close, which writes that page (until then the file on disk may be shorter). A read cursor that
     * was reading a page cut off finds out at its {@code shouldRetry()} (true, then a cursor exception from
     * {@code checkAndClearCursorException()}).
     * A {@code pageCount} at or past the end changes nothing. Faults, flushes and read-aheads of this file
     * wait while it runs.
     *
     * @throws IllegalArgumentException if {@code pageCount} is negative
     * @throws IllegalStateException    while a write cursor holds a page at or past {@code pageCount} (then
     *                                  nothing changed), or once the file is unmapped
     * @throws IOException              if the file cannot be cut; then the cache is left as it was (its end, and its
     *                                  pages past the cut, dirty ones still to be written), and the truncate may be
     *                                  retried. Also thrown when the cut was made but its new last page (page
     *                                  {@code pageCount - 1}, past where the file ended on disk) could not be
     *                                  written: the message says the file may end before that page.
     *                                  {@link #getLastPageId()} is {@code pageCount - 1} all the same, and every
     *                                  later {@link #flush()}, {@link PageCache#flushAndForce()} and the close that
     *                                  unmaps the file write that page first and fail, saying so, while they
     *                                  cannot; one that returns normally leaves the file as long as
     *                                  {@link #getLastPageId()} says
     */
    public void truncate(long pageCount) throws IOException {
        mapping.truncate(pageCount);
    }

    /**
     * Faults the pages {@code [pageId, pageId + count)} into the cache without pinning them (evicting
     * others if it must, as a cursor's fault would), stopping at the file's last page. Pages already in
     * the cache, or being faulted in by another thread, are left as they are. Neither a hit nor a fault in
     * {@link PageCache#stats()}: no cursor pinned anything.
     *
     * @return how many pages this call brought in
     * @throws IllegalArgumentException for a page id the file cannot address, or a negative count
     * @throws IllegalStateException    once the file is unmapped
     */
    public int touch(long pageId, int count) throws IOException {
        return mapping.touch(pageId, count);
    }

    /** How many of this file's pages are in the cache now: a snapshot, exact only while nothing moves. */
    public long numberOfCachedPages() {
        return mapping.numberOfCachedPages();
    }

    /**
     * Writes every page of this file that was modified before the call began and forces the file.
     * A page held by a write cursor while the flush passes it is written but stays dirty, to be
     * written again by a later flush, eviction or close.
     *
     * @throws IOException           if a write or the force fails. A failed force sticks: from then on every flush
     *                               of this file and its close throw too, naming it, however later forces go, since
     *                               the pages it was to make durable may be lost (see docs/architecture.md)
     * @throws IllegalStateException once the file is unmapped; where a close on another thread unmapped it during the
     *                               call, saying so (that close wrote and forced the pages, or, where its force failed, an
     *                               IOException says so instead)
     */
    public void flush() throws IOException {
        mapping.flush();
    }

    /**
     * Closes this mapping; the last one flushes the file, drops its pages from the cache and closes it.
     * Refused ({@link IllegalStateException}, the file stays mapped) while a write cursor holds one of
     * its pages. Closing an unmapped file does nothing, unless closing the file itself (its swapper) failed before:
     * then it tries that again.
     *
     * @throws IOException if a write fails (the file stays mapped, its dirty pages kept), or the force fails now or
     *                     failed before: then the file is unmapped and closed all the same (its pages were written
     *                     and dropped) and the exception says its content may not be durable; or if closing the file
     *                     (its swapper) fails after it was flushed and unmapped: a later close of it, map of it or close
     *                     of the cache tries again
     */
    @Override
    public void close() throws IOException {
        mapping.release();
    }

    @Override
    public String toString() {
        return mapping.toString();
    }

    // ---- for tests in this package ----------------------------------------------------------------

    int fileId() {
        return mapping.fileId();
    }

    TranslationTable table() {
        return mapping.table();
    }

    FileMapping mapping() {
        return mapping;
    }
}
