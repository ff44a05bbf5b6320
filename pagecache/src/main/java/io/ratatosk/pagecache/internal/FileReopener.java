package io.ratatosk.pagecache.internal;

import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Opens a {@link FileSwapper}'s file again after an interrupt closed its channel, and makes sure it is
 * the same file: the path may have been renamed, or replaced by another file, since it was opened, and
 * the swapper must never read or write a file other than the one it was given.
 * <ul>
 *   <li>Where it can (Linux), it keeps a spare read-only descriptor of the file, which no interrupt can
 *   close since no IO goes through it, and reopens through {@code /proc/self/fd/<spare>}: that names the
 *   open file itself, so the reopen reaches it however it was renamed, replaced or even deleted.</li>
 *   <li>Elsewhere it reopens the path and checks the file key (device and inode) against the one recorded
 *   at open, refusing with an IOException naming the path if they differ; a renamed file then cannot be
 *   reopened, but nothing else is ever touched.</li>
 * </ul>
 * Reaching the descriptor number of the spare takes {@code Unsafe} (FileDescriptor's {@code fd} is
 * private), so the spare is only kept after checking that {@code /proc/self/fd/<n>} leads to the file.
 * FileSwapper keeps a spare only for a channel that an interrupt can close.
 */
final class FileReopener implements Closeable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final long FD_FIELD = fdFieldOffset();

    private final Path path;
    /** The file's key when it was opened; null where the file system has none. */
    private final Object fileKey;
    /** The spare descriptor, or null if there is none. */
    private final FileInputStream spare;
    /** {@code /proc/self/fd/<spare>}, or null if there is no spare. */
    private final Path spareLink;

    private FileReopener(Path path, Object fileKey, FileInputStream spare, Path spareLink) {
        this.path = path;
        this.fileKey = fileKey;
        this.spare = spare;
        this.spareLink = spareLink;
    }

    /**
     * Records the identity of the file just opened at {@code path}; with {@code keepSpare}, also keeps a
     * spare descriptor of it where the platform lets it reopen through one.
     */
    static FileReopener of(Path path, boolean keepSpare) throws IOException {
        Object key = fileKey(path);
        FileInputStream spare = null;
        Path link = null;
        if (keepSpare && key != null && FD_FIELD >= 0 && Files.isDirectory(Path.of("/proc/self/fd"))) {
            try {
                spare = new FileInputStream(path.toFile());
                link = Path.of("/proc/self/fd/" + descriptorNumber(spare.getFD()));
                if (!key.equals(fileKey(link))) {
                    link = null;
                }
            } catch (IOException | RuntimeException e) {
                link = null; // no spare to reopen through: the file key check still keeps us on the same file
            }
            if (link == null && spare != null) {
                spare.close();
                spare = null;
            }
        }
        return new FileReopener(path, key, spare, link);
    }

    /** Whether reopening goes through a spare descriptor (and so survives a rename). */
    boolean reopensThroughSpareDescriptor() {
        return spareLink != null;
    }

    /** Opens the file again, for reading and writing, through {@code opener}. */
    FileChannel reopen(FileChannelOpener opener) throws IOException {
        if (spareLink != null) {
            return opener.open(spareLink, false);
        }
        if (fileKey == null) {
            throw new IOException("cannot reopen " + path + " after an interrupt closed its channel: the file system"
                + " gives no file key to check that the path still names the file that was opened");
        }
        Object before = fileKey(path);
        FileChannel channel = opener.open(path, false);
        Object after = fileKey(path);
        if (!fileKey.equals(before) || !fileKey.equals(after)) {
            channel.close();
            throw new IOException("cannot reopen " + path + " after an interrupt closed its channel: the path now names"
                + " another file (file key " + (fileKey.equals(before) ? after : before) + ", opened as " + fileKey
                + "); it was renamed or replaced, and the page cache must not write into a different file");
        }
        return channel;
    }

    @Override
    public void close() throws IOException {
        if (spare != null) {
            spare.close();
        }
    }

    private static Object fileKey(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    private static int descriptorNumber(FileDescriptor fd) {
        return UNSAFE.getInt(Objects.requireNonNull(fd), FD_FIELD);
    }

    private static long fdFieldOffset() {
        try {
            return UNSAFE.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd"));
        } catch (NoSuchFieldException | RuntimeException e) {
            return -1;
        }
    }
}
