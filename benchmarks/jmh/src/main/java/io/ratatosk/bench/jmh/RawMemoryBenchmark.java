package io.ratatosk.bench.jmh;

import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The limit of {@link HitPathBenchmark#read}: the same loop (a random page, a random long of it, read, check)
 * over the same file's bytes held in one off-heap buffer, with no cache in between ({@link RawMemorySide}).
 * {@code ./bench jmh-report} divides each side's read hit throughput by this one at the same page count and
 * thread count: the hit path's "share of the limit".
 */
public class RawMemoryBenchmark extends PageBenchmark {
    @Param({"256", "4096", "8192"})
    public int pages;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(CacheSide.RAW, pages, HitPathBenchmark.framesFor(pages), HitPathBenchmark.POLICY, false, 0);
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        long pageId = reader.ids.next();
        return PageOps.read(reader.cursor, pageId, reader.ids.slot());
    }

    /** A thread's raw cursor and page ids: the same ids, thread by thread, as the hit path benchmark draws. */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(RawMemoryBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.UNIFORM, thread);
        }
    }
}
