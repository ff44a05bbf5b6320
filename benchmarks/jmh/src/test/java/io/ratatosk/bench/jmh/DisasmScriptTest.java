package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.bench.sim.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** benchmarks/jmh/scripts/disasm.py given what it cannot read: one line naming what is wrong, not a traceback. */
class DisasmScriptTest {
    private static final Path SCRIPT = Path.of("scripts", "disasm.py").toAbsolutePath();

    @TempDir
    Path dir;

    /** Each of these printed a Python traceback (FileNotFoundError, IndexError, ValueError, TypeError). */
    @Test
    void badInputIsOneLineNamingIt() throws Exception {
        assumeTrue(python(), "python3 is not installed");
        Path log = Files.writeString(dir.resolve("asm log.txt"), "Compiled method (c2) 1234 Foo::bar\n"
            + "[Verified Entry Point]\n  0x00007f00: 4889 | 0c24\n[/MachCode]\n");
        Path cut = Files.writeString(dir.resolve("cut.txt"), "Compiled method (c2) 1234 Foo::bar\n");
        Path midWord = Files.writeString(dir.resolve("mid word.txt"), "Compiled method (c2) 1234 Foo::bar\n"
            + "[Verified Entry Point]\n  0x00007f00: 4889 | 0c24\n  0x00007f04: 48 | 8b4\n");
        String[][] cases = {
            {dir.resolve("missing.txt").toString(), null, "disasm.py: cannot read " + dir.resolve("missing.txt")},
            {dir.toString(), null, "disasm.py: cannot read " + dir},
            {log.toString(), "5", "disasm.py: " + log + " has 1 C2 compile(s): the index must be from -1 to 0, not 5"},
            {log.toString(), "abc", "disasm.py: the index must be a whole number (0 the first compile, -1 the last), not abc"},
            {cut.toString(), null, "disasm.py: " + cut + ": compile -1 has no code (was the log cut short?)"},
            // a log cut in the middle of a word: bytes.fromhex's ValueError, as a traceback
            {midWord.toString(), null, "disasm.py: " + midWord + ":4: 8b4 is not whole bytes (was the log cut short?)"}};
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("python3", SCRIPT.toString(), c[0]));
            if (c[1] != null) {
                args.add(c[1]);
            }
            ChildProcess.Result run = ChildProcess.run(new ProcessBuilder(args));
            assertEquals(1, run.status(), run.output());
            assertFalse(run.output().contains("Traceback"), run.output());
            assertTrue(run.output().contains(c[2]), run.output());
        }
    }

    private static boolean python() throws InterruptedException {
        try {
            return ChildProcess.run(new ProcessBuilder("python3", "--version")).status() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
