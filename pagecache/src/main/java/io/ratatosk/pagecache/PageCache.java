package io.ratatosk.pagecache;

import io.ratatosk.core.CounterSet;
import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.CacheCounter;
import io.ratatosk.pagecache.internal.DaemonWorker;
import io.ratatosk.pagecache.internal.Failures;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.internal.IopsLimiter;
import io.ratatosk.pagecache.internal.SwapperCalls;
import io.ratatosk.pagecache.internal.UnsafeModule;
import io.ratatosk.pagecache.metrics.JmxSupport;
import io.ratatosk.pagecache.metrics.PageCacheMBeanRegistration;
import io.ratatosk.pagecache.metrics.PageCacheMetrics;
import io.ratatosk.pagecache.tier.PrefetchSource;
import io.ratatosk.pagecache.tier.SwapTier;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import io.ratatosk.pagecache.tier.TierCounters;
import io.ratatosk.pagecache.writeaware.WriteAwareEviction;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.ObjectName;

/**
 * A fixed array of off-heap page frames in front of the files mapped into it, with the eviction policy
 * chosen at startup ({@code pagecache.policy}). A background evictor keeps a pool of free frames; when
 * it falls behind, a faulting thread evicts cooperatively.
 *
 * <pre>{@code
 * try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "512m")));
 *      PagedFile file = cache.map(path, 8192)) {
 *     try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
 *         if (c.next()) { c.putLong(0, 42L); }
 *     }
 * }
 * }</pre>
 * Thread-safe. {@link #close()} flushes and unmaps every mapped file: nothing written through a cursor
 * is lost. The lifecycle rules (what each call does once a file or the cache is closed) are in
 * {@code docs/architecture.md}, "Lifecycle".
 */
public final class PageCache implements AutoCloseable {
    private final PageCacheConfig config;
    private final EvictionEngine engine;
    private final FileRegistry files;
    private final PageSwapperFactory swappers;
    /** The swap tier in front of the files ({@code pagecache.swap} other than {@code file}), else null. */
    private final SwapTier tier;
    /** The caller's factory behind a tier a provider opened over it (claimed as this cache's too), else null. */
    private final PageSwapperFactory behindTier;
    /** Keeps free frames ready when {@code pagecache.evictor.enabled}, else null. */
    private final BackgroundEvictor evictor;
    /** Prefetches from the tier when it offers prefetching, else null. */
    private final TierPrefetcher prefetcher;
    /** The tier's prefetch hooks the prefetcher listens to, asked for once at open; else null. */
    private final PrefetchSource prefetchSource;
    /** Writes resident-page profiles and reheats files from them ({@code pagecache.warmup.enabled}), else null. */
    private final CacheWarmer warmer;
    /** The cache's MBean while it is open ({@code pagecache.jmx.enabled}), else null. */
    private final PageCacheMBeanRegistration mbean;
    private final Object closeLock = new Object();
    /**
     * What {@link SwapTier#servesCache} asks: true from the open's success until the close has unmapped every file,
     * taken its listener off the tier and stopped its threads, the tier to be closed by no one else meanwhile. Apart from the cache, so that a tier kept by its host after the cache
     * closed does not keep the closed cache reachable.
     */
    private final AtomicBoolean servingTier = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * The swapper factories (tiers among them) serving an open cache. A cache closes its factory, and a tier closes
     * every file it holds: a tier handed to a second cache was closed under the first by the second's close, which
     * then could neither write its dirty pages nor close; a plain factory shared by two was closed under the other.
     */
    private static final Set<PageSwapperFactory> FACTORIES_IN_USE = Collections.newSetFromMap(new IdentityHashMap<>());

    static {
        // The close and a failed open gather their steps' failures through it, perhaps with the heap full: loaded at its
        // first use there, in a JVM's first close, it threw an OutOfMemoryError past the steps after it (the page memory
        // never freed).
        Failures.load();
    }

    /**
     * Builds the cache; on any failure releases what it took (memory, threads) before throwing. {@code behindTier} is
     * already claimed by the caller, which releases it if this throws.
     */
    private PageCache(PageCacheConfig config, PageSwapperFactory swappers, PageSwapperFactory behindTier) {
        this.config = config;
        this.swappers = swappers;
        this.tier = swappers instanceof SwapTier swapTier ? swapTier : null;
        claim(swappers);
        try {
            this.engine = new EvictionEngine(config, frames -> withWriteAwareness(
                PolicyRegistry.create(config.policy(), frames, config), frames, tier));
        } catch (Throwable t) {
            release(swappers);
            throw t;
        }
        this.behindTier = behindTier;
        BackgroundEvictor backgroundEvictor = null;
        TierPrefetcher tierPrefetcher = null;
        PageCacheMBeanRegistration registration = null;
        CacheWarmer cacheWarmer = null;
        PrefetchSource source = null;
        boolean listening = false;
        try {
            // Inside the try: an OutOfMemoryError making them (the engine's arrays may have left little heap) kept the
            // page memory and the factory's claim for the JVM's life.
            this.files = new FileRegistry(engine, swappers);
            engine.flushLimiter(IopsLimiter.of(OperationsFlags.flushIopsLimit(config)));
            // A tier's hook is a plug-in's code: inside the try, so that whatever it throws releases what the open took.
            source = tier == null ? null : tier.prefetchSource();
            if (tier != null) {
                // Only this cache closes its tier, once closed: a host's close of it released every file under the cache.
                servesCache(tier, servingTier);
            }
            if (OperationsFlags.jmxEnabled(config)) {
                if (!JmxSupport.AVAILABLE) {
                    throw new IllegalStateException("pagecache.jmx.enabled=true, but this JVM has no java.management module"
                        + " to register the cache's MBean with: set pagecache.jmx.enabled=false, or give the JVM the module");
                }
                String name = OperationsFlags.name(config);
                registration = PageCacheMBeanRegistration.register(name, new PageCacheMetrics(name, this::statsWithoutTier));
            }
            if (config.evictorEnabled()) {
                backgroundEvictor = new BackgroundEvictor(engine, config.keepFree());
                backgroundEvictor.start();
            }
            if (source != null) {
                int depth = source.depth();
                if (depth < 0 || depth > TierPrefetcher.QUEUE_SIZE) {
                    // Each swap-in offers depth hints on the faulting thread; the queue keeps QUEUE_SIZE of them.
                    throw new IllegalStateException("the swap tier " + tier + " asks for a prefetch depth of " + depth
                        + ": it must be in [0, " + TierPrefetcher.QUEUE_SIZE + "]");
                }
                tierPrefetcher = new TierPrefetcher(engine, source);
                listening = true; // the tier may hold the listener even if this call throws
                source.swapInListener(tierPrefetcher);
                tierPrefetcher.start();
            }
            if (OperationsFlags.warmupEnabled(config)) {
                cacheWarmer = new CacheWarmer(engine, files::mapped, OperationsFlags.warmupProfileIntervalNanos(config),
                    config.evictorEnabled() ? config.keepFree() : 0);
                files.listener(cacheWarmer);
                cacheWarmer.start();
            }
        } catch (Throwable t) {
            releaseFailedOpen(t, listening ? source : null, backgroundEvictor, tierPrefetcher, cacheWarmer, registration);
            throw t;
        }
        this.prefetchSource = source;
        this.mbean = registration;
        this.evictor = backgroundEvictor;
        this.prefetcher = tierPrefetcher;
        this.warmer = cacheWarmer;
        servingTier.set(true);
    }

    /**
     * Tells {@code tier} it serves a cache, open while {@code open} says so. A tier's refusal (an IllegalStateException:
     * it serves another cache) passes as it is; a plug-in's bug there (a bare NullPointerException) came out as it was,
     * naming neither the tier nor the hook.
     */
    private static void servesCache(SwapTier tier, AtomicBoolean open) {
        try {
            tier.servesCache(open::get);
        } catch (IllegalArgumentException | IllegalStateException refusal) {
            throw refusal;
        } catch (RuntimeException e) {
            throw new IllegalStateException("the swap tier " + tier + " failed to take the page cache (servesCache): " + e,
                e);
        }
    }

    /**
     * Gives back what a failed open took, {@code failure} its cause: each step runs whatever the one before threw, the
     * threads stop before the memory they use is freed, and the steps' failures are suppressed in {@code failure}. Each
     * step has a try of its own and nothing is allocated between them, as in {@link #close}: the failure may be the heap
     * running out (a tier's hook filling it), and an array of the workers and a lambda per step, made here, threw an
     * OutOfMemoryError in its place, past every step: the page memory was never freed and the factory stayed claimed,
     * refused to every later open as serving an open cache.
     */
    private void releaseFailedOpen(Throwable failure, PrefetchSource detach, DaemonWorker backgroundEvictor,
                                   DaemonWorker tierPrefetcher, DaemonWorker cacheWarmer,
                                   PageCacheMBeanRegistration registration) {
        try {
            if (detach != null) {
                detach.swapInListener(null);
            }
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
        }
        try {
            stop(backgroundEvictor, tierPrefetcher, cacheWarmer);
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
        }
        try {
            if (registration != null) {
                registration.close();
            }
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
        }
        try {
            engine.close();
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
        }
        release(swappers);
    }

    /**
     * Opens a page cache over plain files, read and written as {@code pagecache.io} says, with the swap tier
     * {@code pagecache.swap} names in front of them.
     */
    public static PageCache open(PageCacheConfig config) {
        return open(config, new FileSwapperFactory(OperationsFlags.directIo(config)));
    }

    /**
     * Opens a page cache whose files are reached through the given swappers (a test's fault injector,
     * say). With {@code pagecache.swap} naming a tier (the NVM tier of {@code storage-nvm}:
     * {@code pagecache.swap=nvm}, configured by the {@code pagecache.nvm.*} flags), that tier is put in
     * front of them, unless {@code swappers} already is a {@link SwapTier}, which then serves this cache alone (it is
     * closed with it; a tier already serving an open cache is refused). {@code swappers} serves this cache alone too,
     * and is closed with it: one already serving an open cache is refused. If opening fails, nothing it
     * took is kept: no memory, no thread, no open file. {@code pagecache.io} is the business of
     * {@code swappers} here: {@link io.ratatosk.pagecache.internal.FileSwapperFactory#FileSwapperFactory(boolean)}
     * opens files for direct IO.
     *
     * @throws IllegalStateException    naming {@code pagecache.memory} and the bytes asked for, with the
     *                                  {@link OutOfMemoryError} as its cause, when the page memory cannot be allocated,
     *                                  and ({@link MachineMemoryExceededException}) with the machine's memory when it,
     *                                  with what the other caches of this JVM hold, is more than the machine (or its
     *                                  container) has;
     *                                  naming the frame count, {@code pagecache.memory}, {@code pagecache.page_size} and
     *                                  {@code pagecache.policy} when the frames' bookkeeping does not fit the heap; naming
     *                                  {@code pagecache.nvm.write_aware} when write-aware eviction's shadows do not fit
     *                                  the heap; naming the tier or its provider when a plug-in tier fails to open or
     *                                  to take the cache; naming the JDK module {@code jdk.unsupported} when the JVM did
     *                                  not resolve it (a store on the module path: see the README)
     * @throws IllegalArgumentException if {@code swappers} (a factory or a tier) already serves an open cache, naming it
     */
    public static PageCache open(PageCacheConfig config, PageSwapperFactory swappers) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(swappers, "swappers");
        UnsafeModule.require(); // before anything is taken: the page memory cannot be had without it
        if (PageCacheFlags.FILE_SWAP.equals(config.swap()) || swappers instanceof SwapTier) {
            return new PageCache(config, swappers, null);
        }
        SwapTierProvider provider = PageCacheFlags.tier(config.swap());
        claim(swappers); // the tier closes it when the cache closes it
        SwapTier tier;
        try {
            tier = provider.open(config, swappers);
        } catch (IllegalArgumentException | IllegalStateException e) {
            release(swappers);
            throw e; // the provider's own refusal (a flag, the memory), worded for the user
        } catch (RuntimeException e) {
            release(swappers);
            // a plug-in's bug: a bare NullPointerException from open named neither the tier nor its provider
            throw new IllegalStateException("pagecache.swap=" + config.swap() + ": the tier provider "
                + provider.getClass().getName() + " failed to open the tier: " + e, e);
        } catch (Throwable t) {
            release(swappers);
            throw t;
        }
        if (tier == null) {
            release(swappers);
            throw new IllegalStateException("pagecache.swap=" + config.swap() + ": the tier provider "
                + provider.getClass().getName() + " returned null from open");
        }
        try {
            return new PageCache(config, tier, swappers);
        } catch (FactoryInUseException t) {
            release(swappers);
            // The provider handed out a tier that serves another open cache: it is that cache's to close, not ours.
            throw new FactoryInUseException("pagecache.swap=" + config.swap() + ": the tier provider "
                + provider.getClass().getName() + " returned from open " + t.getMessage());
        } catch (Throwable t) {
            try {
                tier.close();
            } catch (Throwable suppressed) {
                Failures.addOrLeaveOut(t, suppressed); // not addSuppressed itself: with the heap full it threw, and the release was skipped
            }
            release(swappers);
            throw t;
        }
    }

    /**
     * The write-aware hook: with a tier that asks for write-aware eviction ({@code pagecache.nvm.write_aware}),
     * the policy is wrapped so that it passes over dirty candidates as far as sampling shows it pays; its
     * shadows model the policy by its own usage counts ({@link EvictionPolicy#usageModel()}).
     */
    private static EvictionPolicy withWriteAwareness(EvictionPolicy plain, FrameTable frames, SwapTier tier) {
        SwapTier.WriteAwareness writeAwareness = tier == null ? null : tier.writeAwareness();
        if (writeAwareness == null) {
            return plain;
        }
        try {
            return new WriteAwareEviction(plain, frames, writeAwareness.slots(), plain.usageModel());
        } catch (OutOfMemoryError | IllegalArgumentException e) {
            // The shadows live on the heap and model the tier at the frames' sample rate: a small cache in front
            // of a large tier can ask for more than the heap has. Say which flag did it, not just "Java heap space".
            throw new IllegalStateException("cannot set up write-aware eviction (pagecache.nvm.write_aware=true) for "
                + frames.frameCount() + " frames in front of a tier of " + writeAwareness.slots() + " slots: its "
                + WriteAwareEviction.VARIANTS + " shadow caches each model 1 in "
                + WriteAwareEviction.sampleRate(frames.frameCount()) + " of those slots on the Java heap (" + e
                + "); set pagecache.nvm.write_aware=false, give the JVM more heap, or use more frames or fewer slots", e);
        }
    }

    /**
     * Maps {@code path}, creating the file if it does not exist. A file is mapped once: mapping it again,
     * by this path or any other that reaches the same file (a symbolic link, a symlinked folder, {@code ..},
     * a relative path), returns the same {@link PagedFile} (with the same page size); close each mapping
     * once. Identity is the file itself: the file system's file key, or its real path where there is none.
     * A file is mapped by one page cache of the JVM at a time: two would each keep its pages in frames of their own,
     * and each one's flushes would write over the other's pages. Another cache may map it once its last mapping here is
     * closed (or a map of it here failed), or this cache is closed (where the file's swapper and the swapper factory
     * would not close, once the swapper does: another cache's map of the file tries its close again first).
     *
     * @param filePageSize the file's page size, at most the cache's {@code pagecache.page_size}
     * @throws IllegalArgumentException a {@code filePageSize} outside [1, {@code pagecache.page_size}], naming it; or the file
     *                                  is mapped already with another page size, naming both
     * @throws IllegalStateException once the cache is closed (or while it closes), or if another page cache of this JVM
     *                               has the file mapped (by any path), naming the file
     * @throws IOException           the file cannot be mapped: a folder, a pipe, device or pseudo file, a folder that does
     *                               not exist to create it in ({@link java.nio.file.NoSuchFileException}), no permission
     *                               ({@link java.nio.file.AccessDeniedException}), or its open or read failed; each naming
     *                               the file (docs/architecture.md, "What each misuse gets")
     */
    public PagedFile map(Path path, int filePageSize) throws IOException {
        return map(path, filePageSize, true);
    }

    /**
     * As {@link #map(Path, int)}; with {@code create == false} a missing file (or a dangling link) is refused with a
     * {@link java.nio.file.NoSuchFileException}.
     */
    public PagedFile map(Path path, int filePageSize, boolean create) throws IOException {
        Objects.requireNonNull(path, "path");
        if (filePageSize <= 0 || filePageSize > config.pageSize()) {
            throw new IllegalArgumentException("file page size must be in [1, " + config.pageSize()
                + "] (pagecache.page_size): filePageSize=" + filePageSize + " for " + path);
        }
        return files.map(path, filePageSize, create);
    }

    /**
     * Flushes every mapped file and forces it to storage. A file closed by another thread meanwhile was flushed by its
     * close, whose failed force (or an earlier one of the file, sticking) is reported here too. A file that cannot be
     * flushed does not keep the others from being flushed: each is, and then the first failure is thrown, the others
     * suppressed in it (an Error, such as a plug-in swapper's, is thrown as itself, the other failures in it). An
     * eviction's failure pending when the call begins is one of them: taken once for the whole call, it keeps no file
     * from being flushed.
     *
     * @throws IllegalStateException once the cache is closed, also where its close on another thread closed it before
     *                               this call had its list of files
     */
    public void flushAndForce() throws IOException {
        long mapsBefore = files.maps(); // first: a file mapped and closed between the two reads is not the call's
        long failedForceClosesBefore = files.failedForceCloses();
        checkOpen();
        SwapperCalls.refuseInside(engine, "PageCache.flushAndForce");
        // A file unmapped after the list is reported as its close's force went (below), one unmapped since the call
        // began and before the list as the registry counted it, and a cache closed before it refuses the call, as a
        // closed one does.
        FileRegistry.ToFlush toFlush = files.mappedToFlush(mapsBefore, failedForceClosesBefore);
        List<PagedFile> mapped = toFlush.files();
        Throwable failure = toFlush.closedMeanwhile();
        try {
            // Here, not in each file's flush: there it was thrown by the flush of whichever file came first, before that
            // file was flushed, which left its dirty pages unwritten while the error spoke of another file's eviction.
            engine.throwPendingError();
        } catch (IOException e) {
            failure = Failures.addOrLeaveOut(failure, e);
        }
        // An Error too (a plug-in swapper's AssertionError, an OutOfMemoryError): it ended the call at its file, and the
        // files after it were left unflushed. It is thrown as itself at the end, the other failures suppressed in it.
        Error fatal = null;
        for (PagedFile file : mapped) {
            try {
                file.mapping().flushUnlessUnmapped(); // one closed meanwhile was flushed by its unmap
            } catch (Error e) {
                fatal = (Error) Failures.addOrLeaveOut(fatal, e);
            } catch (IOException | RuntimeException e) {
                failure = Failures.addOrLeaveOut(failure, e);
            }
        }
        if (fatal != null) {
            Failures.addOrLeaveOut(fatal, failure);
            throw fatal;
        }
        Failures.rethrow(failure);
    }

    /**
     * A snapshot of the counters. Cursors publish their hit and fault counts when closed and every
     * 1024 pins, so pins of cursors still open may not be counted yet.
     */
    public PageCacheStats stats() {
        return stats(nvmStats());
    }

    /**
     * {@link #stats()} with {@link NvmCacheStats#NONE} for the swap tier's counters: what the MBean reads, as none of its
     * attributes is a tier's, and a tier may pay for its counters (the NVM tier sums the wear of every slot), which a
     * console polling each attribute would otherwise pay once per attribute.
     */
    private PageCacheStats statsWithoutTier() {
        return stats(NvmCacheStats.NONE);
    }

    private PageCacheStats stats(NvmCacheStats nvm) {
        CounterSet<CacheCounter> counters = engine.counters();
        return new PageCacheStats(
            engine.hits(),
            engine.faults(),
            counters.get(CacheCounter.BACKGROUND_EVICTIONS),
            counters.get(CacheCounter.COOPERATIVE_EVICTIONS),
            counters.get(CacheCounter.EVICTION_WRITES),
            counters.get(CacheCounter.FLUSHED_PAGES),
            counters.get(CacheCounter.BYTES_READ),
            counters.get(CacheCounter.BYTES_WRITTEN),
            counters.get(CacheCounter.EVICTION_ERRORS),
            engine.frameCount(),
            engine.freeFrames(),
            engine.policy().name(),
            Objects.requireNonNullElse(engine.policy().state(), ""),
            nvm,
            new IoStats(counters.get(CacheCounter.PAGES_WRITTEN), counters.get(CacheCounter.WRITE_CALLS),
                counters.get(CacheCounter.PAGES_REHEATED)),
            engine.hugePages());
    }

    private NvmCacheStats nvmStats() {
        if (tier == null) {
            return NvmCacheStats.NONE;
        }
        TierCounters counters;
        try {
            counters = tier.counters();
        } catch (RuntimeException e) { // a plug-in's bug: say whose, or it reads as the cache's own
            throw new IllegalStateException("the swap tier " + tier + " failed to report its counters (counters()): " + e,
                e);
        }
        if (counters == null) {
            throw new IllegalStateException("the swap tier " + tier + " returned null from counters(); TierCounters.NONE"
                + " says it counts nothing");
        }
        WriteAwareEviction writeAware = engine.policy() instanceof WriteAwareEviction w ? w : null;
        return NvmCacheStats.of(counters, writeAware == null ? 0 : writeAware.dirtySkips(),
            writeAware == null ? 0 : writeAware.budget(), prefetcher == null ? 0 : prefetcher.prefetched(),
            prefetcher == null ? 0 : prefetcher.dropped());
    }

    /**
     * The swap tier in front of the files ({@code pagecache.swap} other than {@code file}), for its own counters and tests'
     * error injection; else null. The cache closes it with itself: the NVM tier refuses a close while the cache is open.
     */
    public SwapTier tier() {
        return tier;
    }

    /**
     * The JMX name of this cache's MBean: {@code io.ratatosk:type=PageCache,name=<pagecache.name>}, or with a
     * suffix ({@code -2}, ...) when another open cache had that name first; null with {@code pagecache.jmx.enabled=false}.
     * After {@link #close()} still the name this cache had: its bean is gone, and a cache opened since may have the name.
     */
    public ObjectName mbeanName() {
        return mbean == null ? null : mbean.objectName();
    }

    // ---- accessors ------------------------------------------------------------------------------

    public PageCacheConfig config() {
        return config;
    }

    /** The cache's page size ({@code pagecache.page_size}): the largest file page size it can map. */
    public int pageSize() {
        return config.pageSize();
    }

    /** Number of page frames. */
    public int frameCount() {
        return engine.frameCount();
    }

    FrameTable frames() {
        return engine.frames();
    }

    /** For tests: flushes keep to {@code limiter} (one on a clock the test controls) instead of the configured one. */
    void useFlushLimiter(IopsLimiter limiter) {
        engine.flushLimiter(limiter);
    }

    /** For tests in this package: the mapped files' registry. */
    FileRegistry fileRegistry() {
        return files;
    }

    /** For tests in this package: the warm-up worker, or null when {@code pagecache.warmup.enabled=false}. */
    CacheWarmer warmer() {
        return warmer;
    }

    /** For tests in this package: the frames' engine. */
    EvictionEngine engine() {
        return engine;
    }

    IopsLimiter flushLimiter() {
        return engine.flushLimiter();
    }

    EvictionPolicy policy() {
        return engine.policy();
    }

    int freeFrames() {
        return engine.freeFrames();
    }

    /**
     * Whether the cache is closed. A {@link #close} that throws leaves the cache open when a file could not be flushed,
     * a write cursor held a page, or a file's swapper would not close while holding pages the file lacks (close again
     * later), but closed when every file was flushed and unmapped and only the release after that failed (any other
     * swapper's close, the tier's close): this tells the two apart. True only once the close has let its tier go
     * ({@link SwapTier#servesCache}'s supplier false), so that a host reading true may close the tier: it read true
     * while the close still took its listener off the tier and stopped its threads, and the tier, told the cache was
     * open, refused the host's close.
     */
    public boolean isClosed() {
        return closed && !servingTier.get(); // not the field alone: a close's nested calls must see it closed at once
    }

    /**
     * Cursors open right now on this cache's files: opened by {@link PagedFile#io} (or as linked cursors) and not yet
     * closed. A store's tests can check that it closes what it opens; a cache closed while this is above zero keeps its
     * page memory until the last of them closes, and logs a warning saying so.
     */
    public long openCursors() {
        return engine.openCursors();
    }

    /** True once the page memory and frame table are freed (the cache closed and no cursor open). */
    boolean isMemoryReleased() {
        return engine.isMemoryReleased();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("page cache is closed");
        }
    }

    /**
     * Flushes and unmaps every mapped file (whatever its number of mappings), stops the background
     * threads, and frees the memory (at once, or when the last cursor still open is closed). If a file
     * cannot be flushed or a write cursor still holds one of its pages, the cache stays open with that
     * file mapped and its dirty pages in it, and the error is thrown: call close again once the cause is
     * fixed. So it does where a file's swapper fails to close while it still holds pages the file lacks
     * ({@link io.ratatosk.core.PageSwapper#holdsUnwrittenPages()}: the NVM tier's dirty copies that the file refused).
     * Once every file is flushed and unmapped the cache closes whatever else fails (a file's force, now or
     * earlier: see {@link PagedFile#flush}; any other swapper's close, the tier's close, a tier's hook), with its threads stopped
     * and its memory freed, and then throws the first failure ({@link #isClosed()} tells the two outcomes apart).
     * Closing a closed cache does nothing.
     */
    @Override
    public void close() throws IOException {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            // Before the bean goes: a close from inside a swapper call, refused by closeAll, took it out and put it back,
            // and a JMX client saw the open cache go and come back (under another name if a cache took its own meanwhile).
            SwapperCalls.refuseInside(engine, "PageCache.close");
            // First of all: unregistering allocates, and the plug-ins' closes from here on (each file's swapper's, the
            // factory's) may fill the heap. After the files' swapper closes, one that filled the heap left the bean
            // registered for the JVM's life, the closed cache reachable from it and its name taken. Put back if the cache
            // stays open.
            Throwable beanFailure = null;
            try {
                if (mbean != null) {
                    mbean.close();
                }
            } catch (Throwable t) {
                beanFailure = t;
            }
            // Every file is flushed and unmapped from here on; a swapper that failed to close is reported, and retried
            // only to give its file's claim back where the factory's close failed too (releaseClaims).
            Throwable swapperFailure;
            try {
                swapperFailure = files.closeAll();
            } catch (Throwable t) {
                restoreMBean(t);
                throw t;
            }
            // From here the cache closes whatever a step throws (a tier's hook or close is a plug-in's code): every
            // step runs, the threads stop before the memory they use is freed, and the first failure is thrown. Each step
            // has a try of its own and nothing is allocated between them (no lambda, no array of steps): with the heap
            // full (a tier's close filling it) such an allocation, or suppressing one failure in another, came out of the
            // close past the steps after it, and the cache, marked closed, never freed its page memory.
            closed = true;
            Throwable failure = Failures.addOrLeaveOut(swapperFailure, beanFailure);
            try {
                if (prefetchSource != null) {
                    prefetchSource.swapInListener(null);
                }
            } catch (Throwable t) {
                failure = Failures.addOrLeaveOut(failure, t);
            }
            try {
                stop(evictor, prefetcher, warmer);
            } catch (Throwable t) {
                failure = Failures.addOrLeaveOut(failure, t);
            }
            // Only now, with the listener off and the threads stopped, may the tier's host close it: said right after
            // the unmaps, the host's close raced the prefetcher, which went on asking the tier for its demand reads.
            servingTier.set(false);
            Throwable factoryFailure = null;
            try {
                swappers.close();
            } catch (Throwable t) {
                factoryFailure = t;
            }
            // A factory whose close failed (a tier keeping a file's dirty copies, its device open for a retry) may still
            // write the files whose close failed: given back anyway, another cache mapped such a file, and a retried close
            // wrote the tier's older copies over that cache's pages.
            failure = Failures.addOrLeaveOut(failure, factoryFailure);
            try {
                files.releaseClaims(factoryFailure == null);
            } catch (Throwable t) {
                failure = Failures.addOrLeaveOut(failure, t);
            }
            release(swappers);
            release(behindTier);
            try {
                engine.close();
            } catch (Throwable t) {
                failure = Failures.addOrLeaveOut(failure, t);
            }
            Failures.rethrow(failure);
        }
    }

    /** For a close that failed with {@code failure} and left the cache open: its MBean back, a failure to suppressed. */
    private void restoreMBean(Throwable failure) {
        try {
            if (mbean != null) {
                mbean.restore();
            }
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
        }
    }

    private static void claim(PageSwapperFactory factory) {
        synchronized (FACTORIES_IN_USE) {
            if (!FACTORIES_IN_USE.add(factory)) {
                throw new FactoryInUseException(factory instanceof SwapTier
                    ? "the swap tier " + factory + " already serves an open page cache: each cache needs a tier of its"
                        + " own (closing a cache closes its tier, and every file in it)"
                    : "the swapper factory " + factory + " already serves an open page cache: each cache needs a factory"
                        + " of its own (closing a cache closes its factory)");
            }
        }
    }

    /** A factory or tier refused because it serves another open cache: whoever refuses it must not close it. */
    private static final class FactoryInUseException extends IllegalArgumentException {
        FactoryInUseException(String message) {
            super(message);
        }
    }

    private static void release(PageSwapperFactory factory) {
        if (factory != null) {
            synchronized (FACTORIES_IN_USE) {
                FACTORIES_IN_USE.remove(factory);
            }
        }
    }

    /** Stops the workers there are (null: none), with no array made: see {@link #close}. */
    private static void stop(DaemonWorker backgroundEvictor, DaemonWorker tierPrefetcher, DaemonWorker cacheWarmer) {
        if (backgroundEvictor != null) {
            backgroundEvictor.shutdown();
        }
        if (tierPrefetcher != null) {
            tierPrefetcher.shutdown();
        }
        if (cacheWarmer != null) {
            cacheWarmer.shutdown();
        }
    }
}
