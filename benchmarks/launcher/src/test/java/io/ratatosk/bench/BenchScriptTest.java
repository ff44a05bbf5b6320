package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./bench} shell wrapper itself, run as a user runs it. */
class BenchScriptTest {
    /** The repository root: this module is benchmarks/launcher. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();

    /**
     * JAVA_HOME naming no JDK made ./bench exit 127 without a word (the "java: command not found" went into the pipe
     * that reads the version), or, with a stale jar, print Maven's complaint about JAVA_HOME as a build failure.
     */
    @Test
    void aJavaHomeWithoutJavaIsNamed(@TempDir Path dir) throws Exception {
        Path script = ROOT.resolve("bench");
        assertTrue(Files.isRegularFile(script), script + " is the launcher");
        Path home = dir.resolve("no jdk here");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "--help").redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", home.toString());
        Process run = pb.start();
        run.getOutputStream().close();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(1, run.exitValue(), output);
        assertEquals("bench: no java at " + home.resolve("bin").resolve("java") + " (JAVA_HOME=" + home
            + "): set JAVA_HOME to a JDK 17 or later, or unset it to use the java on the PATH\n", output);
    }
}
