package io.ratatosk.core;

import java.io.IOException;
import java.nio.file.Path;

/** Creates the swapper behind one mapped file. The page cache owns one factory. */
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
