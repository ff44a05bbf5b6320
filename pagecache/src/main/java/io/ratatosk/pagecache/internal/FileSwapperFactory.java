package io.ratatosk.pagecache.internal;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The default swapper factory: plain files through positional IO, buffered by the operating system or,
 * with {@code pagecache.io=direct}, not ({@link DirectIo}).
 */
public final class FileSwapperFactory implements PageSwapperFactory {
    private final FileChannelOpener opener;
    private final boolean direct;

    /** Swappers over the JDK's file channels, made immune to interrupts where the JDK allows it. */
    public FileSwapperFactory() {
        this(FileChannelOpener.uninterruptible());
    }

    /** Swappers whose channels {@code opener} opens: the seam for wrapping channels, e.g. to inject faults. */
    public FileSwapperFactory(FileChannelOpener opener) {
        this(opener, false);
    }

    /** With {@code direct}, swappers that open their files with O_DIRECT ({@code pagecache.io=direct}). */
    public FileSwapperFactory(boolean direct) {
        this(direct ? DirectIo.opener() : FileChannelOpener.uninterruptible(), direct);
    }

    /**
     * @param opener opens the files; with {@code direct}, it must open them with O_DIRECT, as
     *               {@link DirectIo#opener()} does (a test wraps that to count or inject faults)
     */
    public FileSwapperFactory(FileChannelOpener opener, boolean direct) {
        this.opener = opener;
        this.direct = direct;
    }

    /**
     * @throws java.io.IOException naming the file and {@code pagecache.io=direct} where direct IO is refused:
     *                             a page size that is not a multiple of the block size, a file system
     *                             without O_DIRECT
     */
    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        if (direct) {
            return FileSwapper.direct(file, filePageSize, create, opener, DirectIo.alignment(file, filePageSize));
        }
        return new FileSwapper(file, filePageSize, create, true, opener);
    }
}
