package io.ratatosk.pagecache;

import io.ratatosk.core.CounterSet;
import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.CacheCounter;
import io.ratatosk.pagecache.internal.FreeList;
import io.ratatosk.pagecache.internal.HostLog;
import io.ratatosk.pagecache.internal.IopsLimiter;
import io.ratatosk.pagecache.internal.CursorCounts;
import io.ratatosk.pagecache.internal.PageMemory;
import io.ratatosk.pagecache.metrics.EvictionEvent;
import io.ratatosk.pagecache.metrics.JfrEvents;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The frames and what decides what is in them: the page memory, the frame table, the free list, the
 * eviction policy, and the one eviction loop ({@link #evict}) that the background evictor and a faulting
 * thread (cooperative eviction) both run. Binding a frame to a page and unbinding it are one step each
 * ({@link #bind}, {@link #unbind}); one attempt to evict a frame returns an {@link EvictionOutcome}.
 *
 * <p>Pages belong to files; the engine reaches the file of a bound frame through the {@link FrameOwner}
 * registered under its file id while it is mapped. It also owns the memory's lifetime: the memory is
 * freed once the engine is {@link #close closed} and no cursor is open ({@link CursorCounts}).
 */
final class EvictionEngine {
    /** Returned by {@link #evict} with a background sweep when it gives up for now. */
    static final int NO_FRAME = -1;
    /** Passes over all frames without a victim before a fault checks whether everything is pinned. */
    private static final int PASSES_BEFORE_PIN_CHECK = 4;
    /** Passes without a victim after which the background evictor leaves the frames to the faults for a while. */
    private static final int BACKGROUND_PASSES = 2;
    /** How long a fault waits, in total, for a frame to become evictable while all are pinned. */
    private static final long ALL_PINNED_TIMEOUT_NANOS = 2_000_000_000L;
    private static final long ALL_PINNED_PARK_NANOS = 100_000;
    /**
     * How long a fault goes on asking a policy that names no victim while frames are evictable before it
     * gives up: a policy stuck that way (a bug) must fail the fault, not hang the host's threads.
     */
    static final long POLICY_STALL_TIMEOUT_NANOS = 10_000_000_000L;

    private final int frameCount;
    private final int pageSize;
    /**
     * Where a cursor's hit path finds a frame's descriptor and page from a translation entry (frame + 1): the frame
     * before frame 0's addresses, and log2(page size). Worked out once here, so that opening a cursor only copies them.
     */
    private final long frameBeforeFirst;
    private final long pageBeforeFirst;
    private final int pageShift;
    private volatile long policyStallTimeoutNanos = POLICY_STALL_TIMEOUT_NANOS;
    /** Read only once every frame is found pinned, never on a hit or a fault that finds a victim. */
    private volatile long allPinnedTimeoutNanos = ALL_PINNED_TIMEOUT_NANOS;
    /** How the memory was configured, for messages: "pagecache.memory=... bytes, pagecache.page_size=...". */
    private final String sizeText;
    private final PageMemory memory;
    private final FrameTable frames;
    private final EvictionPolicy policy;
    /** The policy's hit filter, asked for once: the object every read cursor's hit path reads. */
    private final HitFilter hitFilter;
    private final FreeList freeList;
    private final CounterSet<CacheCounter> counters = new CounterSet<>(CacheCounter.class);
    private final AtomicReferenceArray<FrameOwner> owners = new AtomicReferenceArray<>(PageKey.MAX_FILE_ID + 1);
    /** Read without a lock on every fault; set, added to and taken only under {@link #pendingErrorLock}. */
    private final AtomicReference<IOException> pendingError = new AtomicReference<>();
    /**
     * Makes adding a failure to the pending error and taking it one step each: an add that found the error just before
     * another thread took and threw it once went into an exception already thrown, where no one looked again.
     */
    private final Object pendingErrorLock = new Object();
    /** Failures recorded while the pending error already held {@link #MAX_KEPT_PENDING_ERRORS}: counted, not kept. Under the lock. */
    private long unkeptErrors;
    private final ThreadLocal<Sweep> cooperativeSweep = ThreadLocal.withInitial(Sweep::cooperative);
    private final CursorCounts cursorCounts = new CursorCounts();
    /**
     * Set once the memory is freed, under {@link #memoryLock}: a lock, not an atomic, because the close that frees it
     * may run with the heap full, and an atomic's first compare-and-set in a JVM links its VarHandle, which allocates:
     * the OutOfMemoryError came out before the memory was freed, which it then never was.
     */
    private volatile boolean memoryReleased;
    private final Object memoryLock = new Object();
    /** Whether a background evictor runs the policy's housekeeping; if not, a cooperative eviction does. */
    private volatile boolean backgroundHousekeeping;
    /** Called when a fault finds fewer than {@code wakeThreshold} frames free; nothing until an evictor is attached. */
    private volatile Runnable lowOnFrames = () -> { };
    private volatile int wakeThreshold;
    private volatile boolean closed;
    /** Guarded by this; see {@link #readAhead()}. */
    private ReadAheadWorker readAhead;
    /** The read-ahead thread could not be started once: not tried again (see {@link #readAhead}). */
    private boolean readAheadUnavailable;
    /** Spaces the write calls of flushes ({@code pagecache.flush.iops_limit}); evictions and unmaps do not wait on it. */
    private volatile IopsLimiter flushLimiter = IopsLimiter.UNLIMITED;

    /**
     * Reserves the page memory first (only address space until touched, so a size the machine cannot
     * have fails before anything is zeroed), then the frame table, then the policy; on any failure
     * releases what it took.
     */
    EvictionEngine(PageCacheConfig config, Function<FrameTable, EvictionPolicy> policyFactory) {
        this(config, policyFactory, FrameTable::new);
    }

    /** As above, with the frame table made by {@code frameTables}: a test's, to fail its allocation. */
    EvictionEngine(PageCacheConfig config, Function<FrameTable, EvictionPolicy> policyFactory,
                   IntFunction<FrameTable> frameTables) {
        this.frameCount = config.frames();
        this.pageSize = config.pageSize();
        this.sizeText = "pagecache.memory=" + config.memoryBytes() + " bytes, pagecache.page_size=" + pageSize;
        this.memory = new PageMemory(frameCount, pageSize, "pagecache.memory=" + config.memoryBytes(), config.hugePages());
        FrameTable table = null;
        try {
            table = frameTables.apply(frameCount);
            this.frames = table;
            this.frameBeforeFirst = table.frameAddress(0) - FrameDescriptor.FRAME_BYTES;
            this.pageBeforeFirst = memory.address(0) - pageSize;
            this.pageShift = Integer.numberOfTrailingZeros(pageSize);
            this.policy = policyFactory.apply(table);
            this.hitFilter = Objects.requireNonNull(policy.hitFilter(),
                () -> "policy " + policy.name() + " returned no hit filter (EvictionPolicy.hitFilter())");
            this.freeList = new FreeList(frameCount);
            freeList.fillInOrder();
        } catch (Throwable t) {
            if (table != null) {
                table.close();
            }
            memory.free();
            if (t instanceof OutOfMemoryError && table == null) {
                // The frame table is native memory: more heap (-Xmx, as this once said) leaves less of it, not more.
                throw new IllegalStateException("cannot allocate the frame table of " + frameCount + " frames ("
                    + (long) frameCount * FrameDescriptor.FRAME_BYTES + " bytes of native memory, off the Java heap, "
                    + FrameDescriptor.FRAME_BYTES + " a frame; " + sizeText + "): " + t.getMessage() + "; the machine"
                    + " (or its container) has no more memory to give: give pagecache.memory a smaller size or"
                    + " pagecache.page_size a larger one (fewer frames), or free memory on the machine", t);
            }
            if (t instanceof OutOfMemoryError) {
                // The policy's and free list's arrays grow with the frame count, on the heap: name the flags that sized
                // them, not just "Java heap space".
                throw new IllegalStateException("cannot allocate the bookkeeping of " + frameCount + " frames ("
                    + sizeText + ", pagecache.policy=" + config.policy() + "): " + t.getMessage()
                    + "; give the JVM more heap (-Xmx), or use fewer, larger pages", t);
            }
            throw t;
        }
    }

    /** Lets a background evictor know when faults run low on free frames, and leaves housekeeping to it. */
    void attachEvictor(Runnable wake, int threshold) {
        this.wakeThreshold = threshold;
        this.lowOnFrames = wake;
        this.backgroundHousekeeping = true;
        policy.housekeepingInBackground();
    }

    // ---- frames ---------------------------------------------------------------------------------

    int frameCount() {
        return frameCount;
    }

    FrameTable frames() {
        return frames;
    }

    EvictionPolicy policy() {
        return policy;
    }

    HitFilter hitFilter() {
        return hitFilter;
    }

    /** What came of huge pages for the page memory ({@link PageMemory#hugePages()}). */
    String hugePages() {
        return memory.hugePages();
    }

    /**
     * The address of frame {@code frame}'s page. Computed from the index rather than stored in the frame's
     * metadata, so a cursor's load of the page does not depend on a load of the metadata first.
     */
    long pageAddress(int frame) {
        return memory.address(frame);
    }

    int freeFrames() {
        return freeList.size();
    }

    /** The cache's page size: frame {@code f}'s page is at {@code pageAddress(0) + f * pageSize()}. */
    int pageSize() {
        return pageSize;
    }

    /** The descriptor address of the frame before frame 0: frame {@code f}'s is this plus (f + 1) descriptors. */
    long frameBeforeFirst() {
        return frameBeforeFirst;
    }

    /** The page address of the frame before frame 0: frame {@code f}'s page is this plus (f + 1) pages. */
    long pageBeforeFirst() {
        return pageBeforeFirst;
    }

    /** log2 of {@link #pageSize()}. */
    int pageShift() {
        return pageShift;
    }

    /** A free frame, exclusively locked and unbound: from the free list, else by evicting one. */
    int grabFrame() throws IOException {
        int frame = freeList.pop();
        wakeEvictorIfLow();
        if (frame >= 0) {
            lockFreeFrame(frame);
            return frame;
        }
        if (!backgroundHousekeeping) {
            // Nobody else runs the policy's housekeeping (history trimming, pending consolidation): the
            // evicting thread is the evictor. The simulator calls it at the same point.
            policy.housekeeping();
        }
        return evict(cooperativeSweep.get());
    }

    /** A free frame, exclusively locked and unbound, or {@link #NO_FRAME} when none is free: for a prefetch, which never evicts. */
    int tryGrabFreeFrame() {
        int frame = freeList.pop();
        if (frame >= 0) {
            wakeEvictorIfLow();
            lockFreeFrame(frame);
        }
        return frame;
    }

    /**
     * A free frame, exclusively locked and unbound, or {@link #NO_FRAME}: from the free list, else by
     * evicting with {@code sweep}, a background sweep that gives up rather than waits. For a read-ahead,
     * which may evict (it fetches what a scan is about to need) but must never stall.
     */
    int grabFrameWithoutWaiting(Sweep sweep) throws IOException {
        int frame = tryGrabFreeFrame();
        return frame >= 0 ? frame : evict(sweep);
    }

    /** Returns a frame the caller holds exclusively and that is unbound to the free list, unlocked. */
    void free(int frame) {
        frames.unlockExclusive(frame);
        freeList.push(frame);
    }

    private void lockFreeFrame(int frame) {
        // A free frame is unbound, so nobody holds it but a racing writer or evictor that looked at it
        // an instant before it was freed; it lets go at once.
        int attempt = 0;
        while (!frames.tryExclusiveLock(frame)) {
            attempt = Backoff.pause(attempt);
        }
    }

    private void wakeEvictorIfLow() {
        if (freeList.size() < wakeThreshold) {
            lowOnFrames.run();
        }
    }

    // ---- binding --------------------------------------------------------------------------------

    /** Binds a frame the caller holds exclusively, and has just filled, to the page {@code key}. */
    void bind(int frame, long key) {
        frames.clearModifiedExclusively(frame);
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
    }

    /**
     * Unbinds a frame the caller holds exclusively from the page {@code key}: its file's table entry is
     * cleared, the frame holds no page, the policy forgets it. Never throws: a policy that fails here is
     * reported on the next call instead, so no frame is ever left half unbound.
     */
    void unbind(int frame, long key) {
        // The binding goes first: once the table entry is gone, an unmap no longer waits for this frame, and
        // it must then find no frame bound to the file (it returns, and the file's id may be mapped anew).
        frames.setBinding(frame, PageKey.UNBOUND);
        FrameOwner owner = owners.get(PageKey.fileId(key));
        if (owner != null) {
            owner.pageLeft(PageKey.pageId(key), frame);
        }
        try {
            policy.onEvicted(frame, key);
        } catch (Throwable t) {
            recordPendingError(new IOException("policy " + policy.name() + " failed to forget frame " + frame + " ("
                + PageKey.toString(key) + "): " + t, t));
        }
    }

    /** A fault into {@code frame} (held exclusively) failed: unbinds it if it got that far, and frees it. */
    void abandonFill(int frame, long key, boolean bound) {
        if (bound) {
            unbind(frame, key);
        }
        free(frame);
    }

    /**
     * Drops a page of a file being unmapped, writing it first if dirty; the caller holds the frame
     * exclusively, and gets it released whatever happens.
     */
    void drop(FrameOwner owner, long key, int frame) throws IOException {
        boolean dropped = false;
        try {
            if (frames.binding(frame) != key) {
                return; // evicted and reused meanwhile
            }
            if (frames.isModified(frame)) {
                owner.swapper().write(PageKey.pageId(key), pageAddress(frame));
                frames.clearModifiedExclusively(frame);
                countFlushed(owner.pageSize());
            }
            unbind(frame, key);
            dropped = true;
        } finally {
            if (dropped) {
                free(frame);
            } else {
                frames.unlockExclusive(frame);
            }
        }
    }

    /**
     * Drops a page that was truncated away: the caller holds the frame exclusively; the page is not
     * written, even if dirty (it no longer exists), and the frame goes back to the free list.
     */
    void discard(long key, int frame) {
        frames.clearModifiedExclusively(frame);
        unbind(frame, key);
        free(frame);
    }

    // ---- eviction -------------------------------------------------------------------------------

    /**
     * The eviction loop: asks the policy for candidates and evicts the first it can, returning the frame
     * exclusively locked and unbound. A cooperative sweep (a fault's) takes a free frame if one appears
     * meanwhile, throws a write-out failure at once, and waits while every frame is pinned, giving up after
     * {@link #allPinnedTimeoutNanos} with a {@link NoEvictableFrameException}. A background sweep never
     * waits: after {@link #BACKGROUND_PASSES} passes without a victim, or a failed write-out, it returns
     * {@link #NO_FRAME} so the evictor can back off.
     */
    int evict(Sweep sweep) throws IOException {
        boolean background = sweep.isBackground();
        sweep.begin();
        int passesWithoutVictim = 0;
        long allPinnedSince = 0;
        long noVictimSince = 0;
        while (true) {
            if (!background) {
                int free = freeList.pop();
                if (free >= 0) {
                    lockFreeFrame(free);
                    return free;
                }
            }
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                passesWithoutVictim++;
                if (background) {
                    if (passesWithoutVictim > BACKGROUND_PASSES) {
                        return NO_FRAME; // everything is pinned or hot: let the faults proceed
                    }
                } else if (passesWithoutVictim >= PASSES_BEFORE_PIN_CHECK) {
                    allPinnedSince = waitWhileAllPinned(allPinnedSince);
                    noVictimSince = checkPolicyNotStuck(noVictimSince, allPinnedSince);
                }
                continue;
            }
            // Locked as it was, a frame past the table's end (or before its start) was a compare-and-set on native
            // memory that is not the cache's, and the loop went on from whatever it read there.
            EvictionPolicy.checkedVictim(victim, "eviction policy ", policy, frameCount);
            noVictimSince = 0;
            EvictionOutcome outcome = tryEvict(victim, background);
            if (outcome == EvictionOutcome.EVICTED) {
                return victim;
            }
            if (outcome == EvictionOutcome.WRITE_FAILED) {
                if (background) {
                    return NO_FRAME; // the disk refused a write-out: do not hammer it
                }
                throwPendingError(); // report it now, to the fault that needed the frame
            }
        }
    }

    /**
     * Evicts the policy's candidate if it still can: takes its exclusive lock, checks it is still bound
     * (nobody evicted it meanwhile), writes it out and unbinds it. On {@link EvictionOutcome#EVICTED} the
     * caller holds the frame exclusively, unbound; otherwise nothing is held, and the page is as it was.
     */
    EvictionOutcome tryEvict(int victim, boolean background) {
        if (!frames.tryExclusiveLock(victim)) {
            return EvictionOutcome.BUSY;
        }
        boolean evicted = false;
        boolean handedOver = false;
        try {
            long key = frames.binding(victim);
            if (key == PageKey.UNBOUND) {
                return EvictionOutcome.BUSY; // evicted by someone else meanwhile
            }
            EvictionEvent event = JfrEvents.eviction();
            boolean dirty = frames.isModified(victim);
            if (!writeOut(victim, key, background)) {
                return EvictionOutcome.WRITE_FAILED;
            }
            unbind(victim, key);
            evicted = true;
            counters.increment(background ? CacheCounter.BACKGROUND_EVICTIONS : CacheCounter.COOPERATIVE_EVICTIONS);
            if (event != null && event.shouldCommit()) {
                FrameOwner owner = owners.get(PageKey.fileId(key));
                event.file = owner == null ? PageKey.toString(key) : owner.path().toString();
                event.page = PageKey.pageId(key);
                event.dirty = dirty;
                event.background = background;
                event.commit();
            }
            handedOver = true;
            return EvictionOutcome.EVICTED;
        } finally {
            if (!evicted) {
                frames.unlockExclusive(victim);
            } else if (!handedOver) {
                // Evicted, but something after the unbind threw (the event's OutOfMemoryError): no caller gets the frame,
                // so it goes back to the free list; it once stayed locked and unbound, lost to the cache for good.
                free(victim);
            }
        }
    }

    /**
     * Writes the page in {@code frame} (held exclusively, bound to {@code key}) out of the frames: to its
     * file if dirty, or into the tier in front of it. Returns false, leaving the page resident, dirty and
     * bound, if that failed in any way; the error is kept for the next map, fault or flush.
     */
    private boolean writeOut(int frame, long key, boolean background) {
        FrameOwner owner = owners.get(PageKey.fileId(key));
        long pageId = PageKey.pageId(key);
        boolean dirty = frames.isModified(frame);
        try {
            if (owner == null) {
                throw new IllegalStateException("frame " + frame + " is bound to " + PageKey.toString(key)
                    + ", but no file is mapped under that id: a page outlived its file's unmap");
            }
            if (dirty && background && owner instanceof FileMapping file && file.writesBehind()) {
                file.writeBehind().writeOut(pageId, frame); // with its dirty neighbours, in one call
            } else {
                owner.swapper().evict(pageId, pageAddress(frame), dirty);
            }
        } catch (Throwable t) {
            recordPendingError(new IOException("evicting " + (owner == null ? PageKey.toString(key) : owner.path() + " page " + pageId)
                + " failed; the page stays dirty in the cache: " + t, t));
            // Counted after it is pending: whoever sees the count (stats()) and then flushes gets the error thrown
            counters.increment(CacheCounter.EVICTION_ERRORS);
            return false;
        }
        if (dirty) {
            frames.clearModifiedExclusively(frame);
            counters.increment(CacheCounter.EVICTION_WRITES);
            counters.add(CacheCounter.BYTES_WRITTEN, owner.pageSize());
            countWriteCall(1);
        }
        return true;
    }

    /**
     * Called after a pass without a victim while not every frame was pinned (allPinnedSince 0): once the
     * policy has named no victim for {@link #policyStallTimeoutNanos}, fails the fault with an exception
     * naming the policy rather than sweep forever. Returns when the stall began (0 while frames were all
     * pinned, which {@link #waitWhileAllPinned} times out on its own).
     */
    private long checkPolicyNotStuck(long noVictimSince, long allPinnedSince) {
        if (allPinnedSince != 0) {
            return 0;
        }
        long now = System.nanoTime();
        if (noVictimSince == 0) {
            return now;
        }
        if (now - noVictimSince > policyStallTimeoutNanos) {
            throw new IllegalStateException("eviction policy " + policy.name() + " named no victim for "
                + (now - noVictimSince) / 1_000_000 + " ms while frames could be evicted (" + frameCount + " frames, "
                + freeFrames() + " free): the policy is stuck; this fault fails instead of waiting forever");
        }
        return noVictimSince;
    }

    /** For tests: how long {@link #checkPolicyNotStuck} lets a policy name no victim. */
    void policyStallTimeoutNanos(long nanos) {
        this.policyStallTimeoutNanos = nanos;
    }

    /**
     * For tests: how long {@link #waitWhileAllPinned} waits for a frame to be unpinned before it refuses the fault
     * ({@link #ALL_PINNED_TIMEOUT_NANOS} otherwise); each refusal a test provokes waits this out.
     */
    void allPinnedTimeoutNanos(long nanos) {
        this.allPinnedTimeoutNanos = nanos;
    }

    /**
     * Called after several passes found no victim. If every frame is pinned, backs off; once that has
     * lasted {@link #allPinnedTimeoutNanos}, gives up with an exception naming the numbers.
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
        } else if (now - allPinnedSince > allPinnedTimeoutNanos) {
            throw new NoEvictableFrameException("no frame can be evicted: all " + frameCount + " frames of the page cache"
                + " (" + sizeText + ") are pinned: " + writeLocked + " by write cursors, " + (pinned - writeLocked)
                + " being faulted in, evicted or flushed. More pages are pinned at once than the cache has frames:"
                + " close cursors sooner or raise pagecache.memory.", frameCount, pinned);
        }
        // Parked out even on an interrupted thread (the flag kept): parkNanos returned at once there, and such a fault
        // looked over every frame about a million times a second for the whole wait, taking the core the holders need.
        Backoff.park(ALL_PINNED_PARK_NANOS);
        return allPinnedSince;
    }

    // ---- files ----------------------------------------------------------------------------------

    /** From now on frames bound to {@code fileId} belong to {@code owner}. */
    void register(int fileId, FrameOwner owner) {
        owners.set(fileId, owner);
    }

    /** No frame is bound to {@code fileId} any more, nor will be. */
    void forget(int fileId) {
        owners.set(fileId, null);
    }

    /** The owner of frames bound to {@code fileId}, or null. */
    FrameOwner owner(int fileId) {
        return owners.get(fileId);
    }

    // ---- errors ---------------------------------------------------------------------------------

    /**
     * The most failures the pending error keeps besides its own (as suppressed exceptions); later ones are only counted.
     * A disk that keeps refusing while nothing takes the error fails the evictor's write-outs about a thousand times a
     * second, each an exception with its cause: kept without bound they filled the heap of an idle cache.
     */
    static final int MAX_KEPT_PENDING_ERRORS = 16;

    /** Makes {@code error} the pending error, or adds it to the one pending (see {@link #pendingErrorLock}). */
    void recordPendingError(IOException error) {
        synchronized (pendingErrorLock) {
            IOException pending = pendingError.get();
            if (pending == null) {
                pendingError.set(error);
            } else if (pending.getSuppressed().length < MAX_KEPT_PENDING_ERRORS) {
                pending.addSuppressed(error);
            } else {
                unkeptErrors++;
            }
        }
    }

    /**
     * Throws (once) the error a background step ran into since the last call, if any. Every fault calls this:
     * the plain read first keeps the common case (no error) from writing the shared word or taking the lock, which an
     * atomic swap on every fault did, bouncing its cache line between the faulting threads and the evictor.
     */
    void throwPendingError() throws IOException {
        if (pendingError.get() == null) {
            return;
        }
        IOException e;
        long unkept;
        synchronized (pendingErrorLock) {
            e = pendingError.getAndSet(null);
            unkept = unkeptErrors;
            unkeptErrors = 0;
        }
        if (e != null) {
            if (unkept > 0) {
                e.addSuppressed(new IOException(unkept + " more failures like these since the first were counted"
                    + " (PageCacheStats.evictionErrors() counts eviction failures), not kept"));
            }
            throw e;
        }
    }

    // ---- counters -------------------------------------------------------------------------------

    CounterSet<CacheCounter> counters() {
        return counters;
    }

    /** Adds a cursor's hits and faults to its stripe (the one {@link #cursorOpened} gave it); see {@link CursorCounts}. */
    void countPins(int stripe, int hits, int faults) {
        cursorCounts.pinned(stripe, hits, faults);
    }

    /** Pins that found their page in the cache, as cursors have counted them so far. */
    long hits() {
        return cursorCounts.hits();
    }

    /** Pins that faulted their page in, as cursors have counted them so far. */
    long faults() {
        return cursorCounts.faults();
    }

    void countRead(int bytes) {
        counters.add(CacheCounter.BYTES_READ, bytes);
    }

    void countFlushed(int bytes) {
        counters.increment(CacheCounter.FLUSHED_PAGES);
        counters.add(CacheCounter.BYTES_WRITTEN, bytes);
        countWriteCall(1);
    }

    /** A flush wrote {@code pages} adjacent pages of {@code pageSize} bytes in one call. */
    void countFlushedRun(int pages, int pageSize) {
        counters.add(CacheCounter.FLUSHED_PAGES, pages);
        counters.add(CacheCounter.BYTES_WRITTEN, (long) pages * pageSize);
        countWriteCall(pages);
    }

    /** A truncate (or an unmap) wrote one page of {@code bytes} that the file did not reach on disk (its zeros). */
    void countLastPageKept(int bytes) {
        counters.add(CacheCounter.BYTES_WRITTEN, bytes);
        countWriteCall(1);
    }

    /** A write cursor's fault far past the file's end wrote its (zero) page of {@code bytes} at once (FileMapping.fill). */
    void countFarPageWritten(int bytes) {
        counters.add(CacheCounter.BYTES_WRITTEN, bytes);
        countWriteCall(1);
    }

    /** One write call to a swapper carried {@code pages} pages. */
    void countWriteCall(int pages) {
        counters.increment(CacheCounter.WRITE_CALLS);
        counters.add(CacheCounter.PAGES_WRITTEN, pages);
    }

    /** An eviction's write-out carried {@code neighbours} dirty pages besides its victim (counted by {@link #writeOut}). */
    void countWriteBehind(int neighbours, int pageSize) {
        counters.add(CacheCounter.PAGES_WRITTEN, neighbours);
        counters.add(CacheCounter.BYTES_WRITTEN, (long) neighbours * pageSize);
    }

    void countReheated() {
        counters.increment(CacheCounter.PAGES_REHEATED);
    }

    IopsLimiter flushLimiter() {
        return flushLimiter;
    }

    /** Sets the limiter flushes use; the cache sets it once, when it opens. */
    void flushLimiter(IopsLimiter limiter) {
        this.flushLimiter = limiter;
    }

    // ---- cursors and the memory's lifetime ------------------------------------------------------

    /** Counts a cursor about to open; see {@link CursorCounts}. */
    int cursorOpened() {
        return cursorCounts.opened();
    }

    /** Counts a cursor closed; the last one closed after the engine frees the memory. */
    void cursorClosed(int stripe) {
        cursorCounts.closed(stripe);
        if (closed) {
            releaseMemoryIfUnused();
        }
    }

    /**
     * No file is mapped and no thread but cursors' will touch the frames again: frees the memory now, or
     * when the last open cursor closes.
     */
    void close() {
        closed = true;
        stopReadAhead();
        releaseMemoryIfUnused();
        long open = cursorCounts.open();
        if (open > 0 && !memoryReleased) {
            // Not an error (the memory is freed when the last of them closes), but a cursor never closed is a leak of
            // the whole page memory: say so where an operator looks.
            warn("page cache closed with " + open + " cursor" + (open == 1 ? "" : "s") + " still open: its page memory ("
                + sizeText + ") stays allocated until the last of them is closed");
        }
    }

    /**
     * A warning to the host's logging, which must not fail the call that says it: a log handler that threw made a close
     * that had closed everything throw the handler's exception, and a PF_READ_AHEAD io() that could go on without
     * read-ahead fail. Where the log fails, the warning goes to standard error with the log's failure.
     */
    static void warn(String warning) {
        HostLog.warn("io.ratatosk.pagecache", warning);
    }

    /** Cursors open right now, on any file of this cache. */
    long openCursors() {
        return cursorCounts.open();
    }

    // ---- read-ahead -----------------------------------------------------------------------------

    /**
     * The read-ahead thread, started by the first cursor that asks for read-ahead
     * ({@link PagedFile#PF_READ_AHEAD}); null once the engine is closed. Started lazily: most caches
     * never read ahead, and need no thread for it.
     */
    synchronized ReadAheadWorker readAhead() {
        if (readAhead == null && !closed && !readAheadUnavailable) {
            ReadAheadWorker worker = new ReadAheadWorker();
            try {
                worker.start();
            } catch (OutOfMemoryError e) {
                // "unable to create native thread": read-ahead is a hint, so cursors go on without it. Thrown out of
                // PagedFile.io, which calls this after counting the cursor open, it left the count one high for good,
                // and the page memory was never freed after close.
                readAheadUnavailable = true;
                warn("read-ahead is off: its thread could not be started (" + e.getMessage() + "); PF_READ_AHEAD"
                    + " cursors read without it");
                return null;
            }
            readAhead = worker;
        }
        return readAhead;
    }

    private void stopReadAhead() {
        ReadAheadWorker worker;
        synchronized (this) {
            worker = readAhead;
        }
        if (worker != null) {
            worker.shutdown(); // every file is unmapped by now: it was only finding closed gates
        }
    }

    boolean isMemoryReleased() {
        return memoryReleased;
    }

    private void releaseMemoryIfUnused() {
        if (closed && cursorCounts.open() == 0) {
            synchronized (memoryLock) {
                if (!memoryReleased) {
                    memoryReleased = true;
                    memory.free();
                    frames.close();
                }
            }
        }
    }
}
