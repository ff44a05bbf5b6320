package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * What each of our eviction policies costs on the hit path: {@link HitPathBenchmark#read}'s workload on
 * our cache, once per policy. The report gives each policy's throughput relative to global-clock.
 *
 * <p>The {@code policy} values below are the policies at the time of writing; {@code ./bench jmh} replaces
 * them with {@code EvictionPolicies.NAMES}, so a policy added there is measured without touching this class.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {MuninnPeer.OPEN_NIO, MuninnPeer.OPEN_NIO_CHANNELS, MuninnPeer.OPEN_LANG})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PolicyHitPathBenchmark {
    /** The policy every other one is compared with in the report. */
    public static final String BASELINE = "global-clock";

    @Param({"muninn", "global-clock", "clock", "random"})
    public String policy;

    Workload workload;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(CacheSide.RATATOSK, HitPathBenchmark.FILE_PAGES, HitPathBenchmark.FRAMES, policy,
            true, 1);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        workload.close();
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        return PageOps.read(reader.cursor, reader.ids.next());
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
