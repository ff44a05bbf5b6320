package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * benchmarks/jmh/scripts/device-bundle.sh given arguments it cannot use: refused before it builds anything. A stand-in
 * {@code mvn} first on the PATH says whether the build started.
 */
class DeviceBundleScriptTest {
    private static final Path SCRIPT = Path.of("scripts", "device-bundle.sh").toAbsolutePath();

    @TempDir
    Path dir;

    /**
     * An unknown option was taken for BEFORE_REV, and a revision that does not exist was found only after the build of
     * the launcher (minutes) and the jlink runtime; --no-peer after the revision was ignored without a word.
     */
    @Test
    void badArgumentsAreRefusedBeforeTheBuild() throws Exception {
        String[][] cases = {
            {"--bogus", "device-bundle.sh: unknown option --bogus"},
            {"no-such-revision-xyz", "device-bundle.sh: no such revision: no-such-revision-xyz"},
            {"HEAD", "HEAD", "device-bundle.sh: one BEFORE_REV at most: HEAD HEAD"}};
        for (String[] c : cases) {
            ChildProcess.Result r = run(List.of(c).subList(0, c.length - 1));
            assertEquals(2, r.status(), r.output());
            assertTrue(r.output().contains(c[c.length - 1]), r.output());
            assertTrue(r.output().contains("Usage: benchmarks/jmh/scripts/device-bundle.sh [--no-peer] [BEFORE_REV]"), r.output());
            assertFalse(r.output().contains("stand-in mvn ran"), "refused before the build: " + r.output());
        }
        ChildProcess.Result help = run(List.of("--help"));
        assertEquals(0, help.status(), help.output());
        assertTrue(help.output().contains("Usage: benchmarks/jmh/scripts/device-bundle.sh"), help.output());
        assertFalse(help.output().contains("stand-in mvn ran"), help.output());
        ChildProcess.Result late = run(List.of("HEAD", "--no-peer")); // --no-peer after the revision counts: the build starts
        assertTrue(late.output().contains("stand-in mvn ran"), late.output());
    }

    private ChildProcess.Result run(List<String> args) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho 'stand-in mvn ran'\nexit 97\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        return ChildProcess.run(pb);
    }
}
