package io.ratatosk.pagecache;

import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;

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

    private final FileMapping mapping;

    PagedFile(FileMapping mapping) {
        this.mapping = mapping;
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
        mapping.checkPageId(pageId);
        int lockFlags = flags & (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK);
        if (lockFlags == 0 || lockFlags == (PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK)
            || (flags & ~(PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK | PF_NO_GROW)) != 0) {
            throw new IllegalArgumentException("flags must be PF_SHARED_READ_LOCK or PF_SHARED_WRITE_LOCK,"
                + " optionally | PF_NO_GROW: flags=" + flags);
        }
        // Counted before the closed check: the cache sets closed before it counts open cursors, so
        // either it sees this cursor or this call sees the file closed (see OpenCursorCount).
        EvictionEngine engine = mapping.engine();
        int stripe = engine.cursorOpened();
        if (!mapping.awaitMapped()) {
            engine.cursorClosed(stripe);
            throw mapping.unmappedException();
        }
        return new PageCursor(mapping, pageId, (flags & PF_SHARED_WRITE_LOCK) != 0, (flags & PF_NO_GROW) != 0, stripe);
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

    /** The highest page id this file can address: its byte offset must fit a long, its id 48 bits. */
    public long maxPageId() {
        return mapping.maxPageId();
    }

    /**
     * Writes every page of this file that was modified before the call began and forces the file.
     * A page held by a write cursor while the flush passes it is written but stays dirty, to be
     * written again by a later flush, eviction or close.
     *
     * @throws IllegalStateException once the file is unmapped
     */
    public void flush() throws IOException {
        mapping.flush();
    }

    /**
     * Closes this mapping; the last one flushes the file, drops its pages from the cache and closes it.
     * Refused ({@link IllegalStateException}, the file stays mapped) while a write cursor holds one of
     * its pages. Closing an unmapped file does nothing.
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
