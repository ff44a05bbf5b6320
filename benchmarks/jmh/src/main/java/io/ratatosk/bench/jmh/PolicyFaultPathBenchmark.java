package io.ratatosk.bench.jmh;

import java.io.IOException;
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
 */
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
