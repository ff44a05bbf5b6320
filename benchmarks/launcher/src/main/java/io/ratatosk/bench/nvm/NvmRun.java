package io.ratatosk.bench.nvm;

import io.ratatosk.pagecache.NvmCacheStats;
import io.ratatosk.pagecache.OperationsFlags;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One measured run: a page cache opened with the given flags over {@link SlowFiles}, a warm-up, then
 * {@code ops} operations split over {@code threads} threads, each a random read of a whole page or a
 * write of one long into it. The result holds the counters of the measured part only.
 */
final class NvmRun {
    /** What one operation does. */
    enum Mix {
        /** Reads uniformly over the file. */
        RANDOM_READS,
        /** Reads uniformly over the file; 30% of operations write, all on the first tenth of the pages. */
        WRITES_ON_A_HOT_TENTH,
        /** Uniform over the file; 30% of operations write. */
        UNIFORM_WRITES;

        /** Sets {@code out[0]} to the page and {@code out[1]} to 1 for a write. */
        void next(SplittableRandom random, long pages, long[] out) {
            if (this == WRITES_ON_A_HOT_TENTH && random.nextInt(10) < 3) {
                out[0] = random.nextLong(Math.max(1, pages / 10));
                out[1] = 1;
            } else if (this == UNIFORM_WRITES) {
                out[0] = random.nextLong(pages);
                out[1] = random.nextInt(10) < 3 ? 1 : 0;
            } else {
                out[0] = random.nextLong(pages);
                out[1] = 0;
            }
        }
    }

    /** The counters of the measured operations. */
    record Result(String label, long ops, long wallNanos, PageCacheStats before, PageCacheStats after,
                  long fileReads, long fileWrites, long fileLatencyNanos) {
        double opsPerSecond() {
            return ops * 1e9 / wallNanos;
        }

        long faults() {
            return after.faults() - before.faults();
        }

        long hits() {
            return after.hits() - before.hits();
        }

        long dirtyEvictions() {
            return after.evictionWrites() - before.evictionWrites();
        }

        NvmCacheStats nvmBefore() {
            return before.nvm();
        }

        NvmCacheStats nvmAfter() {
            return after.nvm();
        }

        long nvmReads() {
            return after.nvm().reads() - before.nvm().reads();
        }

        long nvmWrites() {
            return after.nvm().writes() - before.nvm().writes();
        }

        long swapIns() {
            return after.nvm().swapIns() - before.nvm().swapIns();
        }

        long nvmModeledNanos() {
            return after.nvm().modeledDeviceNanos() - before.nvm().modeledDeviceNanos();
        }

        long nvmInjectedNanos() {
            return after.nvm().injectedNanos() - before.nvm().injectedNanos();
        }

        long fileModeledNanos() {
            return (fileReads + fileWrites) * fileLatencyNanos;
        }

        /**
         * Modeled time of the reads that faults wait for: file reads x file latency + NVM reads x NVM
         * read latency. NVM writes are left out: the background evictor makes them, off the fault path.
         */
        long faultPathModeledNanos(long nvmReadLatencyNanos) {
            return fileReads * fileLatencyNanos + nvmReads() * nvmReadLatencyNanos;
        }

        double nvmEnergyJoules() {
            return after.nvm().energyJoules() - before.nvm().energyJoules();
        }
    }

    private NvmRun() {
    }

    /** Writes every page of the file once through a plain cache, so that reads find data. */
    static void createFile(Path path, long pages, int pageSize) throws IOException {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(64L * pageSize),
            "pagecache.page_size", String.valueOf(pageSize), OperationsFlags.WARMUP_ENABLED.name(), "false"));
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, pageSize);
             PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (long p = 0; p < pages; p++) {
                c.next(p);
                c.putLong(0, p);
                c.putLong(pageSize - Long.BYTES, p);
            }
        }
    }

    static Result run(String label, Map<String, String> flags, long fileLatencyNanos, Path path, long pages, Mix mix,
                      long warmupOps, long ops, int threads, long seed) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(flags);
        if (!config.isSet(OperationsFlags.WARMUP_ENABLED.name())) {
            config = config.with(OperationsFlags.WARMUP_ENABLED.name(), "false"); // each run starts cold
        }
        SlowFiles files = new SlowFiles(new FileSwapperFactory(OperationsFlags.directIo(config)), fileLatencyNanos);
        try (PageCache cache = PageCache.open(config, files); PagedFile file = cache.map(path, config.pageSize(), false)) {
            drive(label, file, pages, mix, warmupOps, threads, seed);
            PageCacheStats before = cache.stats();
            long fileReads = files.reads();
            long fileWrites = files.writes();
            long start = System.nanoTime();
            drive(label, file, pages, mix, ops, threads, seed + 1);
            long wall = System.nanoTime() - start;
            PageCacheStats after = cache.stats();
            return new Result(label, ops, wall, before, after, files.reads() - fileReads, files.writes() - fileWrites,
                fileLatencyNanos);
        }
    }

    /**
     * Runs {@code ops} over {@code threads} threads. One that fails stops the others, and the run fails once they have
     * ended, in one line naming it: its ExecutionException went to the launcher as a bug (a stack trace), and the cache
     * was closed under the others, which ran on through their share.
     */
    private static void drive(String label, PagedFile file, long pages, Mix mix, long ops, int threads, long seed)
        throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicBoolean stop = new AtomicBoolean();
        Throwable failure = null;
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long share = ops / threads + (t < ops % threads ? 1 : 0);
                long threadSeed = seed * 1_000_003 + t;
                futures.add(pool.submit(() -> {
                    try {
                        return work.run(file, pages, mix, share, threadSeed, stop);
                    } catch (IOException | RuntimeException | Error e) {
                        stop.set(true);
                        throw e;
                    }
                }));
            }
            for (Future<Long> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    failure = failure == null ? e.getCause() : failure; // the first thread's, in order
                }
            }
        } finally {
            pool.shutdown();
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            // its message, else its class: a ClosedChannelException has none, and the line said 'failed: null'
            String what = "a thread of " + label + " failed: "
                + (failure.getMessage() != null ? failure.getMessage() : failure.toString());
            throw failure instanceof IOException ? new IOException(what, failure) : new IllegalStateException(what, failure);
        }
    }

    /** One thread's share of a phase's operations, until {@code stop}. */
    interface Work {
        long run(PagedFile file, long pages, Mix mix, long ops, long seed, AtomicBoolean stop) throws IOException;
    }

    /** The threads' loop; tests put one that fails in its place. */
    static volatile Work work = NvmRun::work;

    private static long work(PagedFile file, long pages, Mix mix, long ops, long seed, AtomicBoolean stop)
        throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        long[] op = new long[2];
        long sum = 0;
        int lastLong = file.pageSize() - Long.BYTES;
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (long i = 0; i < ops && ((i & 255) != 0 || !stop.get()); i++) {
                mix.next(random, pages, op);
                if (op[1] == 1) {
                    try (PageCursor writer = file.io(op[0], PagedFile.PF_SHARED_WRITE_LOCK)) {
                        writer.next();
                        writer.putLong(Long.BYTES, i);
                    }
                } else if (reader.next(op[0])) {
                    long first;
                    long last;
                    do {
                        first = reader.getLong(0);
                        last = reader.getLong(lastLong);
                    } while (reader.shouldRetry());
                    if (first != op[0] || last != op[0]) {
                        throw new IllegalStateException("page " + op[0] + " read back as page " + first + " / " + last);
                    }
                    sum += first;
                }
            }
        }
        return sum;
    }
}
