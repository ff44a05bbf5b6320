package io.ratatosk.pagecache.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens the channel a {@link FileSwapper} reads and writes through, for reading and writing. The seam
 * below the swapper: the default opens real channels that an interrupt cannot close; tests wrap them to
 * inject faults. FileSwapper opens through it again when it must reopen its file, then with
 * {@code create} false and possibly another path naming the same file (such as {@code /proc/self/fd/N}).
 */
@FunctionalInterface
public interface FileChannelOpener {
    /** Opens {@code path} for reading and writing, creating it if {@code create} and it does not exist. */
    FileChannel open(Path path, boolean create) throws IOException;

    /** The default: the JDK's file channel, made immune to interrupts where this JDK allows it. */
    static FileChannelOpener uninterruptible() {
        return UninterruptibleFileChannels::open;
    }

    /**
     * The JDK's file channel as it comes: an interrupt of a thread in its IO closes it for every thread,
     * and FileSwapper has to reopen the file. Where {@link #uninterruptible()} cannot do better, it
     * amounts to this.
     */
    static FileChannelOpener interruptible() {
        return (path, create) -> FileChannel.open(path, readWrite(create));
    }

    /** READ and WRITE, and CREATE if {@code create}. */
    static OpenOption[] readWrite(boolean create) {
        return create
            ? new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE}
            : new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE};
    }
}
