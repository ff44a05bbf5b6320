package io.ratatosk.bench.jmh;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * What every benchmark's shared state holds: the temporary file, one side's cache over it, and the count
 * of pages read from the file that the threads have already reported. Created in a benchmark's trial
 * setup, closed in its trial teardown.
 */
final class Workload implements AutoCloseable {
    private final BenchFile file;
    private final CacheSide cache;
    private static final OperatingSystemMXBean OS =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long pagesReadReported;
    private long swapInsReported;
    private boolean iterationRunning;
    private long iterationCpuStart;

    private Workload(BenchFile file, CacheSide cache) {
        this.file = file;
        this.cache = cache;
    }

    /**
     * Creates a file of {@code pages} pages and opens {@code side} over it with {@code frames} frames.
     *
     * @param warmPasses how many times to read every page, in order, before the run: 1 leaves a file that
     *                   fits the cache fully cached; 2 passes every page of a larger file through at least one
     *                   eviction (with the NVM tier, that stores it in NVM); 0 starts cold
     */
    static Workload open(String side, long pages, int frames, String policy, boolean evictor, int warmPasses)
        throws IOException {
        return open(side, pages, frames, policy, evictor, warmPasses, Map.of());
    }

    /** As above, with further flags of our cache (see {@link CacheSide#open(String, java.nio.file.Path, int, String, boolean, Map)}). */
    static Workload open(String side, long pages, int frames, String policy, boolean evictor, int warmPasses,
                         Map<String, String> flags) throws IOException {
        BenchFile file = BenchFile.create(pages);
        CacheSide cache = null;
        try {
            cache = CacheSide.open(side, file.path(), frames, policy, evictor, flags);
            Workload w = new Workload(file, cache);
            for (int pass = 0; pass < warmPasses; pass++) {
                w.readEveryPage();
            }
            w.pagesReadReported = cache.pagesRead();
            w.swapInsReported = cache.swapIns();
            return w;
        } catch (IOException | RuntimeException e) {
            if (cache != null) {
                cache.close();
            }
            file.close();
            throw e;
        }
    }

    /**
     * Reads pages of {@code distribution} on this thread until the JIT compiler is quiet ({@link CompilerWarmUp}),
     * then counts from here, as {@link #open} does after its own passes: the measured iterations see none of it.
     */
    synchronized CompilerWarmUp.Result warmUpUntilCompilerQuiet(String distribution) throws IOException {
        CompilerWarmUp.Result result;
        try (CacheSide.Cursor cursor = cache.readCursor()) {
            PageIds ids = PageIds.of(distribution, file.pages(), -1); // not any measured thread's ids
            result = CompilerWarmUp.untilQuiet(() -> PageOps.read(cursor, ids.next()));
        }
        pagesReadReported = cache.pagesRead();
        swapInsReported = cache.swapIns();
        return result;
    }

    private void readEveryPage() throws IOException {
        try (CacheSide.Cursor cursor = cache.readCursor()) {
            for (long page = 0; page < file.pages(); page++) {
                PageOps.read(cursor, page);
            }
        }
    }

    long pages() {
        return file.pages();
    }

    CacheSide cache() {
        return cache;
    }

    /**
     * Pages read from the file since the last call: the first thread to report after an iteration gets
     * them all, the others get what little came after, so the threads' reports add up to the total.
     */
    synchronized long takePagesRead() {
        long now = cache.pagesRead();
        long delta = now - pagesReadReported;
        pagesReadReported = now;
        return delta;
    }

    /** Pages read from the NVM tier since the last call, shared out among the threads as {@link #takePagesRead()} is. */
    synchronized long takeSwapIns() {
        long now = cache.swapIns();
        long delta = now - swapInsReported;
        swapInsReported = now;
        return delta;
    }

    /** Called by every thread as an iteration starts; the first call of the iteration starts the CPU clock. */
    synchronized void startIteration() {
        if (!iterationRunning) {
            iterationRunning = true;
            iterationCpuStart = OS.getProcessCpuTime();
        }
    }

    /**
     * CPU time the whole process (benchmark threads, evictor, kernel time of its IO, GC, JIT) spent since the
     * iteration started: to the first thread that asks as the iteration ends, 0 to the others. On a shared
     * machine wall-clock throughput swings with the neighbours' load; operations per CPU second do much less,
     * because time the threads spend descheduled is not counted. Resolution: the OS's (10 ms on Linux).
     */
    synchronized long takeCpuNanos() {
        if (!iterationRunning) {
            return 0;
        }
        iterationRunning = false;
        return OS.getProcessCpuTime() - iterationCpuStart;
    }

    @Override
    public void close() throws IOException {
        try {
            cache.close();
        } finally {
            file.close();
        }
    }
}
