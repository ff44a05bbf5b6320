package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The check a command makes of a file it will write only at the end of a long run (a report, a chart, a recorded
 * trace), before that run starts: so that a typo in a path costs a usage error, not the run.
 */
public final class OutputFile {
    private OutputFile() {
    }

    /**
     * Refuses {@code file} if it is a folder, if its folder cannot be created, or if either cannot be written; creates
     * the missing folders. Nothing if {@code file} is null (the option was not given).
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
    }
}
