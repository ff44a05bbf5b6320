package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.ChildProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** JMH's log (-o) is text of ours to write: in UTF-8, whatever the locale's charset. */
class JmhLogCharsetTest {
    /**
     * The log was written in the platform's charset: under an ASCII locale (LANG=C, Java 17's default charset) JMH's
     * "±" before each error and its "≈ 0" became "?". Here a JVM whose default charset is ASCII writes it.
     */
    @Test
    void theLogIsUtf8UnderAnAsciiLocale(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("jmh.log");
        ChildProcess.Result run = ChildProcess.run(new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dfile.encoding=US-ASCII",
            "-Djmh.ignoreLock=true", "-cp", System.getProperty("java.class.path"), RunJmh.class.getName(),
            "\\.RawMemoryBenchmark\\.read$", "-p", "pages=256", "-f", "0", "-wi", "0", "-i", "3", "-r", "10ms",
            "--threads", "1", "--rounds", "1", "-o", log.toString(), "--out", dir.resolve("r.json").toString()));
        assertEquals(0, run.status(), run.output());
        String written = Files.readString(log, StandardCharsets.UTF_8); // refuses bytes that are no UTF-8
        assertTrue(written.contains("\u00b1"), written); // the table's Score ± Error, of 3 iterations
    }

    /** {@code ./bench jmh} with the given arguments, exiting with its status. */
    public static final class RunJmh {
        public static void main(String[] args) {
            System.exit(new CommandLine(new JmhCommand()).execute(args));
        }
    }
}
