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
 * The fault path with the background evictor on, ours against Muninn: a cache of {@value #FRAMES}
 * frames over a file {@code fileToCache} times larger, read with uniform or Zipf page ids through the
 * same read operation as the hit path. The secondary result {@code pagesRead} (pages read from the file
 * per microsecond, beside the operations per microsecond) gives each side's hit ratio, 1 - pagesRead / ops,
 * so the throughputs can be compared at equal hit ratio. The file sits in the OS page cache after its
 * creation, so a fault costs a system call and a copy, not a disk access.
 */
public class FaultPathBenchmark extends PageBenchmark {
    /** 32 MiB of frames. */
    static final int FRAMES = 4096;

    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Param({"4", "10"})
    public int fileToCache;

    @Param({PageIds.UNIFORM, PageIds.ZIPF})
    public String distribution;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(side, (long) FRAMES * fileToCache, FRAMES, HitPathBenchmark.POLICY, true, 0);
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        return PageOps.read(reader.cursor, reader.ids.next());
    }

    /** A thread's read cursor and page ids. */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(FaultPathBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, bench.distribution, thread);
        }
    }
}
