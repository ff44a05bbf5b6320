package io.ratatosk.pagecache.internal;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;

/** The default swapper factory: plain files through positional IO. */
public final class FileSwapperFactory implements PageSwapperFactory {
    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        return new FileSwapper(file, filePageSize, create);
    }
}
