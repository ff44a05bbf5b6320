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
 * Cooperative eviction under pressure, ours against Muninn: the workload of {@link FaultPathBenchmark}
 * at 4x the cache, with the background evictor off on both sides (ours: {@code pagecache.evictor.enabled=false};
 * Muninn: {@code MuninnPageCache.Configuration.disableEvictionThread()}), so every fault once the cache is
 * full evicts a page itself.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {MuninnPeer.OPEN_NIO, MuninnPeer.OPEN_NIO_CHANNELS, MuninnPeer.OPEN_LANG})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CooperativeEvictionBenchmark {
    static final int FILE_TO_CACHE = 4;

    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Param({PageIds.UNIFORM, PageIds.ZIPF})
    public String distribution;

    Workload workload;

    @Setup(Level.Trial)
    public void open() throws IOException {
        int frames = FaultPathBenchmark.FRAMES;
        workload = Workload.open(side, (long) frames * FILE_TO_CACHE, frames, HitPathBenchmark.POLICY, false, 0);
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
        public void open(CooperativeEvictionBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, bench.distribution, thread);
        }
    }
}
