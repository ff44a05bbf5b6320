package io.ratatosk.bench.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The check a command makes of a file it will write only at the end of a long run (a report, a chart, a recorded
 * trace), before that run starts: so that a typo in a path costs a usage error, not the run. And the words for a
 * write that fails all the same (a full disk): the option, the file and why, where an {@link IOException}'s message
 * is often the bare path.
 */
public final class OutputFile {
    private OutputFile() {
    }

    /** Writes a file; see {@link #write}. */
    @FunctionalInterface
    public interface Write {
        void run() throws IOException;
    }

    /** Writes the file it is given; see {@link #replace}. */
    @FunctionalInterface
    public interface WriteTo {
        void run(Path file) throws IOException;
    }

    /** Opens or writes a file and returns what it made (a writer kept open, the charts written); see {@link #open}. */
    @FunctionalInterface
    public interface Open<T> {
        T run() throws IOException;
    }

    /**
     * Refuses {@code file} if it is a folder, if its folder cannot be created, or if either cannot be written; creates
     * the missing folders. A file not there yet is created and deleted again: only that finds a folder that refuses
     * new files although it looks writable ({@code /proc}, or any folder to root). Nothing if {@code file} is null
     * (the option was not given).
     *
     * @param option the option that named the file, for the message
     * @throws IllegalArgumentException naming the option, the path and what is wrong
     */
    public static void check(String option, Path file) {
        if (file == null) {
            return;
        }
        refuseEmpty(option, file, "file");
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a folder; name a file");
        }
        Path folder = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(folder);
        } catch (IOException e) { // in words, as createFolder says it: the exception's class and bare path said little
            throw new IllegalArgumentException(option + ": cannot create the folder " + folder + ": " + why(folder, e), e);
        } catch (SecurityException e) {
            throw new IllegalArgumentException(option + ": cannot create the folder " + folder + " (" + e + ")", e);
        }
        if (!Files.isWritable(folder) || (Files.exists(file) && !Files.isWritable(file))) {
            throw new IllegalArgumentException(option + " " + file + " is not writable");
        }
        if (!Files.exists(file)) {
            try {
                Files.delete(Files.createFile(file));
            } catch (IOException e) {
                throw new IllegalArgumentException(cannotWrite(option, file, e), e);
            }
        }
    }

    /**
     * As {@link #check(String, Path)}, and refuses {@code file} if it is one of {@code inputs} by any path: the run
     * would read the input and then overwrite it with its report ({@code sim --json a.trace.gz b.trace.gz}).
     */
    public static void check(String option, Path file, Collection<Path> inputs) {
        if (file != null && Files.exists(file)) {
            for (Path input : inputs) {
                if (sameFile(file, input)) {
                    throw new IllegalArgumentException(option + " " + file + " is an input of this run" + (file.equals(input)
                        ? "" : " (" + input + ")") + "; writing it would destroy it: name another file");
                }
            }
        }
        check(option, file);
    }

    /**
     * Whether {@code a} and {@code b} name one file: the same path once made absolute and normalized (whether or not the
     * file is there yet), or, both being there, one file by any path (links, hard links).
     */
    public static boolean sameFile(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false; // one of them is gone or unreadable: the read or the write will say so
        }
    }

    /**
     * Runs {@code write}, which writes {@code file} (or files named after it), its failure said with the option, the
     * file and why: "cannot write --chart /proc/x.svg: the folder /proc takes no new files", not "/proc/x.svg".
     */
    public static void write(String option, Path file, Write write) throws IOException {
        open(option, file, () -> {
            write.run();
            return null;
        });
    }

    /**
     * As {@link #write}, whole or not at all: {@code writeTo} writes a file of its own beside {@code file}, which then
     * takes {@code file}'s place in one rename. A run stopped while it writes a report, or another run writing the
     * same report at the same time, leaves the old file or a whole new one, never a cut or mixed one. The file of its
     * own is named as {@code file} is at the end (a chart's format is read from the name) and is gone if the write
     * fails. Anything there but a plain file (a link, {@code /dev/stdout}, a named pipe) is written through, as
     * {@link #write} does: a rename would put a file in its place. A folder {@link #check} made, gone meanwhile, is made
     * again.
     */
    public static void replace(String option, Path file, WriteTo writeTo) throws IOException {
        write(option, file, () -> replace(file, writeTo));
    }

    /** {@link #replace(String, Path, WriteTo)} for a caller that says itself which option failed. */
    public static void replace(Path file, WriteTo writeTo) throws IOException {
        // Made again where it is gone: another run given the same folder, whose check made it, deleted it as empty when
        // it failed or was stopped, and this run's report was lost at its end ("no such folder")
        Path folder = file.toAbsolutePath().getParent();
        if (!Files.exists(folder)) { // a file there is said as before: "a folder on its path is a file"
            Files.createDirectories(folder);
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            writeTo.run(file);
            return;
        }
        removeLeftovers(file);
        Path own = file.resolveSibling("." + ProcessHandle.current().pid() + "-" + Thread.currentThread().getId()
            + ownSuffix(file));
        // A file of its own that will not go is said after why the write failed, not instead of it
        try (CleanUp deleteOwn = CleanUp.of(() -> Files.deleteIfExists(own))) {
            writeTo.run(own);
            try {
                Files.move(own, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(own, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Deletes the files of their own that runs killed while they wrote {@code file} left beside it (a killed JVM runs
     * no finally block): {@code .PID-THREAD-name}, of processes no longer alive. A live process's, this one's too, is
     * left alone; so is anything not named so, and a folder. Failing to delete one is no reason to fail the report.
     */
    private static void removeLeftovers(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        String suffix = ownSuffix(file);
        try (Stream<Path> siblings = Files.list(dir)) {
            siblings.filter(p -> leftoverPid(p.getFileName().toString(), suffix) > 0)
                .filter(p -> ProcessHandle.of(leftoverPid(p.getFileName().toString(), suffix)).isEmpty())
                .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                .forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        // left for the next run; the report does not depend on it
                    }
                });
        } catch (IOException | UncheckedIOException e) {
            // as above
        }
    }

    /** The longest file name most file systems take, in bytes of UTF-8. */
    public static final int MOST_NAME_BYTES = 255;
    /** What {@code .PID-THREAD} and the dash after it take at most (the digits {@link #leftoverPid} accepts). */
    private static final int OWN_PREFIX_BYTES = 1 + 18 + 1 + 19 + 1;

    /**
     * {@code -NAME} for the file of its own beside {@code file}: its whole name, or as much of its end as keeps the own
     * file's name within {@value #MOST_NAME_BYTES} bytes. A name near that limit passed {@link #check} (which creates
     * the file itself) and failed here, "File name too long", after the run whose report it was.
     */
    static String ownSuffix(Path file) {
        String name = file.getFileName().toString();
        int from = 0;
        while (name.substring(from).getBytes(StandardCharsets.UTF_8).length > MOST_NAME_BYTES - OWN_PREFIX_BYTES) {
            from = name.offsetByCodePoints(from, 1);
        }
        return "-" + name.substring(from);
    }

    /** The process id in a name {@code .PID-THREAD<suffix>}, or -1 if the name is not one. */
    static long leftoverPid(String name, String suffix) {
        if (!name.startsWith(".") || !name.endsWith(suffix)) {
            return -1;
        }
        String ids = name.substring(1, name.length() - suffix.length());
        int dash = ids.indexOf('-');
        if (dash <= 0 || dash == ids.length() - 1 || !ids.substring(0, dash).matches("[0-9]{1,18}")
            || !ids.substring(dash + 1).matches("[0-9]{1,19}")) {
            return -1;
        }
        return Long.parseLong(ids.substring(0, dash));
    }

    /** As {@link #write}, for a write that returns what it made: a writer kept open for the run, the files written. */
    public static <T> T open(String option, Path file, Open<T> open) throws IOException {
        try {
            return open.run();
        } catch (IOException e) {
            throw new IOException(cannotWrite(option, file, e), e);
        }
    }

    /**
     * Creates the folder {@code dir} and those above it that are missing.
     *
     * @return the top-most folder it created, null if {@code dir} was there
     * @throws IllegalArgumentException naming the option, the folder and why, if {@code dir} is a file or cannot be made
     */
    public static Path createFolder(String option, Path dir) {
        refuseFile(option, dir);
        Path top = topMissingFolder(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot create the folder " + dir + ": " + why(dir, e), e);
        }
        return top;
    }

    /**
     * {@code path} as a shell word, for a command line the user copies: as it is when it has nothing a shell would
     * split or expand, else in single quotes (a quote inside written {@code '\''}).
     */
    public static String shellQuoted(String path) {
        if (!path.isEmpty() && path.matches("[A-Za-z0-9_./:@%+=,-]+")) {
            return path;
        }
        return "'" + path.replace("'", "'\\''") + "'";
    }

    /**
     * The folders {@link #check} makes for {@code files} (null ones are none): the {@link #topMissingFolder} of each one's
     * folder where it is missing, for a run to delete again ({@link #deleteIfNoFile}) if it writes nothing there.
     */
    public static List<Path> foldersToMake(Path... files) {
        List<Path> folders = new ArrayList<>();
        for (Path file : files) {
            Path top = file == null ? null : topMissingFolder(file.toAbsolutePath().getParent());
            if (top != null) {
                folders.add(top);
            }
        }
        return folders;
    }

    /**
     * The top-most of {@code dir} and the folders above it that are not there, null if {@code dir} is, or is null (the
     * folder of {@code /}: its callers' --json / failed here with a NullPointerException, before the check that names it).
     */
    public static Path topMissingFolder(Path dir) {
        if (dir == null) {
            return null;
        }
        Path top = null;
        for (Path p = dir.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
            top = p;
        }
        return top;
    }

    /**
     * @throws IllegalArgumentException if {@code path} is empty ({@code --out ""}, a script's unset variable): Java reads
     *     it as the current folder, so an --out or --data-cache of "" wrote its files there without a word
     */
    private static void refuseEmpty(String option, Path path, String what) {
        if (path.toString().isEmpty()) {
            // '.' is the way to the current folder, not to a file: a --json given it is refused as a folder
            throw new IllegalArgumentException(option + " '' names no " + what + (what.equals("folder")
                ? " ('.' for the current folder)" : "; name the file to write"));
        }
    }

    /**
     * Refuses a name ending in a compression ({@code .gz}, {@code .zst}, {@code .xz}, {@code .bz2}) for a file written
     * plain: it held plain text under a compressed name, without a word, and the tool its name calls for refused it.
     *
     * @param writtenAs what is written, for the message ("the dump is written as plain JSON lines")
     * @throws IllegalArgumentException naming the option, the file and the ending
     */
    public static void refuseCompressedName(String option, Path file, String writtenAs) {
        String compressed = compressionEnding(file);
        if (compressed != null) {
            throw new IllegalArgumentException(option + " " + file + ": " + writtenAs + ", not " + compressed
                + "; name it without " + compressed + " and compress it afterwards");
        }
    }

    /** The compression its name ends in ({@code .gz}, {@code .zst}, {@code .xz}, {@code .bz2}), or null. */
    public static String compressionEnding(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        for (String compressed : new String[] {".gz", ".zst", ".xz", ".bz2"}) {
            if (name.endsWith(compressed)) {
                return compressed;
            }
        }
        return null;
    }

    /** @throws IllegalArgumentException if {@code dir}, which should be a folder, is empty or a file */
    public static void refuseFile(String option, Path dir) {
        refuseEmpty(option, dir, "folder");
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + dir + " is a file; name a folder");
        }
    }

    /**
     * Deletes {@code dir} and the folders in it if none holds a file: a run that wrote nothing leaves no trace. Only
     * folders are deleted, each only while empty: another run writing into the same folder (two runs given one --out)
     * may put a file there between the look and the delete, and that file stays, with the folders above it.
     */
    public static void deleteIfNoFile(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        List<Path> folders;
        try (Stream<Path> walk = Files.walk(dir)) {
            folders = walk.toList();
        } catch (UncheckedIOException e) {
            return; // changed while walked: another run is at work there, so the folder is not ours to delete
        }
        if (folders.stream().anyMatch(p -> !Files.isDirectory(p))) {
            return;
        }
        for (int i = folders.size() - 1; i >= 0; i--) { // the deepest first
            try {
                Files.deleteIfExists(folders.get(i));
            } catch (DirectoryNotEmptyException e) {
                return; // a file came in meanwhile: it and the folders above it stay
            }
        }
    }

    /** Deletes {@code dir} and everything in it; nothing if it is not there. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String cannotWrite(String option, Path file, IOException e) {
        return "cannot write " + option + " " + file + ": " + why(file, e);
    }

    /**
     * What went wrong with {@code path}, in words: the exception's class says it, its message is often only the path.
     * The path that failed is named where it is another (a folder above).
     */
    public static String why(Path path, IOException e) {
        String failed = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : path.toString();
        String where = failed.equals(path.toString()) ? "" : failed + ": ";
        if (e instanceof NoSuchFileException) {
            Path folder = Path.of(failed).toAbsolutePath().getParent();
            return folder != null && Files.isDirectory(folder) ? "the folder " + folder + " takes no new files"
                : "no such folder " + folder;
        }
        if (e instanceof AccessDeniedException) {
            return where + "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return where + "a folder on its path is a file";
        }
        if (e instanceof FileAlreadyExistsException) {
            return failed + (Files.isRegularFile(Path.of(failed)) ? " is a file, in the way" : " is in the way");
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return where + (f.getReason().equals("Not a directory") ? "a folder on its path is a file" : f.getReason());
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
