package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ratatosk.bench.sim.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark file goes when the JVM that made it ends without closing it: a JMH fork stopped with Ctrl-C, or one
 * whose reader setup failed after the workload's (JMH then runs no teardown and the fork exits). Each left its file,
 * 2 to 128 MiB, in the temporary folder. Each case makes the file in a JVM of its own, with its temporary folder here.
 */
class BenchFileTest {
    @TempDir
    Path tmp;

    @Test
    void aJvmThatExitsWithoutClosingItDeletesIt() throws Exception {
        ChildProcess.Result child = ChildProcess.run(jvm("exit"));
        assertEquals(0, child.status(), child.output());
        assertEquals(List.of(), left());
    }

    @Test
    void aJvmStoppedWithItOpenDeletesIt() throws Exception {
        try (ChildProcess child = ChildProcess.start(jvm("wait"))) {
            child.awaitOutput("created", ChildProcess.DEADLINE); // create has returned: the file is there, whole
            child.process().destroy(); // SIGTERM, as a stopped fork gets
            assertEquals(143, child.awaitExit(ChildProcess.DEADLINE), child.output());
        }
        assertEquals(List.of(), left());
    }

    @Test
    void closeDeletesItsFolder() throws IOException {
        Path path;
        try (BenchFile file = BenchFile.create(4)) {
            path = file.path();
            assertEquals(4L * BenchFile.PAGE_SIZE, Files.size(path));
        }
        assertFalse(Files.exists(path.getParent()), "the folder is gone with the file");
    }

    private ProcessBuilder jvm(String then) {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), MakeAndLeave.class.getName(), then);
    }

    private List<Path> left() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(p -> !p.equals(tmp)).sorted().toList();
        }
    }

    /** Makes a benchmark file and never closes it: then exits, or waits to be stopped. */
    public static final class MakeAndLeave {
        public static void main(String[] args) throws Exception {
            BenchFile.create(16);
            System.out.print("created");
            System.out.flush();
            if (args[0].equals("wait")) {
                Thread.sleep(TimeUnit.MINUTES.toMillis(2));
            }
            System.exit(0);
        }
    }
}
