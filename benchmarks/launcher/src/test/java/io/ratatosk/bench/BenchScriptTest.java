package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "--help");
        pb.environment().put("JAVA_HOME", home.toString());
        ChildProcess.Result run = ChildProcess.run(pb);
        assertEquals(1, run.status(), run.output());
        assertEquals("bench: no java at " + home.resolve("bin").resolve("java") + " (JAVA_HOME=" + home
            + "): set JAVA_HOME to a JDK 17 or later, or unset it to use the java on the PATH\n", run.output());
    }

    /**
     * Two ./bench started together after a change each ran Maven in the same target folders, the one's build cutting
     * the other's jar. Here, in a copy of the script with a stand-in mvn that counts its builds and a stand-in java:
     * one build, and both runs go on with its jar.
     */
    @Test
    void twoRunsStartedTogetherBuildOnce(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo with spaces"));
        Files.copy(ROOT.resolve("bench"), root.resolve("bench"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.createDirectories(root.resolve("benchmarks/launcher/src/main"));
        Files.writeString(root.resolve("benchmarks/launcher/src/main/Source.java"), "");
        Path builds = dir.resolve("builds");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        executable(bin.resolve("mvn"), "#!/bin/sh\necho build >> '" + builds + "'\nsleep 2\n"
            + "mkdir -p benchmarks/launcher/target\n: > benchmarks/launcher/target/ratatosk-bench.jar\n");
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        executable(jdk.resolve("java"), "#!/bin/sh\n[ \"$1\" = -version ] && echo 'openjdk version \"17.0.1\"' >&2 && exit 0\n"
            + "echo ran\n");
        List<ChildProcess> runs = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("bench").toString(), "--help");
                pb.environment().put("JAVA_HOME", jdk.getParent().toString());
                pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
                runs.add(ChildProcess.start(pb));
            }
            for (ChildProcess run : runs) {
                assertEquals(0, run.awaitExit(ChildProcess.DEADLINE), run.output());
                assertTrue(run.output().endsWith("ran\n"), run.output());
            }
        } finally {
            runs.forEach(ChildProcess::close);
        }
        assertEquals(List.of("build"), Files.readAllLines(builds), "one build for the two runs");
    }

    /**
     * A Java older than 17 failed on the launcher's own options ("Unrecognized option: --enable-native-access=...",
     * "Could not create the Java Virtual Machine"), naming neither the version found nor the one needed. Here a
     * stand-in java of 11 and of 1.8 (Java 8's way of writing it), which would otherwise run: refused, saying which.
     */
    @Test
    void aJavaOlderThan17IsRefusedNamingItsVersion(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Files.copy(ROOT.resolve("bench"), root.resolve("bench"));
        Files.createDirectories(root.resolve("benchmarks/launcher/target"));
        Files.writeString(root.resolve("benchmarks/launcher/target/ratatosk-bench.jar"), ""); // built: no Maven
        for (String version : List.of("11.0.2", "1.8.0_292")) {
            Path jdk = Files.createDirectories(dir.resolve("jdk-" + version + "/bin"));
            executable(jdk.resolve("java"), "#!/bin/sh\n[ \"$1\" = -version ] && echo 'openjdk version \"" + version
                + "\" 2019-01-15' >&2 && exit 0\necho ran\n");
            ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("bench").toString(), "--help");
            pb.environment().put("JAVA_HOME", jdk.getParent().toString());
            ChildProcess.Result run = ChildProcess.run(pb);
            assertEquals(1, run.status(), run.output());
            assertEquals("bench: " + jdk.resolve("java") + " is Java " + version + "; ./bench needs a JDK 17 or later: set"
                + " JAVA_HOME to one\n", run.output());
        }
    }

    /**
     * A java that cannot start (JDK_JAVA_OPTIONS=-Xmx1q, a broken install) made ./bench exit 1 without a word: its
     * complaint went into the pipe that reads the version. Here a stand-in java that fails as the JVM does.
     */
    @Test
    void aJavaThatCannotStartIsSaidWithItsOwnWords(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Files.copy(ROOT.resolve("bench"), root.resolve("bench"));
        Files.createDirectories(root.resolve("benchmarks/launcher/target"));
        Files.writeString(root.resolve("benchmarks/launcher/target/ratatosk-bench.jar"), ""); // built: no Maven
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        executable(jdk.resolve("java"), "#!/bin/sh\necho 'Invalid maximum heap size: -Xmx1q' >&2\n"
            + "echo 'Error: Could not create the Java Virtual Machine.' >&2\nexit 1\n");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("bench").toString(), "--help");
        pb.environment().put("JAVA_HOME", jdk.getParent().toString());
        ChildProcess.Result run = ChildProcess.run(pb);
        assertEquals(1, run.status(), run.output());
        assertEquals("Invalid maximum heap size: -Xmx1q\nError: Could not create the Java Virtual Machine.\nbench: "
            + jdk.resolve("java") + " -version failed (above): ./bench needs a JDK 17 or later that starts\n", run.output());
    }

    private static void executable(Path file, String text) throws java.io.IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
