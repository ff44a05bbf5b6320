package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A benchmark stopped with SIGTERM (as by Ctrl-C) deletes the files it made: {@code finally} blocks do not run on a JVM
 * shutdown, and each stop left 4 to 160 MiB in /tmp. Each case runs {@code ./bench} in a JVM of its own, with its
 * temporary folder here, stops it once its file exists, and looks at what is left.
 */
class StoppedRunsLeaveNoScratchFilesTest {
    @TempDir
    Path tmp;

    @Test
    void throughputDeletesItsFile() throws Exception {
        stopOnceWritten("throughput.db", 1000, "throughput", "--policies", "muninn", "--threads", "1", "--frames", "64",
            "--seconds", "60", "--warmup", "0");
        assertEquals(List.of(), left(tmp));
    }

    @Test
    void demoDeletesItsFolder() throws Exception {
        stopOnceWritten("demo.db", 1000, "demo", "--policies", "muninn", "--cache", "256k", "--file-factor", "2", "--threads", "1",
            "--seconds", "60");
        assertEquals(List.of(), left(tmp));
    }

    @Test
    void nvmDeletesItsFileAndKeepsTheOthersInDir() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        Path kept = Files.writeString(dir.resolve("keep.txt"), "mine");
        stopOnceWritten("ratatosk-nvm", 0, "nvm", "--experiment", "reads", "--pages", "200", "--ops", "100000000", "--warmup", "0",
            "--file-latency-us", "100", "--dir", dir.toString());
        assertEquals(List.of(dir, kept), left(tmp));
    }

    /** ldbc makes --out before it prepares the data: stopped before the summary is written, it leaves no empty folder. */
    @Test
    void ldbcLeavesNoEmptyOutFolder() throws Exception {
        Path out = tmp.resolve("out");
        stopOnceWritten("out", 500, "ldbc", "--quiet", "--data", "sample", "--data-cache", tmp.resolve("cache").toString(),
            "--out", out.toString(), "--policies", "clock", "--threads", "1", "--warmup", "0", "--ops", "100000000");
        assertTrue(Files.exists(tmp.resolve("cache")), "the data cache is kept");
        assertFalse(Files.exists(out), "no empty --out folder");
    }

    /**
     * Runs {@code ./bench args...}, waits until a file whose name starts with {@code written} is there, then {@code
     * millis} more, and stops it. With 0, before the page cache has opened its file: the hook that deletes the file must
     * not race a run that then creates it again.
     */
    private void stopOnceWritten(String written, long millis, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Bench.class.getName()));
        command.addAll(List.of(args));
        try (ChildProcess run = ChildProcess.start(new ProcessBuilder(command))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (left(tmp).stream().noneMatch(p -> p.getFileName().toString().startsWith(written))) {
                assertTrue(run.process().isAlive(), "the run ended before it wrote " + written + ": " + run.output());
                assertTrue(System.nanoTime() - deadline < 0, "no " + written + " after 60 s: " + run.output());
                Thread.sleep(50);
            }
            Thread.sleep(millis);
            run.process().destroy(); // SIGTERM
            assertEquals(143, run.awaitExit(ChildProcess.DEADLINE), run.output());
        }
    }

    private static List<Path> left(Path dir) throws IOException {
        while (true) {
            try (Stream<Path> all = Files.walk(dir)) {
                return all.filter(p -> !p.equals(dir)).sorted().toList();
            } catch (UncheckedIOException e) { // a file the run deleted while we walked: look again
                Thread.onSpinWait();
            }
        }
    }
}
