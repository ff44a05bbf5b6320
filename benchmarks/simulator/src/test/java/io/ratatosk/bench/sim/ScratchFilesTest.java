package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchFilesTest {
    @TempDir
    Path dir;

    @Test
    void closeDeletesTheFolderAndAllItHolds() throws IOException {
        Path folder;
        try (ScratchFiles scratch = ScratchFiles.create(dir, "run")) {
            folder = scratch.folder();
            Files.writeString(Files.createDirectories(folder.resolve("a")).resolve("b"), "x");
        }
        assertFalse(Files.exists(folder));
    }

    /**
     * A run stopped (SIGTERM) just as its folder was made, before its shutdown hook was registered: the registration
     * failed, no hook ran, and the empty folder was left behind (seen once in CI under load, in
     * StoppedRunsLeaveNoScratchFilesTest). Made certain here by making the folder from inside a shutdown hook.
     */
    @Test
    void aFolderMadeWhileTheJvmShutsDownIsDeletedAtOnce() throws Exception {
        String said = ChildProcess.run(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), MakesScratchWhileShuttingDown.class.getName(), dir.toString())).output();
        assertTrue(said.contains("refused: Shutdown in progress"), said);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), said);
        }
    }

    /** Makes a scratch folder in {@code args[0]} from a shutdown hook, where no further hook may be registered. */
    public static final class MakesScratchWhileShuttingDown {
        public static void main(String[] args) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    ScratchFiles.create(Path.of(args[0]), "stopped");
                    System.out.println("made");
                } catch (IllegalStateException e) {
                    System.out.println("refused: " + e.getMessage());
                } catch (IOException e) {
                    System.out.println("failed: " + e);
                }
            }));
        }
    }
}
