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
 * Cooperative eviction under pressure, ours against Muninn: the workload of {@link FaultPathBenchmark}
 * at 4x the cache, with the background evictor off on both sides (ours: {@code pagecache.evictor.enabled=false};
 * Muninn: {@code MuninnPageCache.Configuration.disableEvictionThread()}), so every fault once the cache is
 * full evicts a page itself.
 */
public class CooperativeEvictionBenchmark extends PageBenchmark {
    static final int FILE_TO_CACHE = 4;

    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Param({PageIds.UNIFORM, PageIds.ZIPF})
    public String distribution;

    @Setup(Level.Trial)
    public void open() throws IOException {
        int frames = FaultPathBenchmark.FRAMES;
        workload = Workload.open(side, (long) frames * FILE_TO_CACHE, frames, HitPathBenchmark.POLICY, false, 0);
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
