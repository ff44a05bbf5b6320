package io.ratatosk.bench.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The folder a benchmark writes its files in (tens to hundreds of MiB in /tmp), deleted when the run ends and also when
 * the JVM is stopped (Ctrl-C, SIGTERM), which skips {@code finally} blocks. The shutdown hook runs while the run's
 * threads may still read and write through the page cache, so it only deletes: on Linux a deleted file stays readable
 * through the handles already open, and closing a cache from under its users could hang the JVM's exit. A folder, not
 * a file: a run that opens its file again after the hook deleted it (a file created with CREATE, say) would make it
 * anew, but not in a folder that is gone.
 *
 * <p>Also the folders a run made for its output ({@link #unlessWritten}): scratch until a file is written in them, so
 * that a run stopped or failed before its report leaves no empty folder behind, and never a file.
 */
public final class ScratchFiles implements AutoCloseable {
    /** Deletes of a folder whose files the run's threads are still creating, before giving up. */
    private static final int ATTEMPTS = 10;

    /** How the folder goes: all it holds, or only if it holds no file. */
    @FunctionalInterface
    private interface Delete {
        void run(Path folder) throws IOException;
    }

    private final Path folder;
    private final Delete delete;
    private final Thread hook;

    private ScratchFiles(Path folder, Delete delete) {
        this.folder = folder;
        this.delete = delete;
        this.hook = folder == null ? null : new Thread(this::deleteQuietly, "delete-scratch-files");
        if (hook != null) {
            try {
                Runtime.getRuntime().addShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already (stopped just as the folder was made): no hook of ours will run, and
                // the folder was left behind; it goes now, and the run ends here.
                deleteQuietly();
                throw e;
            }
        }
    }

    /** A new folder in {@code parent} (the temporary folder if null), named {@code prefix} and a number. */
    public static ScratchFiles create(Path parent, String prefix) throws IOException {
        return new ScratchFiles(parent == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(parent, prefix),
            ScratchFiles::delete);
    }

    /**
     * {@code folder} (with the folders in it) deleted at close or stop only if no file was written in it, and then only
     * its empty folders ({@link OutputFile#deleteIfNoFile}): another run given the same output folder may be writing
     * there. Nothing is deleted if {@code folder} is null (the run made none).
     */
    public static ScratchFiles unlessWritten(Path folder) {
        return new ScratchFiles(folder, OutputFile::deleteIfNoFile);
    }

    /** {@link #unlessWritten} for each folder the check of {@code outputs} makes ({@link OutputFile#foldersToMake}). */
    public static List<ScratchFiles> foldersMadeFor(Path... outputs) {
        List<ScratchFiles> made = new ArrayList<>();
        for (Path folder : OutputFile.foldersToMake(outputs)) {
            made.add(unlessWritten(folder));
        }
        return made;
    }

    public Path folder() {
        return folder;
    }

    /** Deletes the folder, then unregisters the hook: it is gone, and the hook must not outlive the run. */
    @Override
    public void close() throws IOException {
        if (hook == null) {
            return;
        }
        try {
            delete.run(folder);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs, or has run, anyway
            }
        }
    }

    private void deleteQuietly() {
        try {
            delete.run(folder);
        } catch (IOException e) {
            System.err.println("could not delete " + folder + ": " + e.getMessage());
        }
    }

    /** The folder and all it holds; again where a file appeared meanwhile. */
    private static void delete(Path folder) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                OutputFile.deleteTree(folder);
                return;
            } catch (NoSuchFileException e) {
                if (!Files.exists(folder)) {
                    return;
                }
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            } catch (DirectoryNotEmptyException | UncheckedIOException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
