package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.util.Locale;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * What each of our eviction policies costs where the cache evicts: {@link FaultPathBenchmark}'s Zipf
 * workload at 4x (about 80% hits, the rest faults, background evictor on) on our cache, once per policy.
 * {@link PolicyHitPathBenchmark} measures a cache that holds the whole file, where no policy ever runs its
 * fault, eviction or victim choice, and where a policy that samples hits only once the cache evicts (best-of)
 * samples none; here every part of each policy runs, and the report gives each one's throughput relative to
 * global-clock. The hit ratios differ by policy, so read the throughput beside the report's hit ratio.
 *
 * <p>As in {@link PolicyHitPathBenchmark}, {@code ./bench jmh} fills {@code policy} with every registered policy.
 *
 * <p>Each trial first reads on one thread until the JIT compiler is quiet ({@link CompilerWarmUp}), before JMH's
 * own warm-up: a policy with much code on this path (best-of runs four experts, their miniatures and switches
 * between them) was otherwise still being compiled when the warm-up ended, and on a machine with few cores the
 * compiler threads took a core from the benchmark. best-of's five measured seconds after the suite's three of
 * warm-up climbed from 0.66 to 1.61 ops/µs on the 2-core VM, and settled at 1.5-1.8 from the eighth second on
 * (docs/benchmarks.md). {@code -jvmArgsAppend -Dratatosk.jmh.warmUpUntilQuiet=false} leaves it out (the build's
 * smoke test does). A system property rather than a parameter, so that the report's rows stay keyed by policy.
 */
public class PolicyFaultPathBenchmark extends PageBenchmark {
    @Param({"muninn", "global-clock", "clock", "random"})
    public String policy;

    /**
     * The cache's frames; the file is four times as many pages. The suite runs {@value FaultPathBenchmark#FRAMES};
     * {@code -p frames=65536} (512 MiB of frames, a 2 GiB file) shows a policy that samples (best-of's miniatures
     * hold at most 2048 frames) at a cache size where it samples a thirty-second of the requests, not a quarter.
     */
    @Param({"4096"})
    public int frames;

    /** Set to false to leave out each trial's reads until the JIT compiler is quiet (see the class comment). */
    static final String WARM_UP_UNTIL_QUIET = "ratatosk.jmh.warmUpUntilQuiet";

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(CacheSide.RATATOSK, 4L * frames, frames, policy, true, 0);
        if (Boolean.parseBoolean(System.getProperty(WARM_UP_UNTIL_QUIET, "true"))) {
            CompilerWarmUp.Result warm = workload.warmUpUntilCompilerQuiet(PageIds.ZIPF);
            // in Locale.ROOT as every tool's numbers: "1,234,567", not "1.234.567" under de_DE
            System.out.printf(Locale.ROOT, "# %s: %,d reads before JMH's warm-up, %d ms, %s%n", policy, warm.operations(), warm.millis(),
                warm.quiet() ? "until the compiler was quiet" : "the compiler still busy at the limit");
        }
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        return PageOps.read(reader.cursor, reader.ids.next());
    }

    /** A thread's read cursor and Zipf page ids. */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(PolicyFaultPathBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.ZIPF, thread);
        }
    }
}
