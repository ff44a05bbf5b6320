package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.store.PinRecorder;
import io.ratatosk.bench.sim.PageTraceWriter;
import io.ratatosk.core.PageKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Records a run's page accesses as a page trace (docs/simulator.md, format {@code pagetrace}): each
 * access as the {@link PageKey} of (store file id, page id). Each thread fills a buffer of its own, handed
 * to the one {@link PageTraceWriter} under a lock when full, so several threads' pins interleave in
 * chunks. {@link #flush()} after the threads of a phase have ended writes what is left in order.
 */
public final class TraceRecorder implements PinRecorder, AutoCloseable {
    private static final int BUFFER = 8192;

    private final PageTraceWriter writer;
    private final List<Buffer> buffers = new ArrayList<>();
    private final ThreadLocal<Buffer> local = ThreadLocal.withInitial(this::register);
    private long pins;

    public TraceRecorder(Path file) throws IOException {
        this.writer = new PageTraceWriter(file);
    }

    private synchronized Buffer register() {
        Buffer b = new Buffer();
        buffers.add(b);
        return b;
    }

    @Override
    public void pinned(int fileId, long pageId) {
        Buffer b = local.get();
        b.keys[b.size++] = PageKey.of(fileId, pageId);
        if (b.size == BUFFER) {
            drain(b);
        }
    }

    private synchronized void drain(Buffer b) {
        try {
            for (int i = 0; i < b.size; i++) {
                writer.append(b.keys[i]);
            }
            pins += b.size;
            b.size = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("writing the page trace failed: " + e.getMessage(), e);
        }
    }

    /** Writes every thread's remaining pins; call when no thread is recording. */
    public synchronized void flush() {
        for (Buffer b : buffers) {
            drain(b);
        }
    }

    /** Pins written so far (after {@link #flush()}: all of them). */
    public synchronized long pins() {
        return pins;
    }

    @Override
    public synchronized void close() throws IOException {
        flush();
        writer.close();
    }

    private static final class Buffer {
        final long[] keys = new long[BUFFER];
        int size;
    }
}
