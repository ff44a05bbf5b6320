package io.ratatosk.bench.jmh;

import java.io.IOException;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * What every page benchmark's per-thread state holds and does: one cursor, opened once and moved with
 * {@code next(pageId)}, the thread's page ids, and, as each iteration ends, the counters taken from the
 * {@link Workload} into {@link IterationCounters}. Each benchmark has a small public subclass per cursor kind,
 * annotated {@code @State(Scope.Thread)}, whose trial {@code @Setup} calls {@link #bindReader} or
 * {@link #bindWriter}: only the subclass can name its benchmark class, which JMH needs in order to hand it the
 * benchmark's shared state. JMH runs the setup and teardown methods inherited from here.
 */
public abstract class ThreadCursor {
    CacheSide.Cursor cursor;
    PageIds ids;
    private Workload workload;

    /** Opens a read cursor on the workload's cache, with page ids of {@code distribution} for this thread. */
    final void bindReader(Workload workload, String distribution, ThreadParams thread) throws IOException {
        bind(workload, false, distribution, thread);
    }

    /** Opens a write cursor on the workload's cache, with page ids of {@code distribution} for this thread. */
    final void bindWriter(Workload workload, String distribution, ThreadParams thread) throws IOException {
        bind(workload, true, distribution, thread);
    }

    private void bind(Workload workload, boolean write, String distribution, ThreadParams thread) throws IOException {
        ids = PageIds.of(distribution, workload.pages(), thread.getThreadIndex());
        cursor = write ? workload.cache().writeCursor() : workload.cache().readCursor();
        this.workload = workload;
    }

    final Workload workload() {
        return workload;
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        workload.startIteration();
    }

    @TearDown(Level.Iteration)
    public void countIteration(IterationCounters counters) {
        counters.pagesRead = workload.takePagesRead();
        counters.cpuNanos = workload.takeCpuNanos();
    }

    @TearDown(Level.Trial)
    public void close() {
        cursor.close();
    }
}
