package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.file.Path;

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

    /**
     * Opens {@code side} over {@code file} with the given number of frames of {@link BenchFile#PAGE_SIZE} bytes.
     *
     * @param policy  our eviction policy ({@code pagecache.policy}); ignored by the peer, which has one
     * @param evictor whether the background evictor runs; when off, faulting threads evict for themselves
     */
    static CacheSide open(String side, Path file, int frames, String policy, boolean evictor) throws IOException {
        switch (side) {
            case RATATOSK:
                return new RatatoskSide(file, frames, policy, evictor);
            case MUNINN:
                return new MuninnPeer(file, frames, evictor);
            default:
                throw new IllegalArgumentException("side must be " + RATATOSK + " or " + MUNINN + ": side=" + side);
        }
    }

    /** A read cursor (optimistic, {@code PF_SHARED_READ_LOCK}) for the calling thread to keep and reuse. */
    Cursor readCursor() throws IOException;

    /** A write cursor ({@code PF_SHARED_WRITE_LOCK}) for the calling thread to keep and reuse. */
    Cursor writeCursor() throws IOException;

    /**
     * Pages read from the file since the cache was opened: one per page fault, counted the same way on
     * both sides (ours from its counters, Muninn's from its tracer), for the hit ratio.
     */
    long pagesRead();

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
