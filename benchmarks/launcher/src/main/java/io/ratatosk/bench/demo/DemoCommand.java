package io.ratatosk.bench.demo;

import io.ratatosk.bench.jmh.ThreadCounts;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.ScratchFiles;
import io.ratatosk.bench.sim.DiskSpace;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A short, real demonstration of the page cache: a file ten times the cache, hammered from several
 * threads with skewed random reads and some writes, once per policy; prints throughput, hit ratio and
 * counters side by side, then verifies every page after a close and reopen.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Map a file ten times the cache, hammer it from several threads under each policy, print hit ratios and counters.")
public final class DemoCommand implements Callable<Integer> {
    private static final int PAGE = 8192;
    /** The longest run per policy: a day. */
    private static final double MAX_SECONDS = 86_400;

    @Option(names = "--cache", description = "Cache size (default: ${DEFAULT-VALUE}).", defaultValue = "16m")
    String cache;

    @Option(names = "--file-factor", description = "File size as a multiple of the cache (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int fileFactor;

    @Option(names = "--threads", description = "Threads (default: ${DEFAULT-VALUE}).", defaultValue = "4")
    int threads;

    @Option(names = "--seconds", description = "Seconds per policy (default: ${DEFAULT-VALUE}).", defaultValue = "3")
    double seconds;

    @Option(names = "--policies",
        description = "Policies to compare, with overrides as in ./bench sim, e.g. global-clock:max_usage=4; default stands for"
            + " the page cache's default policy and runs first, under its name (default: ${DEFAULT-VALUE}).",
        defaultValue = "default,muninn,global-clock")
    String policies;

    @Option(names = "--skew", description = "Skew of page ids: page = pages x u^skew (default: ${DEFAULT-VALUE}; 1 = uniform).",
        defaultValue = "4")
    double skew;

    @Spec
    private CommandSpec commandSpec;

    /**
     * Writers of one page take its stripe first. The cache's write locks are shared (docs/architecture.md: coordinating
     * writers is the caller's job, as a store's record locks do): two threads adding 1 to a page's version at once lost
     * one of the two, so the versions could not count the writes.
     */
    private final Object[] writeStripes = new Object[1024];

    {
        for (int i = 0; i < writeStripes.length; i++) {
            writeStripes[i] = new Object();
        }
    }

    @Override
    public Integer call() throws Exception {
        checkCounts();
        PageCacheConfig base;
        Map<String, PageCacheConfig> configs = new LinkedHashMap<>();
        try { // every policy before the file is written: a typo in the last one is not found after the others ran
            try { // named as the user wrote it: pagecache.memory's refusal alone named a flag they never wrote
                base = PageCacheConfig.parse(Map.of("pagecache.memory", cache, "pagecache.page_size", "8k"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--cache " + cache + ": " + e.getMessage(), e);
            }
            PolicyCatalog catalog = PolicyCatalog.standard();
            for (PolicySpec spec : catalog.parsePageCacheList("--policies", policies)) { // name[:flag=value]..., as in sim
                try { // flags that hold alone and not together (cold_min above cold_max): named as the user wrote them
                    configs.put(spec.text(), base.with("pagecache.policy", spec.name()).withAll(spec.flags()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--policies " + spec.text() + ": " + e.getMessage(), e);
                }
            }
            if (configs.isEmpty()) {
                throw new IllegalArgumentException("--policies names no policy: '" + policies + "'");
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandSpec.commandLine(), e.getMessage());
        }
        PrintStream out = System.out;
        ScratchFiles scratch = ScratchFiles.create(null, "ratatosk-demo"); // deleted also when the demo is stopped (Ctrl-C)
        Path dir = scratch.folder();
        Path path = dir.resolve("demo.db");
        try (CleanUp deleteScratch = CleanUp.closing(List.of(scratch))) { // its failure said after the run's
            long pages = (long) base.frames() * fileFactor;
            DiskSpace.require(dir, DiskSpace.bytes(pages, PAGE), "--cache " + cache + " x --file-factor " + fileFactor);
            System.err.printf(Locale.ROOT, "demo: writing %d pages (%s) of %s, %d times a %s cache%n",
                pages, size(pages * PAGE), path, fileFactor, cache);
            write(base, path, pages);
            out.printf(Locale.ROOT, "%-26s %10s %9s %10s %10s %12s %12s %12s%n",
                "policy", "ops/s", "hit%", "faults", "evictions", "background", "cooperative", "writes");
            long writes = 0; // page writes of every policy's run, each adding 1 to its page's version
            for (Map.Entry<String, PageCacheConfig> e : configs.entrySet()) {
                String policy = e.getKey();
                Result r = hammer(policy, e.getValue(), path, pages);
                writes += r.writes;
                PageCacheStats s = r.stats;
                out.printf(Locale.ROOT, "%-26s %10.0f %8.2f%% %10d %10d %12d %12d %12d%n", policy, r.opsPerSecond,
                    100 * s.hitRatio(), s.faults(), s.evictions(), s.backgroundEvictions(), s.cooperativeEvictions(),
                    s.evictionWrites() + s.flushedPages());
            }
            if (configs.size() > 1) {
                out.println("(each run starts from a cold cache, and the first also while the JIT compiles: ./bench throughput"
                    + " and ./bench jmh measure)");
            }
            verify(base, path, pages, writes);
            out.printf(Locale.ROOT, "verified: every page holds its last write after close and reopen (%d writes)%n", writes);
            return 0;
        }
    }

    /** {@code bytes} in MiB, as ldbc says sizes, or in KiB below one: a file of 64 pages was "(0 MiB)". */
    static String size(long bytes) {
        return bytes < 1 << 20 ? (bytes >> 10) + " KiB" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** Each count in its range, the flag and its value named: all of them at once. */
    private void checkCounts() {
        List<String> wrong = new ArrayList<>();
        if (!ThreadCounts.inRange(List.of(threads))) { // 99999999 died of "unable to create native thread"
            wrong.add(ThreadCounts.outOfRange("--threads", threads));
        }
        if (fileFactor < 1) {
            wrong.add("--file-factor must be at least 1: " + fileFactor);
        }
        // Infinity or 1e10 would overflow the deadline in nanoseconds: nothing measured, zeros reported.
        if (!(seconds > 0 && seconds <= MAX_SECONDS)) {
            wrong.add("--seconds must be above 0 and at most " + (long) MAX_SECONDS + " (a day): " + seconds);
        }
        if (!(skew >= 1) || Double.isInfinite(skew)) {
            wrong.add("--skew must be a finite number of at least 1 (1 = uniform): " + skew);
        }
        if (!wrong.isEmpty()) {
            throw new CommandLine.ParameterException(commandSpec.commandLine(), String.join("; ", wrong));
        }
    }

    private record Result(double opsPerSecond, long writes, PageCacheStats stats) {
    }

    /** What one thread did: operations, of which {@code writes} page writes. */
    record Counts(long ops, long writes) {
    }

    /** One worker's run until {@code deadline}, or until {@code stop} is set. */
    interface Worker {
        Counts run(DemoCommand demo, PagedFile file, long pages, long deadline, AtomicBoolean stop, long seed)
            throws IOException;
    }

    /** The workers' loop; tests put one that fails in its place. */
    static volatile Worker worker = DemoCommand::run;

    static void write(PageCacheConfig config, Path path, long pages) throws IOException {
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE);
             PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            for (long p = 0; p < pages; p++) {
                c.next(p);
                c.putLong(0, p);
                c.putLong(8, 0); // version
            }
        }
    }

    /**
     * A worker's failure, named with its policy: as an ExecutionException the launcher took an IOException for a bug
     * and printed a stack trace. An IOException stays one (one line, exit 1); anything else is a bug, with its trace.
     */
    private static Exception workerFailure(String policy, Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        // its message, else its class: a ClosedChannelException has none, and the line said 'failed: null'
        String what = "a worker of " + policy + " failed: "
            + (failure.getMessage() != null ? failure.getMessage() : failure.toString());
        return failure instanceof IOException ? new IOException(what, failure) : new IllegalStateException(what, failure);
    }

    private Result hammer(String policy, PageCacheConfig config, Path path, long pages) throws Exception {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long ops = 0;
        long writes = 0;
        long start = System.nanoTime();
        PageCacheStats stats;
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicBoolean stop = new AtomicBoolean();
            try {
                List<Future<Counts>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long seed = t;
                    futures.add(pool.submit(() -> {
                        try {
                            return worker.run(this, file, pages, deadline, stop, seed);
                        } catch (IOException | RuntimeException | Error e) {
                            stop.set(true); // the others stop too, not at the deadline (a day at most)
                            throw e;
                        }
                    }));
                }
                for (Future<Counts> f : futures) {
                    Counts counts;
                    try {
                        counts = f.get();
                    } catch (ExecutionException e) {
                        throw workerFailure(policy, e.getCause());
                    }
                    ops += counts.ops();
                    writes += counts.writes();
                }
            } finally {
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
            }
            stats = cache.stats();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Result(ops / elapsed, writes, stats);
    }

    private Counts run(PagedFile file, long pages, long deadline, AtomicBoolean stop, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        long ops = 0;
        long writes = 0;
        try (PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            while ((ops & 255) != 0 || System.nanoTime() - deadline < 0 && !stop.get()) { // nanoTime may wrap
                long page = (long) (pages * Math.pow(random.nextDouble(), skew));
                if (random.nextInt(10) == 0) {
                    synchronized (writeStripes[(int) (page % writeStripes.length)]) {
                        try (PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK)) {
                            w.next();
                            w.putLong(8, w.getLong(8) + 1);
                        }
                    }
                    writes++;
                } else {
                    reader.next(page);
                    long id;
                    do {
                        id = reader.getLong(0);
                    } while (reader.shouldRetry());
                    if (id != page) {
                        throw new IllegalStateException("page " + page + " holds page " + id + ": the cache is broken");
                    }
                }
                ops++;
            }
        }
        return new Counts(ops, writes);
    }

    /**
     * Every page holds its own id, and the versions of all pages add up to {@code writes}: each write added 1 to its
     * page's, so a write lost (a dirty page dropped, or written back stale) makes the sum fall short. The ids alone
     * said "every page holds its last write" of a file whose writes were lost.
     */
    static void verify(PageCacheConfig config, Path path, long pages, long writes) throws IOException {
        long versions = 0;
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE, false);
             PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (long p = 0; p < pages; p++) {
                if (!c.next(p)) {
                    throw new IllegalStateException("page " + p + " is missing after reopen");
                }
                long id;
                long version;
                do {
                    id = c.getLong(0);
                    version = c.getLong(8);
                } while (c.shouldRetry());
                if (id != p) {
                    throw new IllegalStateException("page " + p + " holds page " + id + " after reopen");
                }
                versions += version;
            }
        }
        if (versions != writes) {
            throw new IllegalStateException("the pages hold " + versions + " writes after reopen, but " + writes
                + " were made: " + (versions < writes ? "writes were lost" : "pages were written that no thread wrote"));
        }
    }
}
