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
final class CompilerWarmUp {
    /** No compilation time added for this long: the compiler is quiet. */
    static final long QUIET_MILLIS = 1000;
    /** Never longer than this, whatever the compiler does. */
    static final long MAX_MILLIS = 20_000;
    private static final int BATCH = 10_000;

    /** One operation of the benchmark; its result is consumed so that nothing is optimised away. */
    @FunctionalInterface
    interface Operation {
        long run() throws IOException;
    }

    /** What a warm-up did. */
    record Result(long operations, long millis, boolean quiet) {
    }

    private CompilerWarmUp() {
    }

    static Result untilQuiet(Operation operation) throws IOException {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        boolean monitored = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        long start = System.nanoTime();
        long quietSince = start;
        long compileMillis = monitored ? compiler.getTotalCompilationTime() : 0;
        long operations = 0;
        long sink = 0;
        while (true) {
            for (int i = 0; i < BATCH; i++) {
                sink += operation.run();
            }
            operations += BATCH;
            long now = System.nanoTime();
            if (monitored) {
                long total = compiler.getTotalCompilationTime();
                if (total != compileMillis) {
                    compileMillis = total;
                    quietSince = now;
                } else if (now - quietSince >= QUIET_MILLIS * 1_000_000) {
                    return result(operations, start, now, true, sink);
                }
            }
            if (now - start >= MAX_MILLIS * 1_000_000) {
                return result(operations, start, now, false, sink);
            }
        }
    }

    private static Result result(long operations, long start, long now, boolean quiet, long sink) {
        if (sink == 42) {
            Thread.onSpinWait(); // a use of the sink the compiler cannot drop
        }
        return new Result(operations, (now - start) / 1_000_000, quiet);
    }
}
