package io.ratatosk.bench.sim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A process a test starts (a script, {@code ./bench}, a JVM), waited for with a deadline. A wait without one (a bare
 * {@code waitFor()}, or reading the output to its end before a timed {@code waitFor}) never returned from a child that
 * hung, and the build hung with it. Here a child still running at its deadline has the threads' stacks of its JVMs
 * printed, is killed with every process it started, and the test fails with everything it printed; close kills them
 * too, also those the child left running when it ended (found by a mark in their environment). Its output (stdout
 * and stderr together) is read on a thread of its own, so that a child printing much never blocks on a full pipe; its
 * input is closed at once, so that one reading it ends instead of waiting. Shared by the benchmarks' modules (the
 * simulator's test jar).
 */
public final class ChildProcess implements AutoCloseable {
    /** Generous: these children take seconds, but CI runs them on two loaded cores. */
    public static final Duration DEADLINE = Duration.ofMinutes(2);
    /** How long a hung JVM's thread dump may take to arrive, once asked for. */
    private static final long DUMP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Process process;
    private final String commandLine;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final Thread reader;

    /** Set in the child's environment, which every process it starts inherits: they are found by it, orphaned or not. */
    private static final String MARK = "RATATOSK_TEST_CHILD";

    private final String mark;

    private ChildProcess(Process process, List<String> command, String mark) {
        this.process = process;
        this.commandLine = String.join(" ", command);
        this.mark = mark;
        this.reader = new Thread(() -> copy(process.getInputStream(), output), "output of child " + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** An ended child's exit status and everything it printed. */
    public record Result(int status, String output) {
    }

    /** Runs {@code command} and waits for it, at most {@link #DEADLINE}. */
    public static Result run(ProcessBuilder command) throws IOException, InterruptedException {
        return run(command, DEADLINE);
    }

    /** Runs {@code command} and waits for it, at most {@code deadline}: a child still running then fails the test. */
    public static Result run(ProcessBuilder command, Duration deadline) throws IOException, InterruptedException {
        try (ChildProcess child = start(command)) {
            int status = child.awaitExit(deadline);
            return new Result(status, child.output());
        }
    }

    /** Starts {@code command}, its stderr into its stdout, for a test that talks to it before it waits; close kills it. */
    public static ChildProcess start(ProcessBuilder command) throws IOException {
        String mark = MARK + "=" + java.util.UUID.randomUUID();
        command.environment().put(MARK, mark.substring(MARK.length() + 1));
        Process process = command.redirectErrorStream(true).start();
        try {
            process.getOutputStream().close();
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
        return new ChildProcess(process, command.command(), mark);
    }

    public Process process() {
        return process;
    }

    /** Everything the child printed so far. */
    public String output() {
        return output.toString(StandardCharsets.UTF_8);
    }

    /**
     * Waits until the child has printed {@code text}, at most {@code deadline}; fails, with what it printed, if it ends
     * first or is still silent then (killed, as {@link #awaitExit} kills it).
     */
    public void awaitOutput(String text, Duration deadline) throws InterruptedException {
        long giveUp = System.nanoTime() + deadline.toNanos();
        while (!output().contains(text)) {
            if (!process.isAlive()) {
                reader.join(TimeUnit.NANOSECONDS.toMillis(DUMP_WAIT_NANOS)); // what it printed last
                if (output().contains(text)) {
                    return;
                }
                throw new AssertionError(describe() + " ended (status " + process.exitValue() + ") without printing '" + text
                    + "'. Its output:\n" + output());
            }
            if (System.nanoTime() - giveUp >= 0) {
                throw hung(deadline, "had not printed '" + text + "'");
            }
            Thread.sleep(20);
        }
    }

    /**
     * Waits for the child to end, at most {@code deadline}, and gives its exit status once its output is all read; a
     * child still running then is killed and fails the test.
     */
    public int awaitExit(Duration deadline) throws InterruptedException {
        if (!process.waitFor(deadline.toNanos(), TimeUnit.NANOSECONDS)) {
            throw hung(deadline, "was still running");
        }
        // A process it started and left running may hold the output open: its end is not waited for beyond a bound.
        reader.join(TimeUnit.NANOSECONDS.toMillis(DUMP_WAIT_NANOS));
        return process.exitValue();
    }

    /** Kills the child and every process it started, if still running: a failed or interrupted test leaves none. */
    @Override
    public void close() {
        // The descendants are listed first: once the child is gone, its orphans are no longer found through it, only
        // by the mark in their environment (a script's background process outlived the test, and the build).
        List<ProcessHandle> tree = Stream.concat(Stream.concat(process.descendants(), Stream.of(process.toHandle())),
            ProcessHandle.allProcesses().filter(this::marked)).distinct().toList();
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : tree) {
            try {
                p.onExit().get(DUMP_WAIT_NANOS, TimeUnit.NANOSECONDS); // SIGKILL is sent, not yet done
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // left to the system: nothing more a test can do
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private AssertionError hung(Duration deadline, String state) throws InterruptedException {
        boolean dumped = printJvmThreads();
        close();
        process.waitFor(DUMP_WAIT_NANOS, TimeUnit.NANOSECONDS);
        reader.join(TimeUnit.NANOSECONDS.toMillis(DUMP_WAIT_NANOS));
        return new AssertionError(describe() + " hung: it " + state + " " + deadline.toSeconds() + " s after it started, so"
            + " it was killed with the processes it started. Its output" + (dumped ? ", with its JVMs' threads' stacks" : "")
            + ":\n" + output());
    }

    /**
     * Asks each JVM among the child and its descendants to print its threads' stacks (SIGQUIT) and waits until the
     * output has stopped growing; false where there was none to ask or nothing came.
     */
    private boolean printJvmThreads() throws InterruptedException {
        List<ProcessHandle> jvms = Stream.concat(Stream.of(process.toHandle()), process.descendants())
            .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).toList();
        int before = output.size();
        for (ProcessHandle jvm : jvms) {
            try {
                Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(jvm.pid())).redirectErrorStream(true).start();
                if (!kill.waitFor(DUMP_WAIT_NANOS, TimeUnit.NANOSECONDS)) {
                    kill.destroyForcibly();
                }
            } catch (IOException noKill) {
                return false;
            }
        }
        long giveUp = System.nanoTime() + DUMP_WAIT_NANOS;
        while (!jvms.isEmpty() && output.size() == before && process.isAlive() && System.nanoTime() - giveUp < 0) {
            Thread.sleep(50); // the dump has not begun
        }
        int size = jvms.isEmpty() ? output.size() : -1;
        while (output.size() != size && System.nanoTime() - giveUp < 0) {
            size = output.size();
            Thread.sleep(500); // it is done when half a second adds nothing
        }
        return output.size() > before;
    }

    /** Whether {@code p} was started under the child: its environment holds the child's mark (Linux's /proc). */
    private boolean marked(ProcessHandle p) {
        byte[] environment;
        try {
            environment = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(p.pid()), "environ"));
        } catch (IOException | RuntimeException goneOrNotOurs) {
            return false;
        }
        return ("\0" + new String(environment, StandardCharsets.ISO_8859_1) + "\0").contains("\0" + mark + "\0");
    }

    private String describe() {
        return "'" + commandLine + "' (pid " + process.pid() + ")";
    }

    private static void copy(InputStream in, ByteArrayOutputStream to) {
        byte[] buffer = new byte[8192];
        try (in) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                to.write(buffer, 0, n);
            }
        } catch (IOException closed) {
            // the child was killed: what it printed is kept
        }
    }
}
