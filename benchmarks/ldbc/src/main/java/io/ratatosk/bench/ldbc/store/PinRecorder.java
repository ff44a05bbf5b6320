package io.ratatosk.bench.ldbc.store;

/**
 * Told about every page access a {@link StoreReader} makes, in order (each move of one of its cursors
 * to a page): the hook that records a run's page-access trace, since the page cache itself has none.
 * Called on the reading thread.
 */
@FunctionalInterface
public interface PinRecorder {
    /** {@code fileId} is {@link StoreFile#traceFileId()}. */
    void pinned(int fileId, long pageId);
}
