package io.ratatosk.pagecache;

import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.DaemonWorker;
import io.ratatosk.pagecache.tier.PrefetchSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Prefetching from a swap tier that offers it ({@link PrefetchSource}; the NVM tier with
 * {@code pagecache.nvm.prefetch}, after Fedorov 2016, chapter 5, OSVPP): when a fault is served from the
 * tier, the pages after it in its file and the pages in the tier's slots after its slot (written next
 * to it) become hints, {@code depth} in all, on a small newest-first queue. A
 * background thread faults hints into free frames, one at a time, and only while no page read is in
 * progress in the tier, so demand faults never wait behind it (except for a prefetch read already
 * started on the same device). A hint whose page is resident, no longer in the tier, or of a file
 * being closed is dropped; so is one that finds fewer than {@value #MIN_FREE_FRAMES} free frames:
 * prefetching never evicts.
 *
 * <p>Prefetch reads count as swap-ins of the tier. The prefetched page starts with the policy's fault
 * usage, so an unused one is among the first evicted. A prefetch is an operation of its file
 * ({@link FileMapping#prefetch}), so an unmap waits for one in progress and refuses further ones. A
 * failure of any kind drops the hint (the demand fault, if any, reads the page again and reports it);
 * the thread never dies and never holds a frame between prefetches.
 */
final class TierPrefetcher extends DaemonWorker implements PrefetchSource.SwapInListener {
    /** Hints kept; a new hint overwrites the oldest when full. */
    static final int QUEUE_SIZE = 256;
    /**
     * The free frames a prefetch needs: it takes one, so it leaves at least one to demand faults (the count is read, not
     * reserved: a demand fault may take a frame meanwhile).
     */
    static final int MIN_FREE_FRAMES = 2;
    private static final long DEMAND_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /**
     * The longest step of the wait for demand reads, which doubles from {@link #DEMAND_BACKOFF_NANOS}: a read that takes
     * long (storage that stalls) once had this thread wake every 20 us for as long as it lasted.
     */
    static final long MAX_DEMAND_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final EvictionEngine engine;
    private final PrefetchSource tier;
    private final int pageNeighbours;
    private final int slotNeighbours;
    /** A ring used as a stack: {@code top} is where the next hint goes. Guarded by this. */
    private final long[] hints = new long[QUEUE_SIZE];
    private int top;
    /** Written under this; read without it by the prefetch thread before it parks. */
    private volatile int queued;

    private final LongAdder prefetched = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    TierPrefetcher(EvictionEngine engine, PrefetchSource tier) {
        super("ratatosk-tier-prefetch");
        this.engine = engine;
        this.tier = tier;
        int depth = tier.depth();
        this.pageNeighbours = (depth + 1) / 2;
        this.slotNeighbours = depth / 2;
    }

    /** Pages prefetched into frames. */
    long prefetched() {
        return prefetched.sum();
    }

    /** Hints dropped: resident, gone from the tier, their file closing, no free frame, or pushed out of a full queue. */
    long dropped() {
        return dropped.sum();
    }

    // ---- hints (the faulting thread) ----------------------------------------------------------

    @Override
    public void swappedIn(int fileId, long pageId, int slot) {
        if (isWorkerThread()) {
            return; // a prefetch's own swap-in does not chain further prefetches
        }
        try {
            offerNeighbours(fileId, pageId, slot);
        } catch (RuntimeException e) {
            dropped.increment(); // a tier's hook that throws: only a hint, which must not fail the fault that offered it
        }
    }

    private void offerNeighbours(int fileId, long pageId, int slot) {
        boolean any = false;
        for (int d = 1; d <= pageNeighbours && pageId + d <= PageKey.MAX_PAGE_ID; d++) {
            any |= offer(PageKey.of(fileId, pageId + d));
        }
        int slots = tier.slots();
        for (int d = 1; d <= slotNeighbours && d < slots; d++) {
            long key = tier.keyInSlot((int) ((slot + (long) d) % slots));
            if (key != 0) {
                any |= offer(key);
            }
        }
        if (any) {
            wake();
        }
    }

    private boolean offer(long key) {
        int fileId = PageKey.fileId(key);
        // a key naming no file (a plug-in's bare page id: file -1) reached the owner table's bounds check
        if (fileId < 0 || fileId > PageKey.MAX_FILE_ID || isResident(key) || !tier.contains(fileId, PageKey.pageId(key))) {
            dropped.increment();
            return false;
        }
        synchronized (this) {
            if (queued == QUEUE_SIZE) {
                dropped.increment(); // the oldest hint, written over: dropped like any other
            }
            hints[top] = key;
            top = (top + 1) % QUEUE_SIZE;
            queued = Math.min(queued + 1, QUEUE_SIZE);
        }
        return true;
    }

    private synchronized long takeNewest() {
        if (queued == 0) {
            return 0;
        }
        top = (top + QUEUE_SIZE - 1) % QUEUE_SIZE;
        queued--;
        return hints[top];
    }

    /** True for a page in a frame, being faulted in, or of a file no longer mapped. */
    private boolean isResident(long key) {
        FrameOwner file = engine.owner(PageKey.fileId(key));
        return file == null || file.isResident(PageKey.pageId(key));
    }

    // ---- prefetching (the prefetch thread) ----------------------------------------------------

    @Override
    protected void step() {
        long key = takeNewest();
        if (key == 0) {
            sleepUnless(() -> queued == 0, IDLE_PARK_NANOS);
            return;
        }
        long backoff = DEMAND_BACKOFF_NANOS;
        while (isRunning() && tier.readsInFlight() > 0) {
            LockSupport.parkNanos(backoff); // demand first; shutdown unparks
            Thread.interrupted(); // only shutdown stops a worker; set, the interrupt made every park return at once
            backoff = Math.min(2 * backoff, MAX_DEMAND_BACKOFF_NANOS);
        }
        if (isRunning()) {
            prefetch(key);
        }
    }

    private void prefetch(long key) {
        FrameOwner file = engine.owner(PageKey.fileId(key));
        long pageId = PageKey.pageId(key);
        try {
            if (file != null && tier.contains(PageKey.fileId(key), pageId) && engine.freeFrames() >= MIN_FREE_FRAMES
                && file.prefetch(pageId)) {
                prefetched.increment();
                return;
            }
        } catch (Throwable e) {
            // Only a hint: the demand fault will read the page again and report the error.
        }
        dropped.increment();
    }
}
