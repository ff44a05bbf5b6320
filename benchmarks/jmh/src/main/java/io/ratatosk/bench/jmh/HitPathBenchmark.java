package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The hit path, ours against Muninn: a file of {@code pages} pages, fully cached before the run in a cache
 * with a quarter more frames than that (room for the file and for either side's pool of free frames, so
 * nothing is evicted), uniformly random page ids, a random long of each page. {@code read}: pin, read the
 * long until the optimistic read validates, check it; {@link RawMemoryBenchmark} runs the same loop with no
 * cache, the limit. {@code write}: pin under a shared write lock, write a long. The secondary result
 * {@code pagesRead} stays 0 if the file really was fully cached.
 *
 * <p>Page counts: 256 (2 MiB: page memory, translation and frame table all in the CPU caches, so the hit
 * path's own instructions and dependencies are what count), 4,096 (32 MiB: past most last-level caches) and
 * 8,192 (64 MiB: every hit pays for its memory traffic as it would in a store).
 */
public class HitPathBenchmark extends PageBenchmark {
    /** Our policy here: the same clock as the peer's, so only the implementations differ. */
    static final String POLICY = "muninn";

    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Param({"256", "4096", "8192"})
    public int pages;

    /**
     * Our {@code pagecache.huge_pages}: {@code -p hugePages=auto,off} measures what huge pages give (JDK 22+
     * with native access; elsewhere both are the ordinary allocation). The peer has no such setting.
     */
    @Param({"auto"})
    public String hugePages;

    @Setup(Level.Trial)
    public void open() throws IOException {
        Map<String, String> flags = CacheSide.RATATOSK.equals(side) ? Map.of("pagecache.huge_pages", hugePages) : Map.of();
        workload = Workload.open(side, pages, framesFor(pages), POLICY, true, 1, flags);
    }

    /** Frames for a fully cached file of {@code pages} pages: a quarter more, for either side's free pool. */
    static int framesFor(int pages) {
        return pages + Math.max(64, pages / 4);
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        long pageId = reader.ids.next();
        return PageOps.read(reader.cursor, pageId, reader.ids.slot());
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
