package io.ratatosk.core;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Creates the swapper behind one mapped file. The page cache owns one factory, and closes it when it closes: a
 * factory serving an open cache is refused to another. {@link #create} must return a swapper
 * of its own for each file, of the page size asked for, and must not call back into the page cache (it runs under the
 * cache's mapping lock); the page cache refuses null, another mapped file's swapper, another page size and call backs
 * with an {@code IllegalStateException} naming the file.
 */
public interface PageSwapperFactory extends AutoCloseable {
    /**
     * @param fileId the page cache's id for the file, unique while it is mapped
     * @param create create the file if it does not exist
     */
    PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException;

    /** Releases resources shared by all swappers of this factory (the NVM device, say). */
    @Override
    default void close() throws IOException {
    }
}
