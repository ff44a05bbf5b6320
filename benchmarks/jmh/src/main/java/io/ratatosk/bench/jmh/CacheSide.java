package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * One side of a side-by-side benchmark: a page cache with one file mapped, behind the few calls the
 * benchmarks make. Ratatosk ({@link RatatoskSide}) and Neo4j's Muninn ({@link MuninnPeer}) both sit
 * behind it, so a benchmark body is the same code for both and only the {@code side} parameter
 * differs. Each JMH fork loads one implementation, so the calls through it stay monomorphic.
 */
public interface CacheSide extends AutoCloseable {
    /** The {@code side} parameter value of our cache. */
    String RATATOSK = "ratatosk";
    /** The {@code side} parameter value of the peer, Neo4j 5.26's MuninnPageCache. */
    String MUNINN = "muninn";
    /** The {@code side} value of no cache at all ({@link RawMemorySide}): the limit a hit path is measured against. */
    String RAW = "raw";

    /**
     * Opens {@code side} over {@code file} with the given number of frames of {@link BenchFile#PAGE_SIZE} bytes.
     *
     * @param policy  our eviction policy ({@code pagecache.policy}); ignored by the peer, which has one
     * @param evictor whether the background evictor runs; when off, faulting threads evict for themselves
     */
    static CacheSide open(String side, Path file, int frames, String policy, boolean evictor) throws IOException {
        return open(side, file, frames, policy, evictor, Map.of());
    }

    /**
     * As {@link #open(String, Path, int, String, boolean)}, with further flags of our cache on top of the
     * geometry, policy and evictor setting (e.g. {@code pagecache.swap=nvm} and {@code pagecache.nvm.*}).
     * The peer has no such flags, so it refuses any rather than run a different configuration than asked.
     */
    static CacheSide open(String side, Path file, int frames, String policy, boolean evictor, Map<String, String> flags)
        throws IOException {
        switch (side) {
            case RATATOSK:
                return new RatatoskSide(file, frames, policy, evictor, flags);
            case MUNINN:
                if (!flags.isEmpty()) {
                    throw new IllegalArgumentException("side " + MUNINN + " takes none of our cache's flags: " + flags);
                }
                return new MuninnPeer(file, frames, evictor);
            case RAW:
                if (!flags.isEmpty()) {
                    throw new IllegalArgumentException("side " + RAW + " is no cache and takes no flags: " + flags);
                }
                return new RawMemorySide(file); // the whole file, whatever the frame count
            default:
                throw new IllegalArgumentException("side must be " + RATATOSK + ", " + MUNINN + " or " + RAW + ": side=" + side);
        }
    }

    /** A read cursor (optimistic, {@code PF_SHARED_READ_LOCK}) for the calling thread to keep and reuse. */
    Cursor readCursor() throws IOException;

    /**
     * A store's read of one record with a cursor of its own: opens a read cursor at {@code pageId}, moves to it,
     * reads long {@code slot} until the read validates, closes the cursor; returns the value read. Each side with
     * its own cursor type, nothing wrapped.
     */
    long readWithNewCursor(long pageId, int slot) throws IOException;

    /** A write cursor ({@code PF_SHARED_WRITE_LOCK}) for the calling thread to keep and reuse. */
    Cursor writeCursor() throws IOException;

    /**
     * Pages read from the file since the cache was opened: one per page fault that the file served (all of
     * them but our NVM tier's swap-ins), counted the same way on both sides (ours from its counters,
     * Muninn's by its counting swappers), for the hit ratio.
     */
    long pagesRead();

    /**
     * Pages read from our NVM tier since the cache was opened (faults it served instead of the file);
     * 0 for a cache without one. Faults = {@link #pagesRead()} + swapIns.
     */
    default long swapIns() {
        return 0;
    }

    /** Closes the mapping and the cache; dirty pages are written first. */
    @Override
    void close() throws IOException;

    /** The calls a benchmark makes on a cursor; each side forwards them to its own cursor unchanged. */
    interface Cursor extends AutoCloseable {
        boolean next(long pageId) throws IOException;

        long getLong(int offset);

        void putLong(int offset, long value);

        boolean shouldRetry() throws IOException;

        @Override
        void close();
    }
}
