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
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.CacheCounter;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.internal.FreeList;
import io.ratatosk.pagecache.internal.OpenCursorCount;
import io.ratatosk.pagecache.internal.PageMemory;
import io.ratatosk.pagecache.writeaware.WriteAwareEviction;
import io.ratatosk.policies.EvictionPolicies;
import io.ratatosk.policies.GlobalClockPolicy;
import io.ratatosk.policies.MuninnPolicy;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

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
    /** Passes over all frames without a victim before the cache checks whether everything is pinned. */
    private static final int PASSES_BEFORE_PIN_CHECK = 4;
    /** How long a fault waits, in total, for a frame to become evictable while all are pinned. */
    private static final long ALL_PINNED_TIMEOUT_NANOS = 2_000_000_000L;

    private final PageCacheConfig config;
    private final int pageSize;
    private final int frameCount;
    private final FrameTable frames;
    private final PageMemory memory;
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
    /** Mapped files by {@link #identityOf identity}; guarded by mappingLock. */
    private final Map<Object, PagedFile> filesByIdentity = new HashMap<>();
    /** Guarded by mappingLock. */
    private final BitSet usedFileIds = new BitSet();
    /** Where the search for a free file id starts: ids go round, so a freed one is reused as late as possible. */
    private int nextFileId;
    private final Object mappingLock = new Object();
    private final AtomicReference<IOException> pendingEvictionError = new AtomicReference<>();
    private final ThreadLocal<Sweep> cooperativeSweep = ThreadLocal.withInitial(Sweep::cooperative);
    private final OpenCursorCount openCursors = new OpenCursorCount();
    private final AtomicBoolean memoryReleased = new AtomicBoolean();
    private final BackgroundEvictor evictor;
    /** Prefetches from NVM when {@code pagecache.nvm.prefetch} > 0 with the NVM tier, else null. */
    private final NvmPrefetcher prefetcher;
    /** Set, under mappingLock, once every file is unmapped and the threads stopped; memory goes when no cursor is open. */
    private volatile boolean closed;

    /**
     * Builds the cache; on any failure releases what it took (memory, threads) before throwing. The page
     * memory is reserved first: it is only address space until pages are touched, so a size the machine
     * cannot have fails before anything is zeroed (the frame table is).
     */
    private PageCache(PageCacheConfig config, PageSwapperFactory swappers) {
        this.config = config;
        this.pageSize = config.pageSize();
        this.frameCount = config.frames();
        this.swappers = swappers;
        this.nvm = swappers instanceof NvmSwapStore tier ? tier : null;
        this.keepFree = config.keepFree();
        this.evictorWakeThreshold = BackgroundEvictor.wakeThreshold(keepFree);
        this.memory = new PageMemory(frameCount, pageSize, "pagecache.memory=" + config.memoryBytes());
        FrameTable frameTable = null;
        BackgroundEvictor backgroundEvictor = null;
        NvmPrefetcher nvmPrefetcher = null;
        try {
            frameTable = new FrameTable(frameCount);
            this.frames = frameTable;
            this.policy = withWriteAwareness(EvictionPolicies.create(config.policy(), frameTable, new ConfigPolicySettings(config)));
            this.freeList = new FreeList(frameCount);
            freeList.fillInOrder();
            if (config.evictorEnabled()) {
                backgroundEvictor = new BackgroundEvictor(this, keepFree);
                backgroundEvictor.start();
            }
            this.evictor = backgroundEvictor;
            if (nvm != null && nvm.config().prefetch() > 0) {
                nvmPrefetcher = new NvmPrefetcher(this, nvm, nvm.config().prefetch());
                nvm.swapInListener(nvmPrefetcher);
                nvmPrefetcher.start();
            }
            this.prefetcher = nvmPrefetcher;
        } catch (Throwable t) {
            if (nvmPrefetcher != null) {
                nvm.swapInListener(null);
                nvmPrefetcher.shutdown();
            }
            if (backgroundEvictor != null) {
                backgroundEvictor.shutdown();
            }
            if (frameTable != null) {
                frameTable.close();
            }
            memory.free();
            throw t;
        }
    }

    /** Opens a page cache over plain files, with the NVM tier in front of them when {@code pagecache.swap=nvm}. */
    public static PageCache open(PageCacheConfig config) {
        return open(config, new FileSwapperFactory());
    }

    /**
     * Opens a page cache whose files are reached through the given swappers (a test's fault injector,
     * say). With {@code pagecache.swap=nvm} the NVM tier, configured by the {@code pagecache.nvm.*}
     * flags, is put in front of them, unless {@code swappers} already is one. If opening fails, nothing
     * it took is kept: no memory, no thread, no open file.
     */
    public static PageCache open(PageCacheConfig config, PageSwapperFactory swappers) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(swappers, "swappers");
        if (!"nvm".equals(config.swap()) || swappers instanceof NvmSwapStore) {
            return new PageCache(config, swappers);
        }
        NvmSwapStore tier = new NvmSwapStore(NvmDeviceConfig.from(config), swappers);
        try {
            return new PageCache(config, tier);
        } catch (Throwable t) {
            try {
                tier.close();
            } catch (Throwable suppressed) {
                t.addSuppressed(suppressed);
            }
            throw t;
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
     * Maps {@code path}, creating the file if it does not exist. A file is mapped once: mapping it again,
     * by this path or any other that reaches the same file (a symbolic link, a symlinked folder, {@code ..},
     * a relative path), returns the same {@link PagedFile} (with the same page size); close each mapping
     * once. Identity is the file itself: the file system's file key, or its real path where there is none.
     *
     * @param filePageSize the file's page size, at most the cache's {@code pagecache.page_size}
     * @throws IllegalStateException once the cache is closed (or while it closes)
     */
    public PagedFile map(Path path, int filePageSize) throws IOException {
        return map(path, filePageSize, true);
    }

    /** As {@link #map(Path, int)}; with {@code create == false} a missing file is an error. */
    public PagedFile map(Path path, int filePageSize, boolean create) throws IOException {
        Objects.requireNonNull(path, "path");
        if (filePageSize <= 0 || filePageSize > pageSize) {
            throw new IllegalArgumentException("file page size must be in [1, " + pageSize
                + "] (pagecache.page_size): filePageSize=" + filePageSize + " for " + path);
        }
        synchronized (mappingLock) {
            checkOpen();
            throwPendingEvictionError();
            Path real = realPath(path, create);
            Object identity = identityOf(real);
            PagedFile existing = filesByIdentity.get(identity);
            if (existing != null && existing.isClosed()) {
                closeSwapper(existing); // its unmap could not close the file: try again before mapping anew
                existing = null;
            }
            if (existing != null) {
                if (existing.pageSize() != filePageSize) {
                    throw new IllegalArgumentException(real + " is already mapped with page size " + existing.pageSize()
                        + "; cannot map it again with page size " + filePageSize);
                }
                existing.retain();
                return existing;
            }
            int fileId = allocateFileId();
            PageSwapper swapper = swappers.create(real, fileId, filePageSize, create);
            PagedFile file;
            try {
                file = new PagedFile(this, fileId, real, identity, filePageSize, swapper);
            } catch (Throwable t) {
                try {
                    swapper.close();
                } catch (Throwable suppressed) {
                    t.addSuppressed(suppressed);
                }
                throw t;
            }
            usedFileIds.set(fileId);
            filesById.set(fileId, file);
            filesByIdentity.put(identity, file);
            return file;
        }
    }

    /** The file's real path, creating it first if asked; refuses what is not a regular file. */
    private static Path realPath(Path path, boolean create) throws IOException {
        Path absolute = path.toAbsolutePath();
        if (create) {
            try {
                Files.createFile(absolute);
            } catch (FileAlreadyExistsException exists) {
                // mapped or not, it is there: fine
            }
        }
        Path real;
        try {
            real = absolute.toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(absolute.toString(), null,
                create ? "not mapped: the path leads nowhere (a dangling symbolic link?)" : "not mapped: the file does not exist and create=false");
        }
        if (!Files.isRegularFile(real)) {
            throw new IOException("cannot map " + path + ": " + real + " is not a regular file");
        }
        return real;
    }

    /** What makes two paths the same file: its file key (device and inode on Unix), else its real path. */
    private static Object identityOf(Path real) throws IOException {
        Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
        return key != null ? key : real;
    }

    private int allocateFileId() {
        int id = usedFileIds.nextClearBit(nextFileId);
        if (id > PageKey.MAX_FILE_ID) {
            id = usedFileIds.nextClearBit(0);
        }
        if (id > PageKey.MAX_FILE_ID) {
            throw new IllegalStateException("too many mapped files: at most " + (PageKey.MAX_FILE_ID + 1));
        }
        nextFileId = id + 1;
        return id;
    }

    /** Drops one mapping of {@code file}; the last one flushes it, drops its pages and closes it. */
    void unmap(PagedFile file) throws IOException {
        synchronized (mappingLock) {
            if (filesById.get(file.fileId()) != file) {
                return; // already unmapped
            }
            if (file.isClosed()) {
                closeSwapper(file); // an earlier unmap could not close the file: try again
                return;
            }
            if (file.releaseReference()) {
                unmapLocked(file);
            }
        }
    }

    /** Under mappingLock, for a file whose last reference went: unmaps it, then closes its swapper. */
    private void unmapLocked(PagedFile file) throws IOException {
        try {
            file.unmap();
        } catch (Throwable t) {
            file.retain(); // still mapped, dirty pages kept: the caller may retry
            throw t;
        }
        closeSwapper(file);
    }

    /**
     * Under mappingLock, for an unmapped file (no frame holds its pages): closes its swapper and forgets
     * it, freeing its file id. If closing fails the file stays registered (and its id reserved, since the
     * tier behind it may still hold its pages) as a closed mapping, which the next {@code map} of the
     * file, {@code close} of a PagedFile of it or cache close tries to close again.
     */
    private void closeSwapper(PagedFile file) throws IOException {
        try {
            file.swapper().close();
        } catch (IOException | RuntimeException e) {
            throw new IOException(file.path() + " was flushed and unmapped, but closing it failed; it is closed again on"
                + " its next map, or when the page cache closes: " + e.getMessage(), e);
        }
        filesById.set(file.fileId(), null);
        filesByIdentity.remove(file.identity());
        usedFileIds.clear(file.fileId());
    }

    /**
     * Flushes every mapped file and forces it to storage.
     *
     * @throws IllegalStateException once the cache is closed
     */
    public void flushAndForce() throws IOException {
        checkOpen();
        List<PagedFile> files;
        synchronized (mappingLock) {
            files = new ArrayList<>(filesByIdentity.values());
        }
        for (PagedFile f : files) {
            if (!f.isClosed()) {
                f.flush();
            }
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
        int attempt = 0;
        while (!frames.tryExclusiveLock(frame)) {
            attempt = Backoff.pause(attempt);
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
            EvictionOutcome outcome = tryEvict(victim, false);
            if (outcome == EvictionOutcome.EVICTED) {
                return victim;
            }
            if (outcome == EvictionOutcome.WRITE_FAILED) {
                throwPendingEvictionError(); // report it now, to the fault that needed the frame
            }
        }
    }

    /**
     * Evicts the policy's candidate if it still can: takes its exclusive lock, checks it is still bound
     * (nobody evicted it meanwhile), writes it out if dirty and unbinds it. On {@link EvictionOutcome#EVICTED}
     * the caller holds the frame exclusively, unbound; otherwise nothing is held, and the page is as it was.
     */
    EvictionOutcome tryEvict(int victim, boolean background) {
        if (!frames.tryExclusiveLock(victim)) {
            return EvictionOutcome.BUSY;
        }
        boolean evicted = false;
        try {
            long key = frames.binding(victim);
            if (key == PageKey.UNBOUND) {
                return EvictionOutcome.BUSY; // evicted by someone else meanwhile
            }
            if (!writeOut(victim, key)) {
                return EvictionOutcome.WRITE_FAILED;
            }
            unbind(victim, key);
            evicted = true;
            counters.increment(background ? CacheCounter.BACKGROUND_EVICTIONS : CacheCounter.COOPERATIVE_EVICTIONS);
            return EvictionOutcome.EVICTED;
        } finally {
            if (!evicted) {
                frames.unlockExclusive(victim);
            }
        }
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
     * Writes the page in {@code frame} (held exclusively, bound to {@code key}) out of the frames: to its
     * file if dirty, or to the tier in front of it. Returns false, leaving the page resident, dirty and
     * bound, if that failed in any way; the error is kept for the next map, fault or flush.
     */
    private boolean writeOut(int frame, long key) {
        PagedFile file = filesById.get(PageKey.fileId(key));
        long pageId = PageKey.pageId(key);
        boolean dirty = frames.isModified(frame);
        try {
            if (file == null) {
                throw new IllegalStateException("frame " + frame + " is bound to " + PageKey.toString(key)
                    + ", but no file is mapped under that id: a page outlived its file's unmap");
            }
            file.swapper().evict(pageId, pageAddress(frame), dirty);
        } catch (Throwable t) {
            counters.increment(CacheCounter.EVICTION_ERRORS);
            recordPendingError(new IOException("evicting " + (file == null ? PageKey.toString(key) : file.path() + " page " + pageId)
                + " failed; the page stays dirty in the cache: " + t, t));
            return false;
        }
        if (dirty) {
            frames.clearModifiedExclusively(frame);
            counters.increment(CacheCounter.EVICTION_WRITES);
            counters.add(CacheCounter.BYTES_WRITTEN, file.pageSize());
        }
        return true;
    }

    /** Binds a frame the caller holds exclusively, and has just filled, to the page {@code key}. */
    void bind(int frame, long key) {
        frames.clearModifiedExclusively(frame);
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
    }

    /**
     * Unbinds a frame the caller holds exclusively from the page {@code key}: its table entry is cleared,
     * the frame holds no page, the policy forgets it. Never throws: a policy that fails here is reported
     * on the next call instead, so no frame is ever left half unbound.
     */
    private void unbind(int frame, long key) {
        PagedFile file = filesById.get(PageKey.fileId(key));
        if (file != null) {
            file.evicted(PageKey.pageId(key), frame);
        }
        frames.setBinding(frame, PageKey.UNBOUND);
        try {
            policy.onEvicted(frame, key);
        } catch (Throwable t) {
            recordPendingError(new IOException("policy " + policy.name() + " failed to forget frame " + frame + " ("
                + PageKey.toString(key) + "): " + t, t));
        }
    }

    /**
     * A fault into {@code frame} (held exclusively) failed: unbinds it if it got that far, and returns it
     * to the free list. The caller resets the page's table entry.
     */
    void abandonFill(int frame, long key, boolean bound) {
        if (bound) {
            unbind(frame, key);
        }
        frames.unlockExclusive(frame);
        freeList.push(frame);
    }

    /** Drops a page of a file being unmapped, writing it first if dirty; the caller holds the frame exclusively. */
    void dropLocked(PagedFile file, long pageId, int frame) throws IOException {
        long key = PageKey.of(file.fileId(), pageId);
        boolean dropped = false;
        try {
            if (frames.binding(frame) != key) {
                return; // evicted and reused meanwhile
            }
            if (frames.isModified(frame)) {
                file.swapper().write(pageId, pageAddress(frame));
                frames.clearModifiedExclusively(frame);
                countFlushed(file.pageSize());
            }
            unbind(frame, key);
            dropped = true;
        } finally {
            frames.unlockExclusive(frame);
            if (dropped) {
                freeList.push(frame);
            }
        }
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

    /** Returns an unlocked, unbound frame to the free list. */
    void freeFrame(int frame) {
        freeList.push(frame);
    }

    int freeFrames() {
        return freeList.size();
    }

    private void wakeEvictorIfLow() {
        if (evictor != null && freeList.size() < evictorWakeThreshold) {
            evictor.wake();
        }
    }

    private void recordPendingError(IOException error) {
        if (!pendingEvictionError.compareAndSet(null, error)) {
            IOException pending = pendingEvictionError.get();
            if (pending != null) {
                pending.addSuppressed(error);
            } else {
                recordPendingError(error); // thrown meanwhile: this one is the next to report
            }
        }
    }

    /** Throws (once) the error an eviction ran into since the last call, if any. */
    void throwPendingEvictionError() throws IOException {
        IOException e = pendingEvictionError.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    // ---- cursors --------------------------------------------------------------------------------

    /** Counts a cursor about to open; see {@link OpenCursorCount}. */
    int cursorOpened() {
        return openCursors.opened();
    }

    /** Counts a cursor closed; the last one closed after the cache frees the memory. */
    void cursorClosed(int stripe) {
        openCursors.closed(stripe);
        if (closed) {
            releaseMemoryIfUnused();
        }
    }

    /** Frees the page memory and frame table once the cache is closed and no cursor can touch them. */
    private void releaseMemoryIfUnused() {
        if (closed && openCursors.count() == 0 && memoryReleased.compareAndSet(false, true)) {
            memory.free();
            frames.close();
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
        return memory.address(frame);
    }

    EvictionPolicy policy() {
        return policy;
    }

    boolean isClosed() {
        return closed;
    }

    /** True once the page memory and frame table are freed (the cache closed and no cursor open). */
    boolean isMemoryReleased() {
        return memoryReleased.get();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("page cache is closed");
        }
    }

    /**
     * Flushes and unmaps every mapped file (whatever its number of mappings), stops the evictor, and
     * frees the memory (at once, or when the last cursor still open is closed). If a file cannot be
     * flushed or a write cursor still holds one of its pages, the cache stays open with that file mapped
     * and its dirty pages in it, and the error is thrown: call close again once the cause is fixed.
     * Closing a closed cache does nothing.
     */
    @Override
    public void close() throws IOException {
        synchronized (mappingLock) {
            if (closed) {
                return;
            }
            Throwable failure = null;
            for (PagedFile file : new ArrayList<>(filesByIdentity.values())) {
                try {
                    if (file.isClosed()) {
                        closeSwapper(file);
                    } else {
                        while (!file.releaseReference()) {
                            // every mapping goes at once: the cache is going away
                        }
                        unmapLocked(file);
                    }
                } catch (Throwable t) {
                    if (failure == null) {
                        failure = t;
                    } else {
                        failure.addSuppressed(t);
                    }
                }
            }
            if (failure != null) {
                throwUnchecked(failure);
            }
            try {
                if (prefetcher != null) {
                    nvm.swapInListener(null);
                    prefetcher.shutdown();
                }
                if (evictor != null) {
                    evictor.shutdown();
                }
                swappers.close();
            } finally {
                closed = true;
                releaseMemoryIfUnused();
            }
        }
    }

    private static void throwUnchecked(Throwable t) throws IOException {
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error error) {
            throw error;
        }
        throw new IOException(t);
    }
}
