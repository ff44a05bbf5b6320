package io.ratatosk.pagecache;

import java.io.IOException;

/** Who mapped a {@link FileMapping} and unmaps it when its last mapping is released. */
interface MappingOwner {
    /** One mapping of {@code mapping} was closed; the last one unmaps it. */
    void release(FileMapping mapping) throws IOException;
}
