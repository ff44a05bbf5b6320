package io.ratatosk.pagecache;

import io.ratatosk.core.Sweep;
import io.ratatosk.pagecache.internal.DaemonWorker;
import java.util.concurrent.TimeUnit;

/**
 * The background thread behind {@link PagedFile#PF_READ_AHEAD}: a cursor scanning a file page after page
 * asks for the pages ahead of it ({@link #request}), and this thread faults them in while the scan works
 * on the pages it has, so the scan finds them resident instead of waiting for their reads. Requests wait
 * on a small ring, oldest first (a scan needs the nearest pages first); when it is full the oldest request
 * gives way. A read-ahead takes a free frame, or evicts with its own background sweep, which gives up
 * rather than waits: it never stalls on a cache whose frames are all pinned. Each page is faulted in as an
 * operation of its file ({@link FileMapping#readAhead}), so an unmap or a truncate waits for one in
 * progress and refuses further ones, and a page past the file's end is never read. A failure of any kind
 * drops the page: the scan faults it itself and reports the error.
 */
final class ReadAheadWorker extends DaemonWorker {
    /** Requests kept; a new one overwrites the oldest when full. */
    static final int QUEUE_SIZE = 64;
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Sweep sweep = Sweep.background();
    /** A ring, guarded by this: request i is (files[i], starts[i], counts[i]). */
    private final FileMapping[] files = new FileMapping[QUEUE_SIZE];
    private final long[] starts = new long[QUEUE_SIZE];
    private final int[] counts = new int[QUEUE_SIZE];
    private int head;
    /** Written under this; read without it by the worker before it parks. */
    private volatile int queued;

    ReadAheadWorker() {
        super("ratatosk-read-ahead");
    }

    /** Asks for pages {@code [start, start + count)} of {@code file} to be faulted in. Allocates nothing. */
    void request(FileMapping file, long start, int count) {
        synchronized (this) {
            int tail = (head + queued) % QUEUE_SIZE;
            files[tail] = file;
            starts[tail] = start;
            counts[tail] = count;
            if (queued == QUEUE_SIZE) {
                head = (head + 1) % QUEUE_SIZE; // full: the oldest request gives way
            } else {
                queued++;
            }
        }
        wake();
    }

    @Override
    protected void step() {
        FileMapping file;
        long start;
        int count;
        synchronized (this) {
            if (queued == 0) {
                file = null;
                start = 0;
                count = 0;
            } else {
                file = files[head];
                start = starts[head];
                count = counts[head];
                files[head] = null;
                head = (head + 1) % QUEUE_SIZE;
                queued--;
            }
        }
        if (file == null) {
            sleepUnless(() -> queued == 0, IDLE_PARK_NANOS);
            return;
        }
        for (long p = start; p < start + count && isRunning(); p++) {
            try {
                file.readAhead(p, sweep);
            } catch (Throwable e) {
                // Only a hint: the scan faults the page itself and reports the error.
            }
        }
    }
}
