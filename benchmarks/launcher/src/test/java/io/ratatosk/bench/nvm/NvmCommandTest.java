package io.ratatosk.bench.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.Bench;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench nvm} end to end, on a file small enough to run in a second. */
class NvmCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int bench(String... args) {
        CommandLine cl = Bench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void bothExperimentsPrintTheirTablesAndLeaveNoFileBehind() throws Exception {
        int exit = bench("nvm", "--pages", "400", "--page-size", "4096", "--profile", "nvme-fast", "--file-latency-us", "20",
            "--warmup", "300", "--ops", "600", "--mix-ops", "3000", "--dir", dir.toString());
        assertEquals(0, exit, err.toString());
        String text = out.toString();
        assertTrue(text.contains("frames 40 (10%), NVM 160 slots (40%)"), text);
        assertTrue(text.contains("file only") && text.contains("nvm nvme-fast") && text.contains("nvm vs file only:"), text);
        assertTrue(text.contains("modeled time of the reads a fault waits for"), text);
        assertTrue(text.contains("writes-on-a-hot-tenth") && text.contains("uniform-writes"), text);
        assertTrue(text.contains("write-aware vs plain: NVM writes"), text);
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the benchmark file is deleted");
        }
    }

    @Test
    void anUnknownExperimentIsAUsageError() {
        assertEquals(2, bench("nvm", "--experiment", "latency"));
        assertTrue(err.toString().contains("--experiment must be reads, write-aware or all"), err.toString());
    }
}
