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
 * What each of our eviction policies costs on the hit path: {@link HitPathBenchmark#read}'s workload on
 * our cache, once per policy. The report gives each policy's throughput relative to global-clock.
 *
 * <p>The {@code policy} values below are the policies at the time of writing; {@code ./bench jmh} replaces
 * them with {@code PolicyRegistry.NAMES}, so a policy added there is measured without touching this class.
 */
public class PolicyHitPathBenchmark extends PageBenchmark {
    /** 64 MiB: past the CPU caches, so each policy's bookkeeping pays for its memory traffic as in a store. */
    static final int PAGES = 8192;
    /** The policy every other one is compared with in the report. */
    public static final String BASELINE = "global-clock";

    @Param({"muninn", "global-clock", "clock", "random"})
    public String policy;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(CacheSide.RATATOSK, PAGES, HitPathBenchmark.framesFor(PAGES), policy, true, 1);
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        long pageId = reader.ids.next();
        return PageOps.read(reader.cursor, pageId, reader.ids.slot());
    }

    /** A thread's read cursor and page ids. */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(PolicyHitPathBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.UNIFORM, thread);
        }
    }
}
