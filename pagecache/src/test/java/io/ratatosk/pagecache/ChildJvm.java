package io.ratatosk.pagecache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A test's {@code main} in a JVM of its own, on the test's class path: for what must not take the test run with it
 * (a read of freed memory that would crash the JVM, a heap too small on purpose). Its crash log goes to {@code dir},
 * and no core dump is written.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** The child's exit status and everything it printed (stdout and stderr together). */
    public record Result(int status, String output) {
    }

    /** Runs {@code main} with at most {@code maxHeap} of heap ({@code -Xmx}'s form: 16m) and waits for it. */
    public static Result run(Path dir, String maxHeap, Class<?> main, String... args) throws IOException, InterruptedException {
        return run(dir, maxHeap, List.of(), main, args);
    }

    /** As {@link #run(Path, String, Class, String...)}, with {@code options} for the JVM ({@code --limit-modules ...}). */
    public static Result run(Path dir, String maxHeap, List<String> options, Class<?> main, String... args)
            throws IOException, InterruptedException {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(javaBin.toString(), "-Xmx" + maxHeap, "-XX:-CreateCoredumpOnCrash",
            "-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log")));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        if (Runtime.version().feature() >= 23) {
            command.add(1, "--sun-misc-unsafe-memory-access=allow"); // the cache's page memory is Unsafe's
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (var in = child.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new Result(child.waitFor(), output);
    }
}
