package io.ratatosk.pagecache.internal;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * What {@code pagecache.io=direct} needs of a file: channels opened with {@code O_DIRECT}
 * ({@link ExtendedOpenOption#DIRECT}), and page sizes, file offsets and IO buffers aligned to the block
 * size of the file's store. Every refusal names the file and the flag: a file that cannot be read directly
 * is not mapped, rather than quietly read through the operating system's page cache.
 */
public final class DirectIo {
    private static final String FLAG = "pagecache.io=direct";

    private DirectIo() {
    }

    /**
     * The alignment direct IO on {@code file} needs: its file store's block size. A file not created yet is on the store
     * of its folder (a swapper's {@code create} asks before it creates the file; the file's own store refused a missing
     * file as though its store had no block size).
     *
     * @throws IOException naming the file and the flag if the store does not say, or {@code filePageSize}
     *                     is not a multiple of it; a {@link NoSuchFileException} naming the folder of a file not created
     *                     yet whose folder does not exist
     */
    public static int alignment(Path file, int filePageSize) throws IOException {
        long blockSize;
        FileStore store;
        Path folder = file.toAbsolutePath().getParent();
        boolean exists = Files.exists(file);
        if (!exists && folder != null && !Files.exists(folder)) {
            // Asked of the folder's store, it read as direct IO's fault ("the block size of its file store is unknown")
            throw new NoSuchFileException(file.toString(), null, "cannot create it: its folder " + folder + " does not exist");
        }
        try {
            store = Files.getFileStore(exists || folder == null ? file : folder);
            blockSize = store.getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException("cannot map " + file + " with " + FLAG + ": the block size of its file store is unknown: " + e, e);
        }
        if (blockSize <= 0 || blockSize > (1 << 20) || Long.bitCount(blockSize) != 1) {
            throw new IOException("cannot map " + file + " with " + FLAG + ": its file store (" + store.type()
                + ") reports a block size of " + blockSize + ", not a power of two up to 1m");
        }
        if (filePageSize % blockSize != 0) {
            throw new IOException("cannot map " + file + " with " + FLAG + ": the file page size must be a multiple of"
                + " the block size of its file store (" + store.type() + ", " + blockSize + " bytes): filePageSize="
                + filePageSize);
        }
        return (int) blockSize;
    }

    /**
     * Opens channels with {@code O_DIRECT}, uninterruptible where the JDK allows it. A file system or
     * platform that refuses direct IO fails the open with an IOException naming the file and the flag.
     */
    public static FileChannelOpener opener() {
        return refusalsExplained((path, create) -> UninterruptibleFileChannels.open(path, create, ExtendedOpenOption.DIRECT));
    }

    /**
     * {@code directOpener}, whose refusals (an IOException, or UnsupportedOperationException where the
     * platform has no O_DIRECT) become an IOException naming the file, its file system and the flag. A file
     * that cannot be opened for reading and writing without O_DIRECT either (read-only, its permissions) fails
     * as it does with {@code pagecache.io=buffered}: that is no refusal of direct IO, and blaming it sent the
     * operator to the wrong flag.
     */
    public static FileChannelOpener refusalsExplained(FileChannelOpener directOpener) {
        return (path, create) -> {
            try {
                return directOpener.open(path, create);
            } catch (IOException | UnsupportedOperationException e) {
                IOException withoutDirect = plainOpenFailure(path, create);
                if (withoutDirect != null) {
                    withoutDirect.addSuppressed(e);
                    throw withoutDirect;
                }
                throw refused(path, e);
            }
        };
    }

    /** Why {@code path} cannot be opened for reading and writing without O_DIRECT, or null if it can. */
    private static IOException plainOpenFailure(Path path, boolean create) {
        try (FileChannel ignored = FileChannel.open(path, FileChannelOpener.readWrite(create))) {
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static IOException refused(Path path, Exception e) {
        {
            String store;
            try {
                store = Files.getFileStore(path).type();
            } catch (IOException | RuntimeException unknown) {
                store = "unknown";
            }
            return new IOException("cannot map " + path + " with " + FLAG + ": the file system (" + store
                + ") or platform refuses direct IO (O_DIRECT); use pagecache.io=buffered or another file system: " + e, e);
        }
    }

    /** The options of a read-write open, with {@code extra} after them. */
    static OpenOption[] withExtra(OpenOption[] base, OpenOption... extra) {
        OpenOption[] all = new OpenOption[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }
}
