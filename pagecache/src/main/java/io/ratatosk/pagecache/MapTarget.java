package io.ratatosk.pagecache;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Set;

/**
 * The file a {@link PageCache#map} names: its real path, resolved once, and whether it can be mapped at
 * all. Only a regular file that holds data is: a directory, named pipe (whose open or read waits for a
 * writer, for ever), device or socket is refused, and so is a file of a kernel's pseudo file system such as
 * {@code /proc} or {@code /sys}, whose fsync fails (so no close could ever succeed) or whose writes
 * change the running system.
 *
 * <p>With {@code create}, a missing file is created first; if the map then fails, the file it created is
 * deleted again ({@link #abandon}), so a refused map leaves nothing behind.
 */
final class MapTarget implements AutoCloseable {
    /**
     * Linux file systems whose regular files are views of the kernel, not stored bytes: proc's fsync fails
     * with EINVAL, sysfs, configfs and the like take a write as a command, hugetlbfs and mqueue refuse
     * writes. A page cache over any of them could never flush or close its file.
     */
    private static final Set<String> PSEUDO_FILE_SYSTEMS = Set.of("proc", "sysfs", "debugfs", "tracefs", "securityfs",
        "configfs", "cgroup", "cgroup2", "pstore", "bpf", "efivarfs", "fusectl", "binfmt_misc", "selinuxfs", "mqueue",
        "hugetlbfs");

    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;

    /** The links followed to the file a dangling link names; past as many, Linux itself gives up (ELOOP). */
    private static final int MAX_LINKS = 40;

    private final Path real;
    /** The file this map created, or null if it existed. */
    private final Path created;
    /**
     * {@link #created}, held open until the map is done with it: its inode cannot go to another file meanwhile, so a
     * file at its path with its file key is the one created (ext4 gives a freed inode to the next new file at once).
     */
    private final FileChannel createdHeld;
    /** The file key of {@link #created} just after it was created; null where the file system has none. */
    private final Object createdKey;

    /** Run by {@link #abandon} once it has looked at the file it created: a test's seam to act in between. */
    static volatile Runnable lookedAtCreatedFile = () -> { };

    private MapTarget(Path real, Created created, Object createdKey) {
        this.real = real;
        this.created = created == null ? null : created.path;
        this.createdHeld = created == null ? null : created.held;
        this.createdKey = createdKey;
    }

    /** A file this map created, and the channel that holds it open. */
    private record Created(Path path, FileChannel held) {
    }

    /**
     * The file at {@code path}, created first if {@code create} and it does not exist (through a dangling link, its
     * target, as mapping the target's own path would).
     *
     * @throws IOException if it is missing and not to be created, or cannot be mapped ({@link #realPath})
     */
    static MapTarget resolve(Path path, boolean create) throws IOException {
        Created created = create ? createIfMissing(path.toAbsolutePath()) : null;
        Object createdKey = null;
        try {
            if (created != null) {
                createdKey = Files.readAttributes(created.path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .fileKey();
            }
            return new MapTarget(realPath(path), created, createdKey);
        } catch (Throwable t) {
            try (MapTarget failed = new MapTarget(null, created, createdKey)) {
                failed.abandon(t);
            }
            throw t;
        }
    }

    /** The file's real path. */
    Path real() {
        return real;
    }

    /**
     * The map failed with {@code failure}: deletes the file if this map created it and it is still the empty file it
     * created (not one written, or put in its place, since), unless another cache of the JVM has it mapped: that cache
     * found it there after this map created it, and its pages would go to a file no path reaches. The file is claimed
     * ({@link JvmFileClaims}) before it is looked at and until it is deleted: claimed only after the look, another cache
     * could map it, write it and close it in between, and the delete took its pages with it. What gets in the way is
     * suppressed in {@code failure}.
     */
    void abandon(Throwable failure) {
        if (created == null) {
            return;
        }
        try {
            JvmFileClaims.Claim claim;
            try {
                claim = JvmFileClaims.claim(createdKey != null ? createdKey : created.toRealPath(), created);
            } catch (IllegalStateException mappedElsewhere) {
                return; // that cache's file now
            }
            try {
                BasicFileAttributes now = Files.readAttributes(created, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
                lookedAtCreatedFile.run();
                if (now.isRegularFile() && now.size() == 0 && Objects.equals(now.fileKey(), createdKey)) {
                    Files.delete(created);
                }
            } finally {
                claim.release();
            }
        } catch (NoSuchFileException gone) {
            // deleted already: nothing left behind
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** The map is done with the file (mapped, or abandoned): lets go of the file it created. */
    @Override
    public void close() {
        if (createdHeld != null) {
            try {
                createdHeld.close();
            } catch (IOException ignored) {
                // a channel that wrote nothing has nothing to lose at its close
            }
        }
    }

    /**
     * Creates the file {@code absolute} names if there is none: the file itself, or the target of a dangling link.
     * Returns the path it created, held open, or null if a file was there (or appeared meanwhile: CREATE_NEW never takes
     * over, nor truncates, a file another process created). No IO call is made on the channel: those fail on an
     * interrupted thread, its open and close do not.
     */
    private static Created createIfMissing(Path absolute) throws IOException {
        Path file = absolute;
        for (int links = 0; links <= MAX_LINKS; links++) {
            try {
                return new Created(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
            } catch (FileAlreadyExistsException e) {
                if (!Files.isSymbolicLink(file) || Files.exists(file)) {
                    return null;
                }
                file = file.resolveSibling(Files.readSymbolicLink(file)); // dangling: create what it points to
            } catch (NoSuchFileException e) {
                // The JDK's message is the bare path, which reads as though the file were missing, as it may be
                NoSuchFileException missingFolder = new NoSuchFileException(file.toString(), null, "cannot create it: its"
                    + " folder " + file.getParent() + " does not exist");
                missingFolder.initCause(e);
                throw missingFolder;
            }
        }
        return null; // a loop of links: toRealPath refuses it
    }

    /** The real path of the file at {@code path}, which must exist; refuses what cannot be mapped, saying what it is. */
    private static Path realPath(Path path) throws IOException {
        Path absolute = path.toAbsolutePath();
        Path real;
        try {
            real = absolute.toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(absolute.toString(), null,
                "not mapped: the file does not exist and create=false");
        }
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException("cannot map " + path + ": " + real + " is " + kind(real, attributes)
                + ", not a regular file");
        }
        String fileSystem = fileSystemType(real);
        if (fileSystem != null && PSEUDO_FILE_SYSTEMS.contains(fileSystem)) {
            throw new IOException("cannot map " + path + ": " + real + " is a file of the " + fileSystem + " pseudo file"
                + " system, a view of the kernel rather than stored data (it cannot be forced to storage, and a write to it"
                + " is no write of data); map a file on a disk or tmpfs");
        }
        return real;
    }

    /**
     * {@code denied} with a reason: the JDK's own (EACCES) carries the bare path as its whole message, which says which
     * file but not what went wrong with it.
     */
    static AccessDeniedException saysWhy(AccessDeniedException denied) {
        if (denied.getReason() != null) {
            return denied;
        }
        AccessDeniedException explained = new AccessDeniedException(denied.getFile(), denied.getOtherFile(), "cannot map"
            + " it: permission denied (the page cache opens a file for reading and writing, and creates a missing one in"
            + " its folder)");
        explained.initCause(denied);
        return explained;
    }

    /** What a file that is no regular file is, in words. */
    private static String kind(Path real, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        try {
            switch ((Integer) Files.getAttribute(real, "unix:mode") & S_IFMT) {
                case S_IFIFO:
                    return "a named pipe (FIFO)";
                case S_IFCHR:
                    return "a character device";
                case S_IFBLK:
                    return "a block device";
                case S_IFSOCK:
                    return "a socket";
                default:
                    break;
            }
        } catch (IOException | RuntimeException noUnixView) {
            // not a Unix file system view: the basic attributes say enough
        }
        return "a named pipe, device or socket";
    }

    /** The type of the file system {@code real} is on, or null where the platform cannot say. */
    private static String fileSystemType(Path real) {
        try {
            return Files.getFileStore(real).type();
        } catch (IOException | RuntimeException unknown) {
            return null; // a mount table the JDK cannot read must not stop a map that would work
        }
    }
}
