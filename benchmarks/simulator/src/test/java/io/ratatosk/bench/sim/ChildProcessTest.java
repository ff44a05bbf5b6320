package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildProcessTest {
    private static final Duration SHORT = Duration.ofSeconds(2);

    /**
     * A script whose child hangs holding the output open: reading the output to its end before the timed wait (as six
     * of the benchmarks' tests did) never returned. Now the wait fails at its deadline, naming the command and what it
     * printed, and neither the script nor its child is left running.
     */
    @Test
    void aHungScriptFailsAtItsDeadlineAndIsKilledWithWhatItStarted() throws Exception {
        ProcessBuilder hangs = new ProcessBuilder("bash", "-c", "echo started; sleep 600 & echo $!; wait");
        long start = System.nanoTime();
        try (ChildProcess child = ChildProcess.start(hangs)) {
            child.awaitOutput("started", ChildProcess.DEADLINE);
            AssertionError e = assertThrows(AssertionError.class, () -> child.awaitExit(SHORT));
            assertTrue(System.nanoTime() - start < Duration.ofMinutes(1).toNanos(), "failed at its deadline, not later");
            assertTrue(e.getMessage().contains("'bash -c echo started; sleep 600 & echo $!; wait' (pid " + child.process().pid()
                + ") hung: it was still running 2 s after it started"), e.getMessage());
            assertTrue(e.getMessage().contains("started"), "with what it printed: " + e.getMessage());
            long sleeper = Long.parseLong(child.output().lines().toList().get(1));
            assertFalse(child.process().isAlive(), "the script is killed");
            assertFalse(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false), "the sleep it started too");
        }
    }

    /**
     * A child that ends leaving a process it started running (in the background, as a script's daemon): once the child
     * was gone its orphans were no longer found among its descendants, and the process outlived the test, the build
     * too. Now every process started under the child is killed at close, orphaned or not.
     */
    @Test
    void aProcessTheChildLeftRunningIsKilledAtClose() throws Exception {
        ChildProcess.Result r = ChildProcess.run(new ProcessBuilder("bash", "-c",
            "sleep 600 </dev/null >/dev/null 2>&1 & echo $!"));
        assertEquals(0, r.status(), r.output());
        ProcessHandle sleeper = ProcessHandle.of(Long.parseLong(r.output().strip())).orElse(null);
        if (sleeper != null) {
            sleeper.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS); // SIGKILL is sent, not yet done
        }
        assertFalse(sleeper != null && sleeper.isAlive(), "the sleep the script left running was killed");
    }

    /** A hung JVM is killed with its threads' stacks in the failure: where it waits. */
    @Test
    void aHungJvmFailsWithItsThreadsStacks() throws Exception {
        ProcessBuilder jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), Sleeps.class.getName());
        try (ChildProcess child = ChildProcess.start(jvm)) {
            child.awaitOutput("sleeping", ChildProcess.DEADLINE);
            AssertionError e = assertThrows(AssertionError.class, () -> child.awaitExit(SHORT));
            assertTrue(e.getMessage().contains("with its JVMs' threads' stacks"), e.getMessage());
            assertTrue(e.getMessage().contains(Sleeps.class.getName() + ".main"), e.getMessage());
            assertFalse(child.process().isAlive());
        }
    }

    /** A child that ends without printing what is awaited fails at once, not at the deadline, with what it printed. */
    @Test
    void anOutputNeverPrintedFailsWhenTheChildEnds() throws Exception {
        try (ChildProcess child = ChildProcess.start(new ProcessBuilder("bash", "-c", "echo other; exit 3"))) {
            AssertionError e = assertThrows(AssertionError.class, () -> child.awaitOutput("created", ChildProcess.DEADLINE));
            assertTrue(e.getMessage().contains("ended (status 3) without printing 'created'. Its output:\nother"), e.getMessage());
        }
    }

    /** Much output, on stdout and stderr, never blocks the child on a full pipe; its input is closed. */
    @Test
    void aChildsWholeOutputIsKeptAndItsInputIsClosed() throws Exception {
        ChildProcess.Result r = ChildProcess.run(new ProcessBuilder("bash", "-c",
            "cat; for i in $(seq 1 20000); do echo line $i; echo err $i >&2; done; exit 5"));
        assertEquals(5, r.status());
        List<String> lines = r.output().lines().toList();
        assertEquals(40_000, lines.size());
        assertTrue(lines.contains("line 20000") && lines.contains("err 20000"), r.output().substring(r.output().length() - 100));
    }

    /** Prints that it sleeps, then sleeps far past any deadline of these tests. */
    public static final class Sleeps {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("sleeping");
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(10).toMillis());
        }
    }
}
