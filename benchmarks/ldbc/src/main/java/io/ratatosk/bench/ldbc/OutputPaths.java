package io.ratatosk.bench.ldbc;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * ldbc's output paths (--out, --data-cache, --dump-results, --record-trace): tried before the data is prepared, and
 * their failures said with the option, the path and why, where an {@link IOException}'s message is often the bare path
 * ("bench ldbc: /proc/o5").
 */
final class OutputPaths {
    /** Writes a file. */
    @FunctionalInterface
    interface Write<T> {
        T run() throws IOException;
    }

    private OutputPaths() {
    }

    /**
     * Creates {@code file} and deletes it again if it is not there yet: only that finds a folder that refuses new files
     * although it looks writable ({@code /proc}, or any folder to root).
     *
     * @throws IllegalArgumentException naming the option, the file and why
     */
    static void tryCreate(String option, Path file) {
        if (file != null && !Files.exists(file)) {
            try {
                Files.delete(Files.createFile(file));
            } catch (IOException e) {
                throw new IllegalArgumentException(cannotWrite(option, file, e), e);
            }
        }
    }

    /**
     * Creates the folder {@code dir} and those above it that are missing.
     *
     * @return the top-most folder it created, null if {@code dir} was there
     * @throws IllegalArgumentException naming the option, the folder and why, if {@code dir} is a file or cannot be made
     */
    static Path createFolder(String option, Path dir) {
        refuseFile(option, dir);
        Path top = null;
        for (Path p = dir.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
            top = p;
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot create the folder " + dir + ": " + why(dir, e), e);
        }
        return top;
    }

    /** @throws IllegalArgumentException if {@code dir}, which should be a folder, is a file */
    static void refuseFile(String option, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + dir + " is a file; name a folder");
        }
    }

    /** Runs {@code write}, its failure said with the option, the file and why. */
    static <T> T write(String option, Path file, Write<T> write) throws IOException {
        try {
            return write.run();
        } catch (IOException e) {
            throw new IOException(cannotWrite(option, file, e), e);
        }
    }

    /** Deletes {@code dir} and the folders in it if none holds a file: a run that wrote nothing leaves no trace. */
    static void deleteIfNoFile(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> walk = Files.walk(dir)) {
            all = walk.sorted(Comparator.reverseOrder()).toList();
        }
        if (all.stream().allMatch(Files::isDirectory)) {
            for (Path p : all) {
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
    static String why(Path path, IOException e) {
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
        if (e instanceof FileAlreadyExistsException) {
            return failed + " is in the way";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return where + (f.getReason().equals("Not a directory") ? "a folder on its path is a file" : f.getReason());
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
