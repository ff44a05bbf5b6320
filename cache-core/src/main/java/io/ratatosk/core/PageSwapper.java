package io.ratatosk.core;

import java.io.IOException;

/**
 * Moves pages between frames and the storage behind them (a file, or the NVM tier in front of it).
 * Addresses are off-heap page buffers of at least {@code filePageSize} bytes. A read past the end of
 * the storage fills the rest of the buffer with zeros. Implementations are thread-safe: different
 * pages are read and written concurrently.
 *
 * <p>What a swapper throws from a page read (an {@code IOException} or any {@code RuntimeException}) reaches the
 * cursor that faulted the page as an {@code IOException} naming the file and the page, with the swapper's exception
 * as its cause; an {@code Error} passes as it is. Either way the page is left absent and its frame free, and a later
 * read tries again. A failed eviction write leaves the page dirty in the cache and is reported to the next fault,
 * map or flush. {@link #filePageSize()} must be the page size the factory was asked for.
 *
 * <p>The page cache puts no time limit on a swapper's call: one that never returns keeps its page's frame locked,
 * and every cursor, flush, unmap or close that needs that page waits as long. A swapper over storage that can stall
 * (a network volume, a device that stops answering) should bound its own calls and throw, which the cache reports
 * as above.
 */
public interface PageSwapper extends AutoCloseable {
    /** The page size of the file behind this swapper. */
    int filePageSize();

    /** Reads page {@code pageId} into the buffer; returns the bytes read from storage (0 past the end). */
    int read(long pageId, long address) throws IOException;

    /** Writes the buffer to page {@code pageId}. */
    void write(long pageId, long address) throws IOException;

    /**
     * Writes {@code count} consecutive pages starting at {@code startPageId} from the given buffers,
     * in one call where the storage allows it.
     */
    default void write(long startPageId, long[] addresses, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            write(startPageId + i, addresses[i]);
        }
    }

    /**
     * The page leaves the frames. When this returns, a dirty page must be safe (written to the file,
     * or to a tier that will write it there); the default writes dirty pages and drops clean ones.
     * A tier in front of the file overrides this to keep a copy of clean pages too.
     */
    default void evict(long pageId, long address, boolean dirty) throws IOException {
        if (dirty) {
            write(pageId, address);
        }
    }

    /**
     * Whether {@link #evict} is the default's and nothing more: a dirty page {@link #write written}, a clean one
     * dropped. Then the page cache's background sweeps may write an evicted dirty page together with its dirty
     * neighbours in one vectored {@code write}, with no {@code evict} call (write-behind). False unless a
     * swapper says so, so that one whose {@code evict} does more (a tier keeping copies, a counter) sees every
     * eviction.
     */
    default boolean evictionIsPlainWrite() {
        return false;
    }

    /**
     * Whether this swapper holds pages its storage does not have yet (a tier's dirty copies, written to the file later):
     * what a close that failed would lose. The page cache's close keeps the cache open, its close to be retried, while
     * the close of such a swapper fails, as it does for a dirty page it could not write out of a frame. False unless a
     * swapper says so: a plain file swapper writes every page it is given before it returns.
     */
    default boolean holdsUnwrittenPages() {
        return false;
    }

    /** Makes every completed write durable. */
    void force() throws IOException;

    /** Number of whole or partial pages in the storage. */
    long pageCount() throws IOException;

    /** Cuts the storage to {@code pageCount} pages. */
    void truncate(long pageCount) throws IOException;

    /**
     * Makes what was written durable and lets go of the storage. A close that throws is called again by the page cache
     * (at the file's next map, its next close, the cache's close) for as long as it throws: a swapper that closed its
     * storage all the same (its force failed, say) reports that once and does nothing on a later close, as
     * {@code PagedFile.close} does after a failed force.
     */
    @Override
    void close() throws IOException;
}
