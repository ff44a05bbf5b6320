package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.Label;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.PinRecorder;
import io.ratatosk.bench.ldbc.store.StoreFile;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.ldbc.store.StoreUpdater;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.ldbc.update.UpdateApplier;
import io.ratatosk.bench.ldbc.update.UpdateType;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.nvm.NvmTierStats;
import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.pagecache.OperationsFlags;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.internal.Failures;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.internal.MachineMemory;
import io.ratatosk.pagecache.warmup.ResidentProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.HdrHistogram.Histogram;

/**
 * Runs the workload on a loaded store for one policy at one cache size: opens a page cache (with the
 * NVM tier when asked), runs the warm-up from a cold cache, then the measured phase, each thread with
 * its own {@link OperationStream} and {@link StoreReader}, the update stream (if any) interleaved
 * with the reads at LDBC's ratio, and reports what the cache counted over the measured phase.
 */
public final class LdbcRun {
    /** What every run of one invocation shares. */
    /**
     * @param updates the update stream to interleave with the reads, in execution order; empty for
     *                reads only (the store is then opened where it lies, else on a copy, see
     *                {@link #updatedStoreDir})
     */
    public record Settings(Path storeDir, SubstitutionParameters parameters, int threads, Budget warmup,
                           Budget measured, long seed, boolean nvm, Map<String, String> cacheFlags,
                           Map<String, String> nvmFlags, List<Update> updates) {
        /** The same, measuring {@code budget} instead. */
        public Settings measuring(Budget budget) {
            return new Settings(storeDir, parameters, threads, warmup, budget, seed, nvm, cacheFlags, nvmFlags, updates);
        }
    }

    /**
     * Where a run with updates works: a fresh copy of the loaded store, made before each run so that
     * every policy starts from the same data and applies the same updates; it stays after the run,
     * closed with every update in it.
     */
    public static Path updatedStoreDir(Path storeDir) {
        return storeDir.resolveSibling(storeDir.getFileName() + "-updated");
    }

    private static Path copyForUpdates(Path storeDir) throws IOException {
        Path copy = updatedStoreDir(storeDir);
        Files.createDirectories(copy);
        GraphStore.delete(copy);
        for (StoreFile f : StoreFile.values()) {
            Files.copy(storeDir.resolve(f.fileName()), copy.resolve(f.fileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        // The marker last, as a load writes it.
        Files.copy(storeDir.resolve(GraphStore.META_FILE), copy.resolve(GraphStore.META_FILE),
            StandardCopyOption.REPLACE_EXISTING);
        return copy;
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
        String name = policy.text() + " @ " + cache.text();
        boolean updating = !settings.updates().isEmpty();
        Path storeDir = updating ? copyForUpdates(settings.storeDir()) : settings.storeDir();
        // Made last before the open: a tier made before the store's copy, whose failure (a full disk) came first, was
        // never closed, its device's memory held for the rest of the runs.
        NvmSwapStore nvm = settings.nvm() ? nvmTier(config, storeBytes) : null;
        try (PageCache pageCache = nvm == null ? PageCache.open(config) : openOver(config, nvm);
             GraphStore store = GraphStore.open(storeDir, pageCache, recorder);
             StoreUpdater updater = updating ? store.newUpdater() : null) {
            Updates updates = updating
                ? new Updates(store, new UpdateSchedule(settings.updates()), new UpdateApplier(updater)) : null;
            Worker[] workers = new Worker[settings.threads()];
            for (int t = 0; t < workers.length; t++) {
                workers[t] = new Worker(store.meta(), t, updates);
            }
            long total = settings.warmup().isDuration() || settings.measured().isDuration() ? 0
                : settings.warmup().operations() + settings.measured().operations();
            try (ProgressOutput.Task task = progress.task(name, total > 0 ? total
                : (settings.warmup().nanos() + settings.measured().nanos()) / 1_000_000_000L, total > 0 ? "ops" : "s", 1)) {
                PageCacheStats start = pageCache.stats();
                // In seconds where a phase is a time: stepped while that phase runs (it was only after it, a bar
                // standing still and no line for the whole of --duration 10m), an operation count's phase not at all.
                // The seconds of both phases counted together, in nanoseconds: each phase's own whole seconds summed fell
                // short of the task's (0.5s and 1.5s ended at 0 + 1 of 2), a finished run's bar left below its end.
                boolean bySeconds = total == 0;
                long warmNanos = settings.warmup().nanos();
                Phase warm = phase(store, workers, settings.warmup(), false, dump, bySeconds ? null : task,
                    bySeconds ? task : null, 0);
                flush(recorder);
                if (bySeconds) {
                    task.stepTo(warmNanos / 1_000_000_000L);
                }
                PageCacheStats before = pageCache.stats();
                NvmTierStats nvmBefore = nvm == null ? null : nvm.stats();
                Phase measured = phase(store, workers, settings.measured(), true, dump, bySeconds ? null : task,
                    bySeconds ? task : null, warmNanos);
                flush(recorder);
                PageCacheStats after = pageCache.stats();
                NvmCounters nvmCounters = nvm == null ? null : NvmCounters.between(nvmBefore, nvm.stats());
                if (bySeconds) {
                    // the task's whole: its seconds, at least the 1 a task of less than a second counts
                    task.stepTo(Math.max(1, (warmNanos + settings.measured().nanos()) / 1_000_000_000L));
                }
                Map<QueryType, Histogram> latencies = new EnumMap<>(QueryType.class);
                Map<UpdateType, Histogram> updateLatencies = new EnumMap<>(UpdateType.class);
                Map<QueryType, long[]> pins = new EnumMap<>(QueryType.class);
                for (Worker w : workers) {
                    w.latencies.forEach((type, h) -> latencies.computeIfAbsent(type, k -> new Histogram(3)).add(h));
                    w.updateLatencies.forEach((type, h) ->
                        updateLatencies.computeIfAbsent(type, k -> new Histogram(3)).add(h));
                    w.pins.forEach((type, c) -> {
                        long[] sum = pins.computeIfAbsent(type, k -> new long[2]);
                        sum[0] += c[0];
                        sum[1] += c[1];
                    });
                }
                long updatesApplied = updates == null ? 0 : updates.schedule.taken();
                task.finished();
                return new RunResult(policy.text(), cache.text(), cacheBytes, config.frames(), storeBytes,
                    settings.threads(), warm.operations(), measured.operations(), measured.seconds(),
                    RunResult.between(before, after), RunResult.between(start, after), latencies, nvmCounters,
                    updateLatencies, pins, updatesApplied, updates == null ? 0 : updates.schedule.size());
            }
        }
    }

    /**
     * The flags of one run. The warm-up after a restart is off unless asked for ({@code --set
     * pagecache.warmup.enabled=true}, or {@link #restart}): every run starts cold, whatever the run before it
     * left in the store's profiles.
     */
    private PageCacheConfig config(PolicySpec policy, CacheSpec cache, long storeBytes) {
        // The page size first, at the stand-in size (what depends on its frame count left out): the cache's own size
        // depends on it.
        int pageSize = parseWithoutTheSize(flags(settings.cacheFlags(), policy, ANY_SIZE)).pageSize();
        return PageCacheConfig.parse(flags(settings.cacheFlags(), policy, cache.bytesFor(storeBytes, pageSize)));
    }

    /** 512 GiB: the page memory at which the flags are parsed before the cache's size is known. */
    private static final long ANY_SIZE = 512L << 30;

    private static Map<String, String> flags(Map<String, String> cacheFlags, PolicySpec policy, long cacheBytes) {
        Map<String, String> flags = new LinkedHashMap<>(cacheFlags);
        flags.putIfAbsent(OperationsFlags.WARMUP_ENABLED.name(), "false");
        flags.put("pagecache.memory", Long.toString(cacheBytes));
        flags.put("pagecache.policy", policy.name());
        flags.putAll(policy.flags());
        return flags;
    }

    /**
     * Refuses, before the data is generated and loaded, the flags no run of {@code policies} could open its cache
     * with: each policy's, {@code cacheFlags} (from {@code --set}) and, with the NVM tier, {@code nvmFlags}. The
     * cache's size is known only with the store's, so they are parsed at a stand-in size ({@value #ANY_SIZE} bytes),
     * and what depends on the frame count (a {@code keep_free} of more frames than the cache has) is left to
     * {@link #checkSizes} and {@link #checkRuns}, which name the real size. A page size below the
     * store's is refused here too: every store page must fit in a frame. Returns the page cache's page size.
     *
     * @throws IllegalArgumentException naming the flag and what is wrong with it
     */
    public static int checkFlags(Map<String, String> cacheFlags, Map<String, String> nvmFlags, List<PolicySpec> policies,
                                 boolean nvm) {
        // The page size first: below the store's, the stand-in's frame count can refuse a flag's default (clock-pro's
        // ghosts at 1k), which cannot be left out of the parse, and that refusal named the stand-in instead.
        try {
            if (pageSizeOf(cacheFlags) < StoreFile.PAGE_SIZE) {
                throw new IllegalArgumentException("pagecache.page_size=" + cacheFlags.get("pagecache.page_size") + ": the"
                    + " store's pages are " + StoreFile.PAGE_SIZE + " bytes, and each must fit in one of the cache's pages");
            }
        } catch (InvalidConfigurationException e) {
            // the page size's own refusal: said by the parse below, with the other flags'
        }
        int pageSize = 0;
        for (PolicySpec policy : policies) {
            PageCacheConfig config;
            try {
                config = parseWithoutTheSize(flags(cacheFlags, policy, ANY_SIZE));
            } catch (IllegalArgumentException e) {
                // flags that hold alone and not together: named as the user wrote them
                if (policy.flags().keySet().stream().anyMatch(flag -> e.getMessage().startsWith(flag + "="))) {
                    throw new IllegalArgumentException("--policies " + policy.text() + ": " + e.getMessage(), e);
                }
                throw e;
            }
            pageSize = config.pageSize();
            if (nvm) {
                Map<String, String> tier = new LinkedHashMap<>(nvmFlags);
                tier.putIfAbsent(NvmDeviceConfig.CAPACITY, "1g"); // the store's size at run time
                NvmDeviceConfig.from(config.withAll(tier));
            }
        }
        return pageSize;
    }

    /** The page size of {@code flags}, parsed alone. */
    private static long pageSizeOf(Map<String, String> flags) {
        String pageSizeFlag = PageCacheFlags.PAGE_SIZE.name();
        Map<String, String> paging = new LinkedHashMap<>(Map.of(PageCacheFlags.MEMORY.name(), Long.toString(ANY_SIZE)));
        Optional.ofNullable(flags.get(pageSizeFlag)).ifPresent(value -> paging.put(pageSizeFlag, value));
        return PageCacheConfig.parse(paging).pageSize();
    }

    /**
     * {@code flags} parsed at {@link #ANY_SIZE}, less the flags refused for that size's frame count (a {@code keep_free}
     * of more frames than it has): their refusals named the stand-in's memory and frame counts, which the user never
     * gave, and refused flags a real size can hold. They are left to {@link #checkSizes} and {@link #checkRuns}, whose
     * refusals name the real size; but what every size refuses ({@link #refusedAtEverySize}) is refused here.
     */
    private static PageCacheConfig parseWithoutTheSize(Map<String, String> flags) {
        String standIn = PageCacheFlags.MEMORY.name() + "=" + ANY_SIZE;
        Map<String, String> left = new LinkedHashMap<>(flags);
        while (true) {
            try {
                return PageCacheConfig.parse(left);
            } catch (InvalidConfigurationException e) {
                List<InvalidConfigurationException.Problem> sized = e.problems().stream()
                    .filter(p -> p.message().contains(standIn)).toList();
                if (sized.isEmpty()) {
                    throw e;
                }
                // Another flag's refusal, and what no cache size holds (cold_min above cold_max as fractions): now, not
                // after the data is prepared.
                List<InvalidConfigurationException.Problem> now = new ArrayList<>(e.problems());
                now.removeAll(sized);
                for (InvalidConfigurationException.Problem p : sized) {
                    refusedAtEverySize(left, p.flag()).ifPresent(now::add);
                }
                if (!now.isEmpty()) {
                    throw new InvalidConfigurationException(now);
                }
                boolean removed = false;
                for (InvalidConfigurationException.Problem p : sized) {
                    removed |= !p.flag().equals(PageCacheFlags.MEMORY.name()) && left.remove(p.flag()) != null;
                }
                if (!removed) { // the stand-in itself refused: not to be met with a real page size
                    throw e;
                }
            }
        }
    }

    /**
     * {@code flag}'s refusal where every cache size refuses it: each power of two of frames from 64 up to 1 TiB of them.
     * A refusal depends on the size on one side of a bound (a {@code keep_free} refused below it, a {@code ghosts} above),
     * and one flag's two bounds lie far apart (a count {@code cold_max} is refused below its count and above 100 times
     * it, cold_min's default 1%), so no size that holds it falls between two samples. Not below 64 frames: there a
     * fraction rounds to a frame or two, and 2 frames hold {@code cold_min=0.5:cold_max=0.1}. Said at 1g, which the user
     * did not give, so named as an example; empty where some size holds it.
     */
    private static Optional<InvalidConfigurationException.Problem> refusedAtEverySize(Map<String, String> flags,
                                                                                      String flag) {
        long pageSize = pageSizeOf(flags); // valid: a refused one leaves no frame count to refuse a flag for
        InvalidConfigurationException.Problem at1g = null;
        for (long memory = 64 * pageSize; memory <= 1L << 40; memory *= 2) {
            Map<String, String> at = new LinkedHashMap<>(flags);
            at.put(PageCacheFlags.MEMORY.name(), memory == 1L << 30 ? "1g" : Long.toString(memory));
            try {
                PageCacheConfig.parse(at);
                return Optional.empty();
            } catch (InvalidConfigurationException e) {
                if (e.problems().stream().anyMatch(p -> p.flag().equals(PageCacheFlags.MEMORY.name()))) {
                    continue; // more frames than a cache may have: no cache size
                }
                Optional<InvalidConfigurationException.Problem> refused = e.problems().stream()
                    .filter(p -> p.flag().equals(flag)).findFirst();
                if (refused.isEmpty()) {
                    return Optional.empty();
                }
                at1g = memory == 1L << 30 ? refused.get() : at1g;
            }
        }
        return at1g == null ? Optional.empty() : Optional.of(new InvalidConfigurationException.Problem(at1g.flag(),
            at1g.value(), at1g.message() + "; so at every cache size, not only this 1g"));
    }

    /**
     * Refuses, before the data is generated and loaded, the runs whose cache no page cache opens at a size given in
     * bytes ({@code 64m}; a share of the store waits for {@link #checkRuns}): {@code --cache 2000g} was refused only
     * after minutes of generating and loading, and a {@code keep_free} of more frames than {@code 1m} has as well.
     *
     * @throws IllegalArgumentException naming the policy, the size and what does not hold
     */
    public static void checkSizes(Map<String, String> cacheFlags, List<PolicySpec> policies, List<CacheSpec> caches,
                                  int pageSize) {
        for (CacheSpec cache : caches) {
            if (!cache.isAbsolute()) {
                continue;
            }
            for (PolicySpec policy : policies) {
                try {
                    refuseMoreThanTheMachineHas(PageCacheConfig.parse(flags(cacheFlags, policy, cache.bytesFor(0, pageSize))));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(policy.text() + " @ " + cache.text() + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Refuses a page memory larger than the machine's (its container's) memory, which the page cache refuses when it
     * opens: that was after the data was generated and loaded, minutes in at a large scale. An early usage check, and
     * an approximation of the page cache's own (PageMemory's), which stays the authority, said in one line too: it
     * counts the pages and their frames' metadata as that one does, but not what other caches of the JVM hold (a run
     * opens one cache at a time, and none is open while the data is prepared), nor the NVM tier's capacity, which the
     * tier checks when it opens. The page cache has no public call for its check.
     */
    private static PageCacheConfig refuseMoreThanTheMachineHas(PageCacheConfig config) {
        OptionalLong machine = MachineMemory.total();
        // The metadata too: pages that fit with metadata that did not passed here, and were refused at open.
        long metadata = (long) config.frames() * FrameDescriptor.FRAME_BYTES;
        if (machine.isPresent() && config.memoryBytes() + metadata > machine.getAsLong()) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%,d bytes of page memory and %,d bytes of"
                + " frame metadata (%d a frame), more than the %,d bytes of memory this machine (or its container) has",
                config.memoryBytes(), metadata, FrameDescriptor.FRAME_BYTES, machine.getAsLong()));
        }
        return config;
    }

    /**
     * What {@code --restart} reports for one policy and cache size: the steady hit ratio of a full run, how many
     * operations a restarted cache needs, with and without the warm-up, until a window of {@code windowOps}
     * operations reaches 90% of it ({@code -1}: not within {@code maxOps}), and the hit ratio of each restart's
     * first window: where the queries re-touch their own pages so much that a cold cache reaches 90% in its first
     * window too, that first window is where the warm-up shows.
     */
    public record RestartResult(String policy, String cache, double steadyHitRatio, long windowOps, long maxOps,
                                long warmOpsTo90, long coldOpsTo90, long pagesReheated, double warmFirstWindow,
                                double coldFirstWindow) {
        public String line() {
            return String.format(Locale.ROOT, "%s @ %s: steady hit ratio %.4f; operations to 90%% of it after a"
                    + " restart (windows of %d, at most %d): with warm-up %s (%d pages reheated), cold %s; first window's"
                    + " hit ratio: with warm-up %.4f, cold %.4f", policy, cache,
                steadyHitRatio, windowOps, maxOps, text(warmOpsTo90), pagesReheated, text(coldOpsTo90), warmFirstWindow,
                coldFirstWindow);
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
        // The full run from a cold cache: the profiles an earlier restart left beside the store (of another policy or size,
        // or of an earlier invocation) were reheated when it opened, and its steady hit ratio was that of a cache warmed by
        // them (0.98 to 0.99 after one operation on the sample, where a cold cache gives 0.94).
        for (StoreFile f : StoreFile.values()) {
            Files.deleteIfExists(settings.storeDir().resolve(f.fileName() + ResidentProfile.SUFFIX));
        }
        double steady;
        long maxOps;
        try (PageCache pageCache = PageCache.open(warmConfig); GraphStore store = GraphStore.open(settings.storeDir(), pageCache, null)) {
            Worker[] workers = {new Worker(store.meta(), 0, null)}; // reads only: a restart measures the reheat
            long warmOps = phase(store, workers, settings.warmup(), false, null, null, null, 0).operations();
            PageCacheStats before = pageCache.stats();
            long measuredOps = phase(store, workers, settings.measured(), false, null, null, null, 0).operations();
            steady = RunResult.between(before, pageCache.stats()).hitRatio();
            // What the full run did, not the budgets' operation counts: a --duration or a --warmup time counts none, and
            // the restarts got at most one window ("at most 0") to reach the target in.
            maxOps = warmOps + measuredOps;
        }
        Restarted warm = opsToReach(warmConfig, 0.9 * steady, windowOps, maxOps);
        Restarted cold = opsToReach(warmConfig.with(OperationsFlags.WARMUP_ENABLED.name(), "false"), 0.9 * steady, windowOps,
            maxOps);
        return new RestartResult(policy.text(), cache.text(), steady, windowOps, maxOps, warm.opsTo90(), cold.opsTo90(),
            warm.reheated(), warm.firstWindow(), cold.firstWindow());
    }

    /** One restart: operations until a window reached the target (or -1), pages reheated first, the first window's hit ratio. */
    private record Restarted(long opsTo90, long reheated, double firstWindow) {
    }

    private Restarted opsToReach(PageCacheConfig config, double target, long windowOps, long maxOps) throws IOException {
        try (PageCache pageCache = PageCache.open(config); GraphStore store = GraphStore.open(settings.storeDir(), pageCache, null)) {
            long reheated = awaitReheat(pageCache, OperationsFlags.warmupEnabled(config));
            Worker[] workers = {new Worker(store.meta(), 0, null)}; // reads only: a restart measures the reheat
            long done = 0;
            double first = Double.NaN;
            while (done < Math.max(maxOps, windowOps)) {
                PageCacheStats before = pageCache.stats();
                done += phase(store, workers, Budget.operations(windowOps), false, null, null, null, 0).operations();
                double ratio = RunResult.between(before, pageCache.stats()).hitRatio();
                if (Double.isNaN(first)) {
                    first = ratio;
                }
                if (ratio >= target) {
                    return new Restarted(done, reheated, first);
                }
            }
            return new Restarted(-1, reheated, first);
        }
    }

    /**
     * With the warm-up on, waits until it has started and then stopped reheating (no page for 500 ms: the
     * warmer pauses longer than 100 ms between files now and then; at most a minute); returns the pages it
     * reheated.
     */
    private static long awaitReheat(PageCache pageCache, boolean warmup) {
        if (!warmup) {
            return 0;
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        long startBy = System.nanoTime() + 5_000_000_000L; // a profile is read and the first page faulted by then
        long last = -1;
        long now = pageCache.stats().io().pagesReheated();
        while ((now != last || now == 0 && System.nanoTime() < startBy) && System.nanoTime() < deadline) {
            last = now;
            LockSupport.parkNanos(500_000_000L);
            now = pageCache.stats().io().pagesReheated();
        }
        return now;
    }

    /**
     * A cache in front of {@code nvm}, which closes it with itself; where the open fails, {@code nvm} stays the caller's
     * (PageCache.open keeps nothing of a failed open) and is closed here, its device's memory with it.
     */
    private static PageCache openOver(PageCacheConfig config, NvmSwapStore nvm) throws IOException {
        try {
            return PageCache.open(config, nvm);
        } catch (Throwable refused) {
            try {
                nvm.close();
            } catch (Throwable closing) {
                refused.addSuppressed(closing);
            }
            throw refused;
        }
    }

    private NvmSwapStore nvmTier(PageCacheConfig config, long storeBytes) {
        return new NvmSwapStore(nvmConfig(config, storeBytes), new FileSwapperFactory(OperationsFlags.directIo(config)));
    }

    private NvmDeviceConfig nvmConfig(PageCacheConfig config, long storeBytes) {
        Map<String, String> nvmFlags = new LinkedHashMap<>(settings.nvmFlags());
        // By default the tier can hold the whole store: DRAM frames in front of an NVM copy of it.
        int pageSize = config.pageSize();
        long capacity = (storeBytes + pageSize - 1) / pageSize * pageSize;
        nvmFlags.putIfAbsent(NvmDeviceConfig.CAPACITY, Long.toString(Math.max(capacity, 2L * pageSize)));
        return NvmDeviceConfig.from(config.withAll(nvmFlags));
    }

    /**
     * Parses every run's flags at its real cache size, before the first run: a flag that holds for some sizes and not
     * for others ({@code pagecache.evictor.keep_free=20} with 12 frames) failed that run after the runs before it, and
     * their results were lost with it. {@link #checkFlags} could not, the store's size being unknown then.
     *
     * @throws IllegalArgumentException naming the policy, the size and what does not hold
     */
    public void checkRuns(List<PolicySpec> policies, List<CacheSpec> caches, long storeBytes) {
        for (CacheSpec cache : caches) {
            for (PolicySpec policy : policies) {
                try {
                    PageCacheConfig config = refuseMoreThanTheMachineHas(config(policy, cache, storeBytes));
                    if (settings.nvm()) {
                        nvmConfig(config, storeBytes);
                    }
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(policy.text() + " @ " + cache.text() + ": " + e.getMessage(), e);
                }
            }
        }
    }

    private static void flush(TraceRecorder recorder) {
        if (recorder != null) {
            recorder.flush();
        }
    }

    private record Phase(long operations, double seconds) {
    }

    /** How often a phase's seconds are stepped on a task that counts them: as often as a bar is redrawn. */
    private static final long CLOCK_STEP_MILLIS = 250;

    /**
     * Runs the threads of one phase to the end of its budget; a failing query stops them all. {@code task} (or null)
     * counts the operations; {@code clock} (or null) counts seconds, stepped to the whole seconds of {@code clockFrom}
     * (nanoseconds: the phases before) plus the time of a timed phase gone by while it runs.
     */
    private Phase phase(GraphStore store, Worker[] workers, Budget budget, boolean measure, ResultDump dump,
                        ProgressOutput.Task task, ProgressOutput.Task clock, long clockFrom) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[workers.length];
        long[] done = new long[workers.length];
        long deadline = budget.isDuration() ? System.nanoTime() + budget.nanos() : Long.MAX_VALUE;
        long start = System.nanoTime();
        if (measure) {
            for (Worker w : workers) {
                w.stream.startRound(); // every complex read type in the measured phase, however short
            }
        }
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
                while (t.isAlive()) {
                    t.join(CLOCK_STEP_MILLIS);
                    if (clock != null && budget.nanos() > 0) { // 0 for an operation count
                        clock.stepTo((clockFrom + Math.min(budget.nanos(), System.nanoTime() - start)) / 1_000_000_000L);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Failures.rethrow(failure.get()); // a worker's IOException, unchecked exception or Error, as it was thrown
        long ops = 0;
        for (long d : done) {
            ops += d;
        }
        return new Phase(ops, seconds);
    }

    /**
     * A run's updates, shared by its threads: the stream, what applies them, and the lock that keeps
     * reads out while an update is half done, so that every read sees each update whole or not at all
     * and every read after an update sees it.
     */
    private record Updates(GraphStore store, UpdateSchedule schedule, UpdateApplier applier,
                           ReentrantReadWriteLock lock) {
        Updates(GraphStore store, UpdateSchedule schedule, UpdateApplier applier) {
            this(store, schedule, applier, new ReentrantReadWriteLock());
        }
    }

    /**
     * Updates between checkpoints: after every this many, the thread that applied the last one flushes
     * the store while the other threads read on, as a database's checkpoint does.
     */
    static final int CHECKPOINT_UPDATES = 500;

    /** Counts one thread's pins (page accesses) and passes them on to the run's recorder, if any. */
    private static final class PinCounter implements PinRecorder {
        private final PinRecorder next;
        long pins;

        PinCounter(PinRecorder next) {
            this.next = next;
        }

        @Override
        public void pinned(int fileId, long pageId) {
            pins++;
            if (next != null) {
                next.pinned(fileId, pageId);
            }
        }
    }

    /** One thread's state across the phases of a run: its operation stream and latency histograms. */
    private final class Worker implements OperationStream.Fallback {
        private final StoreMeta meta;
        private final OperationStream stream;
        private final Updates updates;
        private final UpdateSchedule.Debt debt = new UpdateSchedule.Debt();
        private final Map<QueryType, Histogram> latencies = new EnumMap<>(QueryType.class);
        private final Map<UpdateType, Histogram> updateLatencies = new EnumMap<>(UpdateType.class);
        /** Per query type over the measured phase: executions and pins. */
        private final Map<QueryType, long[]> pins = new EnumMap<>(QueryType.class);
        private StoreReader reader;

        Worker(StoreMeta meta, int thread, Updates updates) {
            this.meta = meta;
            this.stream = new OperationStream(settings.parameters(), this, settings.seed(), thread);
            this.updates = updates;
        }

        /** Applies the next update of the stream, if any is left; false when the stream is used up. */
        private boolean applyNext(boolean measure, ResultDump dump) throws IOException {
            boolean checkpoint;
            updates.lock().writeLock().lock();
            try {
                Update u = updates.schedule().take();
                if (u == null) {
                    return false;
                }
                checkpoint = updates.schedule().taken() % CHECKPOINT_UPDATES == 0;
                long t0 = System.nanoTime();
                updates.applier().apply(u);
                long elapsed = System.nanoTime() - t0;
                if (measure) {
                    updateLatencies.computeIfAbsent(u.type(), k -> new Histogram(3)).recordValue(Math.max(1, elapsed));
                }
                if (dump != null) {
                    dump.write(u);
                }
            } finally {
                updates.lock().writeLock().unlock();
            }
            if (checkpoint) {
                updates.store().flush();
            }
            return true;
        }

        long run(GraphStore store, long quota, long deadline, boolean measure, ResultDump dump,
                 ProgressOutput.Task task, AtomicReference<Throwable> failure) throws IOException {
            long done = 0;
            PinCounter counter = new PinCounter(store.recorder());
            try (StoreReader r = store.newReader(counter)) {
                reader = r;
                LdbcQueries queries = new LdbcQueries(r);
                // A measured phase runs one operation a thread at least: a --duration shorter than one operation
                // measured none, and the run reported 0 ops/s and a 0% hit ratio as its result.
                while (done < quota && failure.get() == null
                    && (deadline == Long.MAX_VALUE || System.nanoTime() < deadline || measure && done == 0)) {
                    Query q = stream.next();
                    if (updates != null && q.type().isComplex()) {
                        for (int due = debt.dueBeforeComplexRead(); due > 0 && applyNext(measure, dump); due--) {
                            // each update is applied, timed and dumped by applyNext
                        }
                    }
                    List<List<Object>> rows;
                    long elapsed;
                    long pinsBefore = counter.pins;
                    if (updates != null) {
                        updates.lock().readLock().lock();
                    }
                    try {
                        r.refresh();
                        long t0 = System.nanoTime();
                        try {
                            rows = queries.run(q);
                        } catch (IOException | RuntimeException e) {
                            throw new IllegalStateException(q + " failed: " + e.getMessage(), e);
                        }
                        elapsed = System.nanoTime() - t0;
                        // Dumped before an update can come in between: the dump's order is the order of effect.
                        if (dump != null) {
                            dump.write(q, rows);
                        }
                    } finally {
                        if (updates != null) {
                            updates.lock().readLock().unlock();
                        }
                    }
                    stream.completed(q, rows);
                    if (measure) {
                        latencies.computeIfAbsent(q.type(), k -> new Histogram(3)).recordValue(Math.max(1, elapsed));
                        long[] p = pins.computeIfAbsent(q.type(), k -> new long[2]);
                        p[0]++;
                        p[1] += counter.pins - pinsBefore;
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
            return idOf((int) node);
        }

        /**
         * The LDBC id of a loaded node, read like a query: under the read lock, with the current counts,
         * since an update may be linking a new relationship into the node's chain meanwhile.
         */
        private long idOf(int node) throws IOException {
            if (updates != null) {
                updates.lock().readLock().lock();
            }
            try {
                reader.refresh();
                return reader.ldbcId(node);
            } finally {
                if (updates != null) {
                    updates.lock().readLock().unlock();
                }
            }
        }

        private long randomNode(Label label, SplittableRandom random) throws IOException {
            StoreMeta.NodeRange range = meta.range(label);
            if (range.count() == 0) {
                throw new UncheckedIOException(new IOException("the store has no " + label + " node"));
            }
            return idOf((int) (range.first() + random.nextLong(range.count())));
        }
    }
}
