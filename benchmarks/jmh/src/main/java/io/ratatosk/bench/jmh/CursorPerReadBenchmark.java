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
 * {@link HitPathBenchmark#read} with a cursor of its own for each read, as a store reading one record may do:
 * {@code io(pageId, PF_SHARED_READ_LOCK)}, {@code next()}, the optimistic read, {@code close()}, each side with its
 * own cursor type ({@link CacheSide#readWithNewCursor}). What it adds to a hit is the cursor's life: on our side an
 * allocation (unless escape analysis removes it) and the open-cursor count's two atomic updates, which keep page
 * memory alive for a cursor a store forgot to close (Muninn allocates about 160 B a read here too). Not in the
 * suite (the hit path's targets are for a cursor a store keeps and moves): run it by name,
 * {@code ./bench jmh CursorPerRead}.
 */
public class CursorPerReadBenchmark extends PageBenchmark {
    @Param({CacheSide.RATATOSK, CacheSide.MUNINN})
    public String side;

    @Param({"256", "4096"})
    public int pages;

    @Setup(Level.Trial)
    public void open() throws IOException {
        workload = Workload.open(side, pages, HitPathBenchmark.framesFor(pages), HitPathBenchmark.POLICY, true, 1, Map.of());
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        long pageId = reader.ids.next();
        int slot = reader.ids.slot();
        long value = reader.workload().cache().readWithNewCursor(pageId, slot);
        if (value != BenchFile.expected(pageId, slot)) {
            throw new IllegalStateException("page " + pageId + " slot " + slot + " read " + value + " after validation, expected "
                + BenchFile.expected(pageId, slot));
        }
        return value;
    }

    /** A thread's page ids (its kept cursor is not used: each read opens its own). */
    @State(Scope.Thread)
    public static class Reader extends ThreadCursor {
        @Setup(Level.Trial)
        public void open(CursorPerReadBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.UNIFORM, thread);
        }
    }
}
