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
 * The hit path, ours against Muninn: a file of {@value #FILE_PAGES} pages, fully cached before the run
 * in a cache of {@value #FRAMES} frames (room for the file and for either side's pool of free frames, so
 * nothing is evicted), uniformly random page ids. {@code read}: pin, read a long until the optimistic
 * read validates, check it. {@code write}: pin under a shared write lock, write a long. The secondary
 * result {@code pagesRead} stays 0 if the file really was fully cached.
 */
public class HitPathBenchmark extends PageBenchmark {
    /** 64 MiB: larger than the CPU caches, so a hit pays for its memory traffic as it would in a store. */
    static final int FILE_PAGES = 8192;
    static final int FRAMES = 10240;
    /** Our policy here: the same clock as the peer's, so only the implementations differ. */
    static final String POLICY = "muninn";

    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(side, FILE_PAGES, FRAMES, POLICY, true, 1);
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        return PageOps.read(reader.cursor, reader.ids.next());
    }

    @Benchmark
    public void write(Writer writer) throws IOException {
        PageOps.write(writer.cursor, writer.ids.next());
    }

    /** A thread's read cursor and page ids. */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(HitPathBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.UNIFORM, thread);
        }
    }

    /** A thread's write cursor and page ids. */
    @State(Scope.Thread)
    public static class Writer extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(HitPathBenchmark bench, ThreadParams thread) throws IOException {
            bindWriter(bench.workload, PageIds.UNIFORM, thread);
        }
    }
}
