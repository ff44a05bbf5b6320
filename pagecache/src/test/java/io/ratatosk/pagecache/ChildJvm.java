package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test's {@code main} in a JVM of its own, on the test's class path: for what must not take the test run with it
 * (a read of freed memory that would crash the JVM, a heap too small on purpose). Its crash log goes to {@code dir},
 * and no core dump is written. A child still running at its deadline is killed and the test fails: what these
 * children guard (a frame left locked, a page left faulting) hangs them, and a hung child hung the whole build.
 */
public final class ChildJvm {
    /** Generous: these children take seconds, but CI runs them on two loaded cores. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    /** How long a hung child's thread dump may take to arrive: the tests' bound, for a loaded machine. */
    private static final long DUMP_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(Waits.BOUND_SECONDS);

    private ChildJvm() {
    }

    /** The child's exit status and everything it printed (stdout and stderr together). */
    public record Result(int status, String output) {
    }

    /** Runs {@code main} with at most {@code maxHeap} of heap ({@code -Xmx}'s form: 16m) and waits for it. */
    public static Result run(Path dir, String maxHeap, Class<?> main, String... args) throws IOException, InterruptedException {
        return run(dir, maxHeap, List.of(), main, args);
    }

    /**
     * Runs {@code main} as {@link #run(Path, String, Class, String...)} does, and fails, showing everything it printed,
     * unless it exits with status 0: for a child that checks for itself and ends with {@link #exit}.
     */
    public static Result assertSucceeds(Path dir, String maxHeap, Class<?> main, String... args)
            throws IOException, InterruptedException {
        Result child = run(dir, maxHeap, main, args);
        assertEquals(0, child.status(), child.output());
        return child;
    }

    /**
     * Ends a child's {@code main}, the test's verdict: status 1, printing {@code wrong}, where that says what was wrong;
     * else status 0, printing {@code done}.
     */
    public static void exit(String wrong, String done) {
        System.out.println(wrong.isEmpty() ? done : wrong);
        System.exit(wrong.isEmpty() ? 0 : 1);
    }

    /** As {@link #run(Path, String, Class, String...)}, with {@code options} for the JVM ({@code --limit-modules ...}). */
    public static Result run(Path dir, String maxHeap, List<String> options, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return run(dir, maxHeap, options, DEFAULT_DEADLINE, main, args);
    }

    /**
     * As {@link #run(Path, String, List, Class, String...)}, waiting at most {@code deadline}: a child still running
     * then has its threads' stacks printed (SIGQUIT, where there is a {@code kill}) and is killed, and this throws an
     * {@link AssertionError} saying it hung, with everything it printed.
     */
    public static Result run(Path dir, String maxHeap, List<String> options, Duration deadline, Class<?> main,
            String... args) throws IOException, InterruptedException {
        try (Started child = start(dir, maxHeap, options, main, args)) {
            return child.waitFor(deadline);
        }
    }

    /**
     * Starts {@code main} as {@link #run(Path, String, List, Duration, Class, String...)} does, without waiting for it:
     * for a test that must see the child get somewhere (its output) before a deadline starts, which a JVM's start on a
     * loaded machine would otherwise eat into.
     */
    public static Started start(Path dir, String maxHeap, List<String> options, Class<?> main, String... args)
            throws IOException {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(javaBin.toString(), "-Xmx" + maxHeap, "-XX:-CreateCoredumpOnCrash",
            "-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log")));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        if (Runtime.version().feature() >= 23) {
            command.add(1, "--sun-misc-unsafe-memory-access=allow"); // the cache's page memory is Unsafe's
        }
        return new Started(new ProcessBuilder(command).redirectErrorStream(true).start(), main);
    }

    /** A child JVM started, its output read as it comes; closing it kills it if it still runs. */
    public static final class Started implements AutoCloseable {
        private final Process child;
        private final Class<?> main;
        private final ByteArrayOutputStream output = new ByteArrayOutputStream();
        private final Thread reader;

        private Started(Process child, Class<?> main) {
            this.child = child;
            this.main = main;
            // Read on a thread of its own: a blocking read would never see the deadline of a child that hangs.
            reader = new Thread(() -> copy(child.getInputStream(), output), "child JVM output of " + main.getSimpleName());
            reader.setDaemon(true);
            reader.start();
        }

        /** Everything the child printed so far (stdout and stderr together). */
        public String output() {
            return output.toString(StandardCharsets.UTF_8);
        }

        /**
         * Waits at most {@code deadline} from now for the child to end; one still running then has its threads' stacks
         * printed and is killed, and this throws an {@link AssertionError} saying it hung, with everything it printed.
         */
        public Result waitFor(Duration deadline) throws InterruptedException {
            if (!child.waitFor(deadline.toNanos(), TimeUnit.NANOSECONDS)) {
                int before = output.size();
                boolean asked = printThreadsAndExit(child);
                // ProcessHandle's kill, not Process's: that one also closes the child's output under the reader, which
                // lost what was still in the pipe (the dump's end) to a "Stream closed".
                child.toHandle().destroyForcibly();
                child.waitFor();
                reader.join();
                boolean dumped = asked && output.size() > before;
                throw new AssertionError(main.getName() + " in a JVM of its own (pid " + child.pid() + ") hung: still running "
                    + deadline.toSeconds() + " s into the wait for it, so it was killed. Its output"
                    + (dumped ? ", ending with its threads' stacks" : "") + ":\n" + output());
            }
            reader.join();
            return new Result(child.exitValue(), output());
        }

        @Override
        public void close() {
            child.destroyForcibly(); // a no-op for a child that exited; never leave one behind an interrupted test
        }
    }

    /**
     * Asks a hung child's JVM to print every thread's stack to its output (SIGQUIT), then to exit (SIGTERM), and waits
     * for it to end, at most the bound; false where it could not be asked (no {@code kill}). The JVM's one signal thread
     * takes the two in turn, so the whole dump (the threads, then, after safepoints of their own, any deadlock found and
     * the heap summary) is out before the exit begins, however long it pauses. Waiting until half a second added
     * nothing cut off a dump that paused longer: on a loaded machine, or behind a thread slow to reach a safepoint.
     */
    private static boolean printThreadsAndExit(Process child) throws InterruptedException {
        try {
            Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(child.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(DUMP_WAIT_MILLIS, TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                return false;
            }
        } catch (IOException noKill) {
            return false;
        }
        child.toHandle().destroy(); // SIGTERM, queued behind the SIGQUIT; the output is left open for the reader
        child.waitFor(DUMP_WAIT_MILLIS, TimeUnit.MILLISECONDS); // one whose exit hangs is killed after: its dump is out
        return true;
    }

    private static void copy(InputStream in, ByteArrayOutputStream to) {
        try (in) {
            in.transferTo(to);
        } catch (IOException e) {
            throw new UncheckedIOException("reading a child JVM's output", e);
        }
    }
}
