package io.ratatosk.pagecache.internal;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;

/** The default swapper factory: plain files through positional IO. */
public final class FileSwapperFactory implements PageSwapperFactory {
    private final FileChannelOpener opener;

    /** Swappers over the JDK's file channels, made immune to interrupts where the JDK allows it. */
    public FileSwapperFactory() {
        this(FileChannelOpener.uninterruptible());
    }

    /** Swappers whose channels {@code opener} opens: the seam for wrapping channels, e.g. to inject faults. */
    public FileSwapperFactory(FileChannelOpener opener) {
        this.opener = opener;
    }

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        return new FileSwapper(file, filePageSize, create, true, opener);
    }
}
