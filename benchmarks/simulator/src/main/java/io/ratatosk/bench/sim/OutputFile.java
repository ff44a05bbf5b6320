package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Collection;

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
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a folder; name a file");
        }
        Path folder = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(folder);
        } catch (IOException | SecurityException e) {
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

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false; // one of them is gone or unreadable: the read or the write will say so
        }
    }

    /**
     * Runs {@code write}, which writes {@code file} (or files named after it), its failure said with the option, the
     * file and why: "cannot write --chart /proc/x.svg: the folder /proc takes no new files", not "/proc/x.svg".
     */
    public static void write(String option, Path file, Write write) throws IOException {
        try {
            write.run();
        } catch (IOException e) {
            throw new IOException(cannotWrite(option, file, e), e);
        }
    }

    private static String cannotWrite(String option, Path file, IOException e) {
        Path failed = e instanceof FileSystemException f && f.getFile() != null ? Path.of(f.getFile()) : file;
        return "cannot write " + option + " " + failed + ": " + why(failed, e);
    }

    /** What went wrong with {@code file}, in words: the exception's class says it, its message is often only the path. */
    static String why(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            Path folder = file.toAbsolutePath().getParent();
            return folder != null && Files.isDirectory(folder) ? "the folder " + folder + " takes no new files"
                : "no such folder";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "a folder on its path is a file";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "it exists and cannot be replaced";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
