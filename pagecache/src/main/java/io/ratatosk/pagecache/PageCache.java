package io.ratatosk.pagecache;

import io.ratatosk.core.CounterSet;
import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.Flags;
import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.internal.CacheCounter;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.internal.FreeList;
import io.ratatosk.pagecache.writeaware.WriteAwareEviction;
import io.ratatosk.policies.EvictionPolicies;
import io.ratatosk.policies.GlobalClockPolicy;
import io.ratatosk.policies.MuninnPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

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
 * Thread-safe. {@link #close()} flushes every mapped file: nothing written through a cursor is lost.
 */
public final class PageCache implements AutoCloseable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    /** Passes over all frames without a victim before the cache checks whether everything is pinned. */
    private static final int PASSES_BEFORE_PIN_CHECK = 4;
    /** Pages start on an OS page (with page_size of 4k or more), so no page straddles two. */
    private static final long PAGE_ALIGNMENT = 4096;
    /** How long a fault waits, in total, for a frame to become evictable while all are pinned. */
    private static final long ALL_PINNED_TIMEOUT_NANOS = 2_000_000_000L;

    private final PageCacheConfig config;
    private final int pageSize;
    private final int frameCount;
    /** What allocateMemory returned for the pages, to free. */
    private final long pageAllocation;
    /** Frame 0's page: the allocation rounded up to {@link #PAGE_ALIGNMENT}; frame f's page follows at f pages. */
    private final long memory;
    /** log2(pageSize): a frame's page address is computed, not loaded (see {@link #pageAddress}). */
    private final int pageShift;
    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final FreeList freeList;
    private final int keepFree;
    /** See {@link BackgroundEvictor#wakeThreshold}. */
    private final int evictorWakeThreshold;
    private final PageSwapperFactory swappers;
    /** The NVM tier when {@code pagecache.swap=nvm}, else null. */
    private final NvmSwapStore nvm;
    private final CounterSet<CacheCounter> counters = new CounterSet<>(CacheCounter.class);
    private final AtomicReferenceArray<PagedFile> filesById = new AtomicReferenceArray<>(PageKey.MAX_FILE_ID + 1);
    private final Map<Path, PagedFile> filesByPath = new HashMap<>();
    private final BitSet usedFileIds = new BitSet();
    private final Object mappingLock = new Object();
    private final AtomicReference<IOException> pendingEvictionError = new AtomicReference<>();
    private final ThreadLocal<Sweep> cooperativeSweep = ThreadLocal.withInitial(Sweep::cooperative);
    private final BackgroundEvictor evictor;
    /** Prefetches from NVM when {@code pagecache.nvm.prefetch} > 0 with the NVM tier, else null. */
    private final NvmPrefetcher prefetcher;
    private volatile boolean closed;

    private PageCache(PageCacheConfig config, PageSwapperFactory swappers) {
        this.config = config;
        this.pageSize = config.pageSize();
        this.frameCount = config.frames();
        this.swappers = swappers;
        this.nvm = swappers instanceof NvmSwapStore tier ? tier : null;
        this.frames = new FrameTable(frameCount);
        long bytes = (long) frameCount * pageSize;
        long mem;
        try {
            mem = UNSAFE.allocateMemory(bytes + PAGE_ALIGNMENT - 1);
        } catch (OutOfMemoryError e) {
            frames.close();
            throw new IllegalStateException("cannot allocate " + bytes + " bytes of page memory for pagecache.memory="
                + config.memoryBytes() + ": " + e.getMessage(), e);
        }
        this.pageAllocation = mem;
        this.memory = (mem + PAGE_ALIGNMENT - 1) & -PAGE_ALIGNMENT;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.policy = withWriteAwareness(EvictionPolicies.create(config.policy(), frames, new ConfigPolicySettings(config)));
        this.freeList = new FreeList(frameCount);
        freeList.fillInOrder();
        this.keepFree = config.keepFree();
        this.evictor = config.evictorEnabled() ? new BackgroundEvictor(this, keepFree) : null;
        this.evictorWakeThreshold = BackgroundEvictor.wakeThreshold(keepFree);
        if (evictor != null) {
            evictor.start();
        }
        this.prefetcher = nvm != null && nvm.config().prefetch() > 0 ? new NvmPrefetcher(this, nvm, nvm.config().prefetch()) : null;
        if (prefetcher != null) {
            nvm.swapInListener(prefetcher);
            prefetcher.start();
        }
    }

    /** Opens a page cache over plain files, with the NVM tier in front of them when {@code pagecache.swap=nvm}. */
    public static PageCache open(PageCacheConfig config) {
        return open(config, new FileSwapperFactory());
    }

    /**
     * Opens a page cache whose files are reached through the given swappers (a test's fault injector,
     * say). With {@code pagecache.swap=nvm} the NVM tier, configured by the {@code pagecache.nvm.*}
     * flags, is put in front of them, unless {@code swappers} already is one.
     */
    public static PageCache open(PageCacheConfig config, PageSwapperFactory swappers) {
        if (!"nvm".equals(config.swap()) || swappers instanceof NvmSwapStore) {
            return new PageCache(config, swappers);
        }
        NvmSwapStore tier = new NvmSwapStore(NvmDeviceConfig.from(config), swappers);
        try {
            return new PageCache(config, tier);
        } catch (RuntimeException | Error e) {
            try {
                tier.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The write-aware hook: with the NVM tier and {@code pagecache.nvm.write_aware}, the policy is
     * wrapped so that it passes over dirty candidates, as far as sampling shows it pays.
     */
    private EvictionPolicy withWriteAwareness(EvictionPolicy plain) {
        if (nvm == null || !nvm.config().writeAware()) {
            return plain;
        }
        int defaultMaxUsage = "global-clock".equals(config.policy()) ? GlobalClockPolicy.DEFAULT_MAX_USAGE : MuninnPolicy.DEFAULT_MAX_USAGE;
        int maxUsage = config.getInt(Flags.CLOCK_MAX_USAGE.name(), defaultMaxUsage);
        return new WriteAwareEviction(plain, frames, nvm.slots(), maxUsage, config.getInt(Flags.CLOCK_FAULT_USAGE.name()),
            Math.min(maxUsage, config.getInt(Flags.CLOCK_EVICT_THRESHOLD.name())));
    }

    /**
     * Maps {@code path}, creating the file if it does not exist. Mapping a path that is already mapped
     * returns the same {@link PagedFile} (with the same page size); close each mapping once.
     *
     * @param filePageSize the file's page size, at most the cache's {@code pagecache.page_size}
     */
    public PagedFile map(Path path, int filePageSize) throws IOException {
        return map(path, filePageSize, true);
    }

    /** As {@link #map(Path, int)}; with {@code create == false} a missing file is an error. */
    public PagedFile map(Path path, int filePageSize, boolean create) throws IOException {
        checkOpen();
        if (filePageSize <= 0 || filePageSize > pageSize) {
            throw new IllegalArgumentException("file page size must be in [1, " + pageSize
                + "] (pagecache.page_size): filePageSize=" + filePageSize + " for " + path);
        }
        throwPendingEvictionError();
        Path key = canonical(path);
        if (!create && !Files.exists(key)) {
            throw new NoSuchFileException(key.toString(), null, "not mapped: the file does not exist and create=false");
        }
        synchronized (mappingLock) {
            PagedFile existing = filesByPath.get(key);
            if (existing != null) {
                if (existing.pageSize() != filePageSize) {
                    throw new IllegalArgumentException(key + " is already mapped with page size " + existing.pageSize()
                        + "; cannot map it again with page size " + filePageSize);
                }
                existing.retain();
                return existing;
            }
            int fileId = usedFileIds.nextClearBit(0);
            if (fileId > PageKey.MAX_FILE_ID) {
                throw new IllegalStateException("too many mapped files: at most " + (PageKey.MAX_FILE_ID + 1));
            }
            PageSwapper swapper = swappers.create(key, fileId, filePageSize, create);
            PagedFile file;
            try {
                file = new PagedFile(this, fileId, key, filePageSize, swapper);
            } catch (IOException | RuntimeException e) {
                swapper.close();
                throw e;
            }
            usedFileIds.set(fileId);
            filesById.set(fileId, file);
            filesByPath.put(key, file);
            return file;
        }
    }

    private static Path canonical(Path path) throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        return Files.exists(abs) ? abs.toRealPath() : abs;
    }

    void unmap(PagedFile file) throws IOException {
        synchronized (mappingLock) {
            if (file.isClosed() || filesById.get(file.fileId()) != file) {
                return;
            }
            if (!file.releaseReference()) {
                return;
            }
            fenceOffPrefetch(file);
            try {
                file.unmap();
            } catch (IOException | RuntimeException e) {
                file.retain(); // still mapped, dirty pages kept: the caller may retry
                throw e;
            } finally {
                liftPrefetchFence(file);
            }
            filesById.set(file.fileId(), null);
            filesByPath.remove(file.path());
            usedFileIds.clear(file.fileId());
        }
    }

    /** Flushes every mapped file and forces it to storage. */
    public void flushAndForce() throws IOException {
        List<PagedFile> files;
        synchronized (mappingLock) {
            files = new ArrayList<>(filesByPath.values());
        }
        for (PagedFile f : files) {
            f.flush();
        }
    }

    // ---- frames: getting one, evicting, freeing --------------------------------------------------

    /** A free frame, exclusively locked and unbound: from the free list, else by evicting one. */
    int grabFrame() throws IOException {
        int frame = freeList.pop();
        if (frame >= 0) {
            wakeEvictorIfLow();
            lockFreeFrame(frame);
            return frame;
        }
        wakeEvictorIfLow();
        return evictCooperatively(cooperativeSweep.get());
    }

    private void lockFreeFrame(int frame) {
        // A free frame is unbound, so nobody holds it but a racing writer or evictor that looked at it
        // an instant before it was freed; it lets go at once.
        while (!frames.tryExclusiveLock(frame)) {
            Thread.onSpinWait();
        }
    }

    private int evictCooperatively(Sweep sweep) throws IOException {
        if (evictor == null) {
            // Nobody else runs the policy's housekeeping (history trimming, pending consolidation):
            // the evicting thread is the evictor. The simulator calls it at the same point.
            policy.housekeeping();
        }
        sweep.begin();
        int passesWithoutVictim = 0;
        long allPinnedSince = 0;
        while (true) {
            int free = freeList.pop();
            if (free >= 0) {
                lockFreeFrame(free);
                return free;
            }
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                if (++passesWithoutVictim >= PASSES_BEFORE_PIN_CHECK) {
                    allPinnedSince = waitWhileAllPinned(allPinnedSince);
                }
                continue;
            }
            if (tryEvict(victim, false)) {
                return victim;
            }
            throwPendingEvictionError(); // the write-out failed (or a background one did): report it now
        }
    }

    /**
     * Evicts the policy's candidate if it still can: takes its exclusive lock, checks it is still bound
     * (nobody evicted it meanwhile) and evicts it. Returns true with the frame exclusively locked and
     * unbound; false, with nothing held, if the frame was pinned or gone, or its write-out failed.
     */
    boolean tryEvict(int victim, boolean background) {
        if (!frames.tryExclusiveLock(victim)) {
            return false;
        }
        long key = frames.binding(victim);
        if (key != PageKey.UNBOUND && evictLocked(victim, key, background)) {
            return true;
        }
        frames.unlockExclusive(victim);
        return false;
    }

    /**
     * Called after several passes found no victim. If every frame is pinned, backs off; once that has
     * lasted {@link #ALL_PINNED_TIMEOUT_NANOS}, gives up with an exception naming the numbers.
     */
    private long waitWhileAllPinned(long allPinnedSince) {
        int pinned = 0;
        int writeLocked = 0;
        for (int f = 0; f < frameCount; f++) {
            if (!frames.isUnlocked(f)) {
                pinned++;
                if (frames.writeLockCount(f) > 0) {
                    writeLocked++;
                }
            }
        }
        if (pinned < frameCount) {
            Thread.yield(); // frames are being unpinned or re-referenced: keep sweeping
            return 0;
        }
        long now = System.nanoTime();
        if (allPinnedSince == 0) {
            allPinnedSince = now;
        } else if (now - allPinnedSince > ALL_PINNED_TIMEOUT_NANOS) {
            throw new NoEvictableFrameException("no frame can be evicted: all " + frameCount + " frames of the page cache"
                + " (pagecache.memory=" + config.memoryBytes() + " bytes, pagecache.page_size=" + pageSize + ") are pinned: "
                + writeLocked + " by write cursors, " + (pinned - writeLocked) + " being faulted in, evicted or flushed."
                + " More pages are pinned at once than the cache has frames: close cursors sooner or raise pagecache.memory.",
                frameCount, pinned);
        }
        LockSupport.parkNanos(100_000);
        return allPinnedSince;
    }

    /**
     * Evicts the page in {@code frame}, which the caller holds exclusively and which is bound to {@code key}:
     * writes it out if dirty, unbinds it. Returns false, leaving the page resident, dirty and bound, if
     * writing it failed; the error is kept for the next map, fault or flush.
     */
    private boolean evictLocked(int frame, long key, boolean background) {
        PagedFile file = filesById.get(PageKey.fileId(key));
        long pageId = PageKey.pageId(key);
        boolean dirty = frames.isModified(frame);
        try {
            file.swapper().evict(pageId, pageAddress(frame), dirty);
        } catch (IOException | RuntimeException e) {
            counters.increment(CacheCounter.EVICTION_ERRORS);
            IOException error = new IOException("evicting " + file.path() + " page " + pageId
                + " failed; the page stays dirty in the cache: " + e.getMessage(), e);
            if (!pendingEvictionError.compareAndSet(null, error)) {
                pendingEvictionError.get().addSuppressed(error);
            }
            return false;
        }
        if (dirty) {
            frames.clearModifiedExclusively(frame);
            counters.increment(CacheCounter.EVICTION_WRITES);
            counters.add(CacheCounter.BYTES_WRITTEN, file.pageSize());
        }
        file.evicted(pageId, frame);
        frames.setBinding(frame, PageKey.UNBOUND);
        policy.onEvicted(frame, key);
        counters.increment(background ? CacheCounter.BACKGROUND_EVICTIONS : CacheCounter.COOPERATIVE_EVICTIONS);
        return true;
    }

    /** Drops a page of a file being unmapped; the caller holds the frame exclusively. */
    void dropLocked(PagedFile file, long pageId, int frame) throws IOException {
        long key = frames.binding(frame);
        if (key != PageKey.of(file.fileId(), pageId)) {
            frames.unlockExclusive(frame);
            return;
        }
        if (frames.isModified(frame)) {
            try {
                file.swapper().write(pageId, pageAddress(frame));
            } catch (IOException e) {
                frames.unlockExclusive(frame);
                throw e;
            }
            frames.clearModifiedExclusively(frame);
            countFlushed(file.pageSize());
        }
        file.evicted(pageId, frame);
        frames.setBinding(frame, PageKey.UNBOUND);
        policy.onEvicted(frame, key);
        frames.unlockExclusive(frame);
        freeList.push(frame);
    }

    /** A free frame, exclusively locked and unbound, or -1 when none is free: for a prefetch, which never evicts. */
    int tryGrabFreeFrame() {
        int frame = freeList.pop();
        if (frame >= 0) {
            wakeEvictorIfLow();
            lockFreeFrame(frame);
        }
        return frame;
    }

    /** The file mapped under {@code fileId}, or null. */
    PagedFile mappedFile(int fileId) {
        return filesById.get(fileId);
    }

    private void fenceOffPrefetch(PagedFile file) {
        if (prefetcher != null) {
            prefetcher.fenceOff(file);
        }
    }

    private void liftPrefetchFence(PagedFile file) {
        if (prefetcher != null) {
            prefetcher.fenceLifted(file);
        }
    }

    /** Returns an unlocked, unbound frame to the free list. */
    void freeFrame(int frame) {
        freeList.push(frame);
    }

    long evictionErrors() {
        return counters.get(CacheCounter.EVICTION_ERRORS);
    }

    int freeFrames() {
        return freeList.size();
    }

    private void wakeEvictorIfLow() {
        if (evictor != null && freeList.size() < evictorWakeThreshold) {
            evictor.wake();
        }
    }

    /** Throws (once) the error an eviction ran into since the last call, if any. */
    void throwPendingEvictionError() throws IOException {
        IOException e = pendingEvictionError.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    // ---- counters -----------------------------------------------------------------------------

    void countPins(int hits, int faults) {
        counters.add(CacheCounter.HITS, hits);
        counters.add(CacheCounter.FAULTS, faults);
    }

    void countRead(int bytes) {
        counters.add(CacheCounter.BYTES_READ, bytes);
    }

    void countFlushed(int bytes) {
        counters.increment(CacheCounter.FLUSHED_PAGES);
        counters.add(CacheCounter.BYTES_WRITTEN, bytes);
    }

    /**
     * A snapshot of the counters. Cursors publish their hit and fault counts when closed and every
     * 1024 pins, so pins of cursors still open may not be counted yet.
     */
    public PageCacheStats stats() {
        return new PageCacheStats(
            counters.get(CacheCounter.HITS),
            counters.get(CacheCounter.FAULTS),
            counters.get(CacheCounter.BACKGROUND_EVICTIONS),
            counters.get(CacheCounter.COOPERATIVE_EVICTIONS),
            counters.get(CacheCounter.EVICTION_WRITES),
            counters.get(CacheCounter.FLUSHED_PAGES),
            counters.get(CacheCounter.BYTES_READ),
            counters.get(CacheCounter.BYTES_WRITTEN),
            counters.get(CacheCounter.EVICTION_ERRORS),
            frameCount,
            freeList.size(),
            policy.name(),
            nvmStats());
    }

    private NvmCacheStats nvmStats() {
        if (nvm == null) {
            return NvmCacheStats.NONE;
        }
        WriteAwareEviction writeAware = policy instanceof WriteAwareEviction w ? w : null;
        return NvmCacheStats.of(nvm.stats(), writeAware == null ? 0 : writeAware.dirtySkips(),
            writeAware == null ? 0 : writeAware.budget(), prefetcher == null ? 0 : prefetcher.prefetched(),
            prefetcher == null ? 0 : prefetcher.dropped());
    }

    /** The NVM tier with {@code pagecache.swap=nvm} (for its detailed counters and tests' error injection), else null. */
    public NvmSwapStore nvmTier() {
        return nvm;
    }

    // ---- accessors ------------------------------------------------------------------------------

    public PageCacheConfig config() {
        return config;
    }

    /** The cache's page size ({@code pagecache.page_size}): the largest file page size it can map. */
    public int pageSize() {
        return pageSize;
    }

    /** Number of page frames. */
    public int frameCount() {
        return frameCount;
    }

    FrameTable frames() {
        return frames;
    }

    /**
     * The address of frame {@code frame}'s page. Computed from the index rather than stored in the frame's
     * metadata, so a cursor's load of the page does not depend on a load of the metadata first (and the
     * CPU can fetch both at once on a hit).
     */
    long pageAddress(int frame) {
        return memory + ((long) frame << pageShift);
    }

    EvictionPolicy policy() {
        return policy;
    }

    boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("page cache is closed");
        }
    }

    /**
     * Flushes and unmaps every file, stops the evictor and frees the memory. If a file cannot be
     * flushed, the cache stays open with that file's dirty pages in it, and the error is thrown: call
     * close again once the cause is fixed.
     */
    @Override
    public void close() throws IOException {
        synchronized (mappingLock) {
            if (closed) {
                return;
            }
            IOException failure = null;
            for (PagedFile file : new ArrayList<>(filesByPath.values())) {
                try {
                    while (!file.releaseReference()) {
                        // close every mapping at once: the cache is going away
                    }
                    fenceOffPrefetch(file);
                    try {
                        file.unmap();
                    } finally {
                        liftPrefetchFence(file);
                    }
                    filesById.set(file.fileId(), null);
                    filesByPath.remove(file.path());
                    usedFileIds.clear(file.fileId());
                } catch (IOException | RuntimeException e) {
                    file.retain();
                    IOException io = e instanceof IOException i ? i : new IOException("closing " + file.path() + ": " + e.getMessage(), e);
                    if (failure == null) {
                        failure = io;
                    } else {
                        failure.addSuppressed(io);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            closed = true;
        }
        if (prefetcher != null) {
            prefetcher.shutdown();
        }
        if (evictor != null) {
            evictor.shutdown();
        }
        try {
            swappers.close();
        } finally {
            UNSAFE.freeMemory(pageAllocation);
            frames.close();
        }
    }
}
