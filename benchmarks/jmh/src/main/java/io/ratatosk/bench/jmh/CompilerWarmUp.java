package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Runs an operation until the JIT compiler has gone quiet: no compilation time added for {@link #QUIET_MILLIS}.
 * A benchmark whose measured path has much code to compile (best-of runs four experts, their miniatures and
 * switches between them) is otherwise still being compiled when JMH's warm-up ends, and on a machine with few
 * cores the compiler threads take a core from the benchmark: the measured iterations then climb instead of
 * measuring. Where the JVM does not report compilation time, it runs for {@link #MAX_MILLIS}.
 */
public final class CompilerWarmUp {
    /** No compilation time added for this long: the compiler is quiet. */
    static final long QUIET_MILLIS = 1000;
    /** Never longer than this, whatever the compiler does. */
    static final long MAX_MILLIS = 20_000;
    private static final int BATCH = 10_000;
    private static final long POLL_MILLIS = 50;

    /** One operation of the benchmark; its result is consumed so that nothing is optimised away. */
    @FunctionalInterface
    interface Operation {
        long run() throws IOException;
    }

    /** What a warm-up did: operations run on the calling thread (0 where other threads ran them), how long, and whether the compiler went quiet. */
    public record Result(long operations, long millis, boolean quiet) {
    }

    private CompilerWarmUp() {
    }

    static Result untilQuiet(Operation operation) throws IOException {
        Watch watch = new Watch();
        long operations = 0;
        long sink = 0;
        while (true) {
            for (int i = 0; i < BATCH; i++) {
                sink += operation.run();
            }
            operations += BATCH;
            if (watch.over()) {
                if (sink == 42) {
                    Thread.onSpinWait(); // a use of the sink the compiler cannot drop
                }
                return watch.result(operations);
            }
        }
    }

    /**
     * Waits, while other threads run the workload, until the JIT compiler has gone quiet (or {@link #MAX_MILLIS}):
     * for a tool whose own threads warm up the code it is about to time.
     */
    public static Result awaitQuiet() throws InterruptedException {
        Watch watch = new Watch();
        while (!watch.over()) {
            Thread.sleep(POLL_MILLIS);
        }
        return watch.result(0);
    }

    /** Watches the compiler's total compilation time since it was made. */
    private static final class Watch {
        private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        private final boolean monitored = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        private final long start = System.nanoTime();
        private long quietSince = start;
        private long compileMillis = monitored ? compiler.getTotalCompilationTime() : 0;
        private long now = start;
        private boolean quiet;

        /** True once the compiler has been quiet for {@link #QUIET_MILLIS}, or {@link #MAX_MILLIS} have passed. */
        boolean over() {
            now = System.nanoTime();
            if (monitored) {
                long total = compiler.getTotalCompilationTime();
                if (total != compileMillis) {
                    compileMillis = total;
                    quietSince = now;
                } else if (now - quietSince >= QUIET_MILLIS * 1_000_000) {
                    quiet = true;
                    return true;
                }
            }
            return now - start >= MAX_MILLIS * 1_000_000;
        }

        Result result(long operations) {
            return new Result(operations, (now - start) / 1_000_000, quiet);
        }
    }
}
