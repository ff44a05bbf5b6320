package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.nvm.NvmTierStats;
import io.ratatosk.pagecache.OperationsFlags;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Runs the read workload on a loaded store for one policy at one cache size: opens a page cache
 * (with the NVM tier when asked), runs the warm-up from a cold cache, then the measured phase, each
 * thread with its own {@link OperationStream} and {@link StoreReader}, and reports what the cache
 * counted over the measured phase.
 */
public final class LdbcRun {
    /** What every run of one invocation shares. */
    public record Settings(Path storeDir, SubstitutionParameters parameters, int threads, Budget warmup,
                           Budget measured, long seed, boolean nvm, Map<String, String> cacheFlags,
                           Map<String, String> nvmFlags) {
        /** The same, measuring {@code budget} instead. */
        public Settings measuring(Budget budget) {
            return new Settings(storeDir, parameters, threads, warmup, budget, seed, nvm, cacheFlags, nvmFlags);
        }
    }

    private final Settings settings;
    private final ProgressOutput progress;

    public LdbcRun(Settings settings, ProgressOutput progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /**
     * Runs {@code policy} at {@code cache}; {@code dump} and {@code recorder} (each may be null)
     * receive every executed query's rows and every pin.
     */
    public RunResult execute(PolicySpec policy, CacheSpec cache, long storeBytes, ResultDump dump,
                             TraceRecorder recorder) throws IOException {
        PageCacheConfig config = config(policy, cache, storeBytes);
        long cacheBytes = config.memoryBytes();
        NvmSwapStore nvm = settings.nvm() ? nvmTier(config, storeBytes) : null;
        String name = policy.text() + " @ " + cache.text();
        try (PageCache pageCache = nvm == null ? PageCache.open(config) : PageCache.open(config, nvm);
             GraphStore store = GraphStore.open(settings.storeDir(), pageCache, recorder)) {
            Worker[] workers = new Worker[settings.threads()];
            for (int t = 0; t < workers.length; t++) {
                workers[t] = new Worker(store.meta(), t);
            }
            long total = settings.warmup().isDuration() || settings.measured().isDuration() ? 0
                : settings.warmup().operations() + settings.measured().operations();
            try (ProgressOutput.Task task = progress.task(name, total > 0 ? total
                : (settings.warmup().nanos() + settings.measured().nanos()) / 1_000_000_000L, total > 0 ? "ops" : "s", 1)) {
                PageCacheStats start = pageCache.stats();
                Phase warm = phase(store, workers, settings.warmup(), false, dump, total > 0 ? task : null);
                flush(recorder);
                if (total == 0) {
                    task.stepBy(settings.warmup().nanos() / 1_000_000_000L);
                }
                PageCacheStats before = pageCache.stats();
                NvmTierStats nvmBefore = nvm == null ? null : nvm.stats();
                Phase measured = phase(store, workers, settings.measured(), true, dump, total > 0 ? task : null);
                flush(recorder);
                PageCacheStats after = pageCache.stats();
                NvmCounters nvmCounters = nvm == null ? null : NvmCounters.between(nvmBefore, nvm.stats());
                if (total == 0) {
                    task.stepBy(settings.measured().nanos() / 1_000_000_000L);
                }
                Map<QueryType, Histogram> latencies = new EnumMap<>(QueryType.class);
                for (Worker w : workers) {
                    w.latencies.forEach((type, h) -> latencies.computeIfAbsent(type, k -> new Histogram(3)).add(h));
                }
                return new RunResult(policy.text(), cache.text(), cacheBytes, config.frames(), storeBytes,
                    settings.threads(), warm.operations(), measured.operations(), measured.seconds(),
                    RunResult.between(before, after), RunResult.between(start, after), latencies, nvmCounters);
            }
        }
    }

    /**
     * The flags of one run. The warm-up after a restart is off unless asked for ({@code --set
     * pagecache.warmup.enabled=true}, or {@link #restart}): every run starts cold, whatever the run before it
     * left in the store's profiles.
     */
    private PageCacheConfig config(PolicySpec policy, CacheSpec cache, long storeBytes) {
        Map<String, String> flags = new LinkedHashMap<>(settings.cacheFlags());
        flags.putIfAbsent(OperationsFlags.WARMUP_ENABLED.name(), "false");
        int pageSize = PageCacheConfig.parse(flags).pageSize();
        long cacheBytes = cache.bytesFor(storeBytes, pageSize);
        flags.put("pagecache.memory", Long.toString(cacheBytes));
        flags.put("pagecache.policy", policy.name());
        flags.putAll(policy.flags());
        return PageCacheConfig.parse(flags);
    }

    /**
     * What {@code --restart} reports for one policy and cache size: the steady hit ratio of a full run, and
     * how many operations a restarted cache needs, with and without the warm-up, until a window of
     * {@code windowOps} operations reaches 90% of it ({@code -1}: not within {@code maxOps}).
     */
    public record RestartResult(String policy, String cache, double steadyHitRatio, long windowOps, long maxOps,
                                long warmOpsTo90, long coldOpsTo90, long pagesReheated) {
        public String line() {
            return String.format(Locale.ROOT, "%s @ %s: steady hit ratio %.4f; operations to 90%% of it after a"
                    + " restart (windows of %d, at most %d): with warm-up %s (%d pages reheated), cold %s", policy, cache,
                steadyHitRatio, windowOps, maxOps, text(warmOpsTo90), pagesReheated, text(coldOpsTo90));
        }

        private static String text(long ops) {
            return ops < 0 ? "not reached" : Long.toString(ops);
        }
    }

    /**
     * Runs the warm-up and measured budgets (their profile written at close), then restarts twice on the same
     * operation stream: with the warm-up (which reheats from that profile; the queries start once the reheat is
     * done), and cold. One thread of queries, so both restarts see the same operations in the same order.
     */
    public RestartResult restart(PolicySpec policy, CacheSpec cache, long storeBytes, long windowOps) throws IOException {
        PageCacheConfig warmConfig = config(policy, cache, storeBytes).with(OperationsFlags.WARMUP_ENABLED.name(), "true");
        double steady;
        try (PageCache pageCache = PageCache.open(warmConfig); GraphStore store = GraphStore.open(settings.storeDir(), pageCache, null)) {
            Worker[] workers = {new Worker(store.meta(), 0)};
            phase(store, workers, settings.warmup(), false, null, null);
            PageCacheStats before = pageCache.stats();
            phase(store, workers, settings.measured(), false, null, null);
            steady = RunResult.between(before, pageCache.stats()).hitRatio();
        }
        long maxOps = settings.warmup().operations() + settings.measured().operations();
        long[] warm = opsToReach(warmConfig, 0.9 * steady, windowOps, maxOps);
        long[] cold = opsToReach(warmConfig.with(OperationsFlags.WARMUP_ENABLED.name(), "false"), 0.9 * steady, windowOps, maxOps);
        return new RestartResult(policy.text(), cache.text(), steady, windowOps, maxOps, warm[0], cold[0], warm[1]);
    }

    /** {operations until a window's hit ratio reaches {@code target} (or -1), pages reheated before the queries}. */
    private long[] opsToReach(PageCacheConfig config, double target, long windowOps, long maxOps) throws IOException {
        try (PageCache pageCache = PageCache.open(config); GraphStore store = GraphStore.open(settings.storeDir(), pageCache, null)) {
            long reheated = awaitReheat(pageCache);
            Worker[] workers = {new Worker(store.meta(), 0)};
            long done = 0;
            while (done < Math.max(maxOps, windowOps)) {
                PageCacheStats before = pageCache.stats();
                done += phase(store, workers, Budget.operations(windowOps), false, null, null).operations();
                if (RunResult.between(before, pageCache.stats()).hitRatio() >= target) {
                    return new long[] {done, reheated};
                }
            }
            return new long[] {-1, reheated};
        }
    }

    /** Waits until the warm-up has stopped reheating (no page for 100 ms, at most a minute); returns the pages it reheated. */
    private static long awaitReheat(PageCache pageCache) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        long last = -1;
        long now = pageCache.stats().io().pagesReheated();
        while (now != last && System.nanoTime() < deadline) {
            last = now;
            LockSupport.parkNanos(100_000_000L);
            now = pageCache.stats().io().pagesReheated();
        }
        return now;
    }

    private NvmSwapStore nvmTier(PageCacheConfig config, long storeBytes) {
        Map<String, String> nvmFlags = new LinkedHashMap<>(settings.nvmFlags());
        // By default the tier can hold the whole store: DRAM frames in front of an NVM copy of it.
        int pageSize = config.pageSize();
        long capacity = (storeBytes + pageSize - 1) / pageSize * pageSize;
        nvmFlags.putIfAbsent(NvmDeviceConfig.CAPACITY, Long.toString(Math.max(capacity, 2L * pageSize)));
        return new NvmSwapStore(NvmDeviceConfig.from(config.withAll(nvmFlags)),
            new FileSwapperFactory(OperationsFlags.directIo(config)));
    }

    private static void flush(TraceRecorder recorder) {
        if (recorder != null) {
            recorder.flush();
        }
    }

    private record Phase(long operations, double seconds) {
    }

    /** Runs the threads of one phase to the end of its budget; a failing query stops them all. */
    private Phase phase(GraphStore store, Worker[] workers, Budget budget, boolean measure, ResultDump dump,
                        ProgressOutput.Task task) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[workers.length];
        long[] done = new long[workers.length];
        long deadline = budget.isDuration() ? System.nanoTime() + budget.nanos() : Long.MAX_VALUE;
        long start = System.nanoTime();
        for (int t = 0; t < workers.length; t++) {
            int index = t;
            long quota = budget.isDuration() ? Long.MAX_VALUE
                : budget.operations() / workers.length + (t < budget.operations() % workers.length ? 1 : 0);
            threads[t] = new Thread(() -> {
                try {
                    done[index] = workers[index].run(store, quota, deadline, measure, dump, task, failure);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "ldbc-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Throwable e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        }
        if (e instanceof RuntimeException re) {
            throw re;
        }
        if (e instanceof Error err) {
            throw err;
        }
        long ops = 0;
        for (long d : done) {
            ops += d;
        }
        return new Phase(ops, seconds);
    }

    /** One thread's state across the phases of a run: its operation stream and latency histograms. */
    private final class Worker implements OperationStream.Fallback {
        private final StoreMeta meta;
        private final OperationStream stream;
        private final Map<QueryType, Histogram> latencies = new EnumMap<>(QueryType.class);
        private StoreReader reader;

        Worker(StoreMeta meta, int thread) {
            this.meta = meta;
            this.stream = new OperationStream(settings.parameters(), this, settings.seed(), thread);
        }

        long run(GraphStore store, long quota, long deadline, boolean measure, ResultDump dump,
                 ProgressOutput.Task task, AtomicReference<Throwable> failure) throws IOException {
            long done = 0;
            try (StoreReader r = store.newReader()) {
                reader = r;
                LdbcQueries queries = new LdbcQueries(r);
                while (done < quota && failure.get() == null && (deadline == Long.MAX_VALUE || System.nanoTime() < deadline)) {
                    Query q = stream.next();
                    long t0 = System.nanoTime();
                    List<List<Object>> rows;
                    try {
                        rows = queries.run(q);
                    } catch (IOException | RuntimeException e) {
                        throw new IllegalStateException(q + " failed: " + e.getMessage(), e);
                    }
                    long elapsed = System.nanoTime() - t0;
                    stream.completed(q, rows);
                    if (measure) {
                        latencies.computeIfAbsent(q.type(), k -> new Histogram(3)).recordValue(Math.max(1, elapsed));
                    }
                    if (dump != null) {
                        dump.write(q, rows);
                    }
                    done++;
                    if (task != null) {
                        task.stepBy(1);
                    }
                }
            } finally {
                reader = null;
            }
            return done;
        }

        @Override
        public long randomPerson(SplittableRandom random) throws IOException {
            return randomNode(Label.PERSON, random);
        }

        @Override
        public long randomMessage(SplittableRandom random) throws IOException {
            StoreMeta.NodeRange posts = meta.range(Label.POST);
            StoreMeta.NodeRange comments = meta.range(Label.COMMENT);
            long total = posts.count() + comments.count();
            if (total == 0) {
                return -1;
            }
            long pick = random.nextLong(total);
            long node = pick < posts.count() ? posts.first() + pick : comments.first() + pick - posts.count();
            return reader.ldbcId((int) node);
        }

        private long randomNode(Label label, SplittableRandom random) throws IOException {
            StoreMeta.NodeRange range = meta.range(label);
            if (range.count() == 0) {
                throw new UncheckedIOException(new IOException("the store has no " + label + " node"));
            }
            return reader.ldbcId((int) (range.first() + random.nextLong(range.count())));
        }
    }
}
