package io.ratatosk.bench.jmh;

import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
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
 * <p>Eight seconds of warm-up, not the suite's three: a policy with much code on this path (best-of runs four
 * experts, their miniatures and switches between them) is still being compiled after three, and on a machine
 * with few cores the compiler threads take a core from the benchmark. best-of's five measured seconds after a
 * three-second warm-up climbed from 0.66 to 1.61 ops/µs on the 2-core VM, and settled at 1.5-1.8 from the
 * eighth second on (docs/benchmarks.md). {@code --quick}'s one second of warm-up undersells it the most.
 */
@Warmup(iterations = 8, time = 1)
public class PolicyFaultPathBenchmark extends PageBenchmark {
    @Param({"muninn", "global-clock", "clock", "random"})
    public String policy;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(CacheSide.RATATOSK, 4L * FaultPathBenchmark.FRAMES, FaultPathBenchmark.FRAMES, policy, true, 0);
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
