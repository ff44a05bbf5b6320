package io.ratatosk.nvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.Failures;
import io.ratatosk.pagecache.internal.MachineMemory;
import io.ratatosk.pagecache.tier.PrefetchSource;
import io.ratatosk.pagecache.tier.SwapTier;
import io.ratatosk.pagecache.tier.TierCounters;
import org.agrona.UnsafeAccess;

/**
 * The NVM tier between the page frames and the files (Fedorov 2016, chapter 5: NVM as swap behind DRAM; docs/references.md).
 * A page leaving the frames goes into an NVM slot; a fault looks in NVM before it reads the file.
 * It wraps the file swapper factory and hands out {@link NvmPageSwapper}s; it is the page cache's
 * {@link SwapTier} when {@code pagecache.swap=nvm} ({@link NvmTierProvider}).
 *
 * <h2>State</h2>
 * Per slot: the {@link PageKey} it holds ({@code FREE}, {@code RESERVED} while an eviction fills
 * it, or a key) and flags (DIRTY: newer than the file; REFERENCED: the clock's second chance).
 * The {@link PageSlotIndex} maps key to slot. A page is in at most one slot.
 *
 * <h2>Locking protocol</h2>
 * <ol>
 *   <li>Every operation on page {@code K} holds K's <i>page latch</i> (64 striped reentrant locks, {@link PageLatch}):
 *   evict, fault, flush write, and any write-back of K from NVM. So for one page, index changes,
 *   slot content changes and file writes never overlap: never two write-backs of one page in
 *   flight, and a later version can never be overwritten in the file by an older one.</li>
 *   <li>A slot's key and flags change only under the latch of the key it holds (or claims). The
 *   clock may clear REFERENCED without it (a racy hint).</li>
 *   <li>To reclaim a slot holding Q while evicting P (holding P's latch), the clock only
 *   <i>tries</i> Q's latch and skips the slot on failure; it re-checks the slot's key after locking.
 *   Blocking acquisitions happen only with no latch held, several at once only in ascending stripe
 *   order (vectored write), so there is no lock cycle.</li>
 *   <li>Free slots are claimed by CAS {@code FREE -> RESERVED}; an eviction that cannot claim a slot
 *   within three sweeps bypasses NVM (dirty: straight to the file) instead of waiting.</li>
 * </ol>
 *
 * <h2>Write policies</h2>
 * Write-back: a dirty page stays dirty in NVM until the clock reclaims its slot, its file is forced,
 * or closed. Write-through: the file is written when the page leaves the frames; NVM holds clean
 * copies only. Under both, a clean eviction whose unchanged copy is in NVM writes nothing, and a
 * flush ({@code write}) writes the file and drops the now older NVM copy.
 *
 * <h2>Errors</h2>
 * An NVM write error while evicting a dirty page under write-back throws {@link IOException}; the
 * slot is dropped (it may be torn) and the caller keeps the page dirty in its frame, which holds the
 * newest version; if the dropped copy was dirty, that newest version is written to the file first, so that
 * a flush under way, which counted on the copy, still finds the page in the file; if the file refuses it too, the file's
 * next force throws, once, naming the page. A failed file write of a
 * victim leaves the victim dirty in NVM; the eviction that needed the slot looks further. Nothing dirty is ever dropped without having reached the file.
 */
public final class NvmSwapStore implements SwapTier, PrefetchSource {
    static final long FREE = 0L;
    /** Never a {@link PageKey}: its file id bits are 0. */
    static final long RESERVED = 1L;
    private static final int DIRTY = 1;
    private static final int REFERENCED = 2;
    private static final int NO_SLOT = -1;
    private static final int LATCH_STRIPES = 64;
    private static final int CLAIM_SWEEPS = 3;
    /** Files whose write-back failed that one claim tells apart; past them it passes over every dirty copy. */
    private static final int FAILING_FILES_TOLD_APART = 16;

    private final NvmDeviceConfig config;
    private final NvmDevice device;
    private final PageSwapperFactory files;
    private final WritePolicy writePolicy;
    private final int slots;
    private final int slotSize;
    private final AtomicLongArray slotKeys;
    private final AtomicIntegerArray slotFlags;
    private final PageSlotIndex index;
    private final AtomicLong hand = new AtomicLong();
    private final PageLatch[] latches = new PageLatch[LATCH_STRIPES];
    /** One page buffer per latch stripe, for write-backs made under that stripe's latch. */
    private final long scratch;
    private final AtomicReferenceArray<NvmPageSwapper> swappers =
        new AtomicReferenceArray<>(PageKey.MAX_FILE_ID + 1);
    private volatile SwapInListener swapInListener = SwapInListener.NONE;
    /** Reads (faults) inside {@link #read} right now, from NVM or the file: a prefetcher yields to them. */
    private final AtomicInteger readsInFlight = new AtomicInteger();
    /**
     * Held by {@link #create} and {@link #close}: a file created while a close ran (behind its sweep of the files) was
     * left open on a closed device, and two closes at once both freed the scratch buffers, a double free.
     */
    private final Object lifecycle = new Object();
    /**
     * The failures of a close, guarded by lifecycle: made with the tier, as a close may run with the heap full (a file's
     * close filling it), and made at the close it threw an OutOfMemoryError before anything, the device kept while the
     * page cache reported only the file's failure.
     */
    private final CloseFailures closeFailures = new CloseFailures();
    /** Pages of a file {@link #closeGivingUpUnwritten} names by id, the lowest ascending; past them it counts. */
    private static final int NAMED_LOST_PAGES = 64;
    private volatile boolean closed;
    /**
     * Whether the page cache this tier serves is open ({@link #servesCache}); guarded by lifecycle. While it is, only
     * that cache closes the tier, once closed.
     */
    private BooleanSupplier servedCacheOpen = () -> false;

    private final AtomicLong swapIns = new AtomicLong();
    private final AtomicLong fileReads = new AtomicLong();
    private final AtomicLong swapOuts = new AtomicLong();
    private final AtomicLong cleanEvictionsAbsorbed = new AtomicLong();
    private final AtomicLong dirtyEvictionsAbsorbed = new AtomicLong();
    private final AtomicLong writeBacks = new AtomicLong();
    private final AtomicLong writeThroughs = new AtomicLong();
    private final AtomicLong flushWrites = new AtomicLong();
    private final AtomicLong nvmEvictions = new AtomicLong();
    private final AtomicLong bypasses = new AtomicLong();
    private final AtomicLong invalidations = new AtomicLong();
    private final AtomicLong deviceWriteErrors = new AtomicLong();
    private final AtomicLong writeBackErrors = new AtomicLong();
    /** Dirty copies {@link #closeGivingUpUnwritten} dropped unwritten: lost, not file writes saved. */
    private final AtomicLong dirtyCopiesGivenUp = new AtomicLong();
    /** Slots flagged DIRTY, all files together: the sum of the owners' counts, kept so stats() need not scan. */
    private final AtomicLong dirtySlots = new AtomicLong();

    /**
     * @param config the device and tier settings (the NVM flags)
     * @param files  the swapper factory for the files behind the tier
     */
    public NvmSwapStore(NvmDeviceConfig config, PageSwapperFactory files) {
        // Before the device is taken: without files the tier opened, and failed each map and its close from inside.
        this.config = Objects.requireNonNull(config, "config: the NVM tier's settings");
        this.files = Objects.requireNonNull(files, "files: the swapper factory of the files behind the NVM tier");
        this.writePolicy = config.writePolicy();
        this.slots = config.slots();
        this.slotSize = config.pageSize();
        // Before the heap's bookkeeping, as the device checks before its own: some 36 bytes a slot, gigabytes at a
        // terabyte of small slots, failed the heap first and the open advised more heap, for a capacity no heap could hold.
        NvmDevice.refuseMoreThanTheMachineHas(NvmDevice.regionBytes(config), config, MachineMemory.total());
        // The heap's bookkeeping before the device's off-heap slots, and those freed if anything after them
        // fails: a store that fails to open is never closed, so whatever it took would stay taken.
        try {
            this.slotKeys = new AtomicLongArray(slots);
            this.slotFlags = new AtomicIntegerArray(slots);
            this.index = new PageSlotIndex(slots);
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("cannot allocate the NVM tier's index of " + slots + " slots ("
                + NvmDeviceConfig.CAPACITY + "=" + config.capacityBytes() + " / " + NvmDeviceConfig.PAGE_SIZE + "="
                + slotSize + ") on the Java heap: " + e.getMessage() + "; give the JVM more heap (-Xmx) or the tier"
                + " fewer, larger slots", e);
        }
        for (int i = 0; i < LATCH_STRIPES; i++) {
            latches[i] = new PageLatch();
        }
        try {
            this.device = new NvmDevice(config);
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException("cannot allocate the NVM device's " + config.devices() + " queues and "
                + slots + " slots' wear counters (" + NvmDeviceConfig.DEVICES + "=" + config.devices() + ", "
                + NvmDeviceConfig.CAPACITY + "=" + config.capacityBytes() + ") on the Java heap: " + e.getMessage()
                + "; give the JVM more heap (-Xmx) or the tier fewer devices", e);
        }
        device.ownedByTier(); // closed by this tier alone: see closeFilesAndDevice
        try {
            this.scratch = UnsafeAccess.UNSAFE.allocateMemory((long) LATCH_STRIPES * slotSize);
        } catch (Throwable t) {
            device.closeForTier();
            throw t;
        }
    }

    public NvmDeviceConfig config() {
        return config;
    }

    /** The emulated device (for its counters, and for tests' error injection); this tier closes it, and refuses anyone else. */
    public NvmDevice device() {
        return device;
    }

    /** Installs the listener told about every NVM swap-in (the prefetch hook). */
    @Override
    public void swapInListener(SwapInListener listener) {
        this.swapInListener = listener == null ? SwapInListener.NONE : listener;
    }

    @Override
    public NvmPageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        synchronized (lifecycle) {
            return createOpen(file, fileId, filePageSize, create);
        }
    }

    private NvmPageSwapper createOpen(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        if (closed) {
            throw new IllegalStateException("NVM swap store is closed");
        }
        // before the file factory, which got the null and failed as it could (a bare NullPointerException)
        Objects.requireNonNull(file, "file: the path of the file to map through the NVM tier");
        if (fileId < 0 || fileId > PageKey.MAX_FILE_ID) {
            // Before the file is opened: a refused id leaves nothing open.
            throw new IllegalArgumentException("file id must be in [0, " + PageKey.MAX_FILE_ID + "] (the NVM tier keys"
                + " its pages by file id): fileId=" + fileId + " for " + file);
        }
        if (filePageSize <= 0 || filePageSize > slotSize) {
            throw new IllegalArgumentException("file page size must be in [1, " + slotSize
                + "] (the NVM slot size, " + NvmDeviceConfig.PAGE_SIZE + "): filePageSize=" + filePageSize);
        }
        NvmPageSwapper mapped = swappers.get(fileId);
        if (mapped != null) {
            // Before the file is opened, as a refused id above: refused after, the file was opened (created) and closed
            // again, and that close's failure was thrown in place of this. Ids are taken only here, under lifecycle.
            throw new IllegalStateException("file id " + fileId + " is already mapped through the NVM tier, by "
                + mapped.file() + ": cannot map " + file + " under it");
        }
        PageSwapper delegate = checked(files.create(file, fileId, filePageSize, create), file, filePageSize);
        NvmPageSwapper swapper;
        try {
            swapper = new NvmPageSwapper(this, file, fileId, filePageSize, delegate);
        } catch (Throwable t) {
            // an OutOfMemoryError making it: the file, opened, would stay open with no one to close it
            closeRefused(delegate, t);
            throw t;
        }
        swappers.set(fileId, swapper); // free, checked above: only this method, under lifecycle, takes an id
        return swapper;
    }

    /**
     * What the page cache checks of a factory's swapper, checked here of the one behind the tier, which the cache never
     * sees: the tier's swapper says the page size asked for whatever the file's does, so a file swapper of a larger page
     * size read past the frame's end, and another file's swapper wrote this file's pages into that file.
     */
    private PageSwapper checked(PageSwapper delegate, Path file, int filePageSize) {
        if (delegate == null) {
            throw new IllegalStateException("cannot map " + file + " through the NVM tier: the swapper factory " + files
                + " returned null");
        }
        for (int id = 0; id < swappers.length(); id++) {
            NvmPageSwapper other = swappers.get(id);
            if (other != null && other.fileSwapper() == delegate) {
                // not closed: it is the other file's
                throw new IllegalStateException("cannot map " + file + " through the NVM tier: the swapper factory "
                    + files + " returned " + delegate + ", the swapper of " + other.file() + ", which is mapped; each file"
                    + " needs a swapper of its own");
            }
        }
        int delegatePageSize;
        try {
            delegatePageSize = delegate.filePageSize();
        } catch (RuntimeException | Error e) {
            closeRefused(delegate, e); // an Error too (a plug-in's AssertionError): the file was left open
            throw e;
        }
        if (delegatePageSize != filePageSize) {
            IllegalStateException refused = new IllegalStateException("cannot map " + file + " with page size "
                + filePageSize + " through the NVM tier: the swapper factory " + files + " returned " + delegate
                + " of page size " + delegatePageSize + " (it ignored the page size asked for)");
            closeRefused(delegate, refused);
            throw refused;
        }
        return delegate;
    }

    private static void closeRefused(PageSwapper delegate, Throwable refusal) {
        try {
            delegate.close();
        } catch (IOException | RuntimeException | Error e) {
            Failures.add(refusal, e); // not itself: filePageSize and close may throw one instance
        }
    }

    // ---- page operations (called by NvmPageSwapper) ---------------------------------------------

    int read(NvmPageSwapper owner, long pageId, long address) throws IOException {
        long key = PageKey.of(owner.fileId(), pageId);
        int slot;
        PageLatch latch = latch(key);
        readsInFlight.incrementAndGet();
        latch.lock();
        try {
            owner.checkOpen();
            slot = index.get(key);
            if (slot == PageSlotIndex.ABSENT) {
                int read = owner.fileSwapper().read(pageId, address);
                fileReads.incrementAndGet(); // after: a read that failed, tried again, was counted twice
                return read;
            }
            device.read(slot, address, owner.filePageSize());
            setFlags(slot, REFERENCED);
            swapIns.incrementAndGet();
        } finally {
            latch.unlock();
            readsInFlight.decrementAndGet();
        }
        swapInListener.swappedIn(owner.fileId(), pageId, slot);
        return owner.filePageSize();
    }

    void evict(NvmPageSwapper owner, long pageId, long address, boolean dirty) throws IOException {
        long key = PageKey.of(owner.fileId(), pageId);
        PageLatch latch = latch(key);
        latch.lock();
        try {
            owner.checkOpen();
            int slot = index.get(key);
            if (slot != PageSlotIndex.ABSENT && !dirty) {
                // The frame was filled from this copy and not changed since: nothing to write.
                setFlags(slot, REFERENCED);
                cleanEvictionsAbsorbed.incrementAndGet();
                return;
            }
            if (dirty && writePolicy == WritePolicy.WRITE_THROUGH) {
                try {
                    writeFile(owner, pageId, address);
                } catch (IOException e) {
                    if (slot != PageSlotIndex.ABSENT) {
                        invalidate(slot, key, owner); // the file may be torn now; the frame stays dirty
                    }
                    throw e;
                }
                writeThroughs.incrementAndGet();
            }
            boolean keepDirty = dirty && writePolicy == WritePolicy.WRITE_BACK;
            if (slot != PageSlotIndex.ABSENT) {
                overwrite(slot, key, owner, address, keepDirty);
            } else {
                store(key, owner, pageId, address, keepDirty);
            }
        } finally {
            latch.unlock();
        }
    }

    /** A dirty page whose older copy is in NVM: write the new version into the same slot. */
    private void overwrite(int slot, long key, NvmPageSwapper owner, long address, boolean keepDirty)
        throws IOException {
        try {
            device.write(slot, address, owner.filePageSize());
        } catch (IOException e) {
            deviceWriteErrors.incrementAndGet();
            boolean tornDirty = (slotFlags.get(slot) & DIRTY) != 0;
            try {
                if (tornDirty) {
                    rescue(key, owner, address, e);
                }
            } finally {
                // Torn: dropped, the frame holds the newest version. Only now: dropped before the rescue, the slot let a
                // force's scan pass it without waiting for this latch, and that force returned normally before the
                // rescue's write reached the file, or before its failure was recorded for the force to report.
                invalidate(slot, key, owner);
            }
            if (keepDirty) {
                throw e;
            }
            return; // write-through: the file already has the page
        }
        swapOuts.incrementAndGet(); // before its dirty part: see stats()
        if (keepDirty) {
            if ((setFlags(slot, REFERENCED | DIRTY) & DIRTY) == 0) {
                markedDirty(owner);
            }
            dirtyEvictionsAbsorbed.incrementAndGet();
        } else {
            setFlags(slot, REFERENCED);
        }
    }

    /**
     * Under {@code key}'s latch, before the dirty copy an NVM write tore ({@code torn}) is dropped: writes the frame's
     * newer version to the file, or records the loss for the file's next force.
     */
    private void rescue(long key, NvmPageSwapper owner, long address, IOException torn) {
        // The torn copy held a version the file never got, and a flush under way may count on it (its force writes back
        // the dirty copies; a page modified before the flush began must be in the file when it returns). The frame's
        // version supersedes it: it goes to the file now, and the frame stays dirty.
        try {
            writeFile(owner, PageKey.pageId(key), address);
            // The absorbed dirty eviction's deferred file write, made now: uncounted, fileWritesAvoided counted it saved.
            writeBacks.incrementAndGet();
        } catch (IOException | RuntimeException | Error f) {
            // A RuntimeException or Error too (a plug-in's bug, an OutOfMemoryError writing): it once passed with nothing
            // recorded, and the next force succeeded without the page.
            // Neither in NVM nor in the file now: the eviction's caller keeps the frame dirty, but a flush under way that
            // counted on the copy returned as if the file had it. Its force reports it (once), recorded before anything
            // else is made: an OutOfMemoryError making the report (the file's write may have failed for want of memory
            // too) once left it unrecorded, and that force succeeded.
            IOException lost;
            try {
                lost = new IOException("the NVM tier dropped its dirty copy of page " + PageKey.pageId(key) + " of "
                    + owner.file() + " (an NVM write tore it) and the file refused the frame's newer version: the file"
                    + " may lack the page until the frame is written: " + f, torn);
            } catch (Throwable full) {
                // the heap full: the file's refusal of the page tells the force as it is, else the torn write
                lost = f instanceof IOException refusal ? refusal : torn;
            }
            owner.lostDirtyCopy(lost);
            if (f instanceof Error fatal) {
                throw fatal; // as itself, as the file's Errors pass; the frame stays dirty all the same
            }
            Failures.addOrLeaveOut(torn, f); // the heap full: the eviction's failure goes on without it
        }
    }

    /** A page with no copy in NVM: claim a slot (reclaiming one if need be) and write it there. */
    private void store(long key, NvmPageSwapper owner, long pageId, long address, boolean keepDirty)
        throws IOException {
        int slot = claimSlot();
        if (slot == NO_SLOT) {
            if (keepDirty) {
                writeFile(owner, pageId, address);
            }
            bypasses.incrementAndGet(); // after: an eviction that failed here, tried again, was counted twice
            return;
        }
        try {
            device.write(slot, address, owner.filePageSize());
        } catch (IOException e) {
            deviceWriteErrors.incrementAndGet();
            slotKeys.set(slot, FREE);
            if (keepDirty) {
                throw e;
            }
            return; // clean, or written through: the file has it
        } catch (RuntimeException | Error e) {
            // a refused address, a closed device: the slot was left RESERVED, out of the clock's reach for good
            slotKeys.set(slot, FREE);
            throw e;
        }
        slotFlags.set(slot, keepDirty ? REFERENCED | DIRTY : REFERENCED);
        index.put(key, slot);
        slotKeys.set(slot, key);
        swapOuts.incrementAndGet(); // before its dirty part: see stats()
        if (keepDirty) {
            markedDirty(owner);
            dirtyEvictionsAbsorbed.incrementAndGet();
        }
    }

    /**
     * The tier's clock: a free slot, or the first unreferenced one whose page can be latched without
     * waiting, written back first if dirty. Returns a slot in state RESERVED, or {@link #NO_SLOT}.
     */
    private int claimSlot() {
        // A file whose write-back failed is passed over for the rest of this claim: trying each of its dirty copies cost
        // a device read (its latency injected) and a failing file write apiece, up to two sweeps of the whole tier per
        // eviction while the disk behind was failing (seconds each on nvme). Every such file, not the last one only:
        // two files on a failed disk, their copies side by side, had each failure send the claim to the other's next.
        int[] failingFileIds = null; // made at the first failure: a claim that meets none allocates nothing
        int failingFiles = 0;
        for (long step = 0, limit = (long) CLAIM_SWEEPS * slots; step < limit; step++) {
            int slot = (int) Long.remainderUnsigned(hand.getAndIncrement(), slots);
            long key = slotKeys.get(slot);
            if (key == FREE) {
                if (slotKeys.compareAndSet(slot, FREE, RESERVED)) {
                    return slot;
                }
                continue;
            }
            if (key == RESERVED || (clearFlags(slot, REFERENCED) & REFERENCED) != 0) {
                continue;
            }
            if (failingFiles > 0 && (slotFlags.get(slot) & DIRTY) != 0
                && failedBefore(failingFileIds, failingFiles, PageKey.fileId(key))) {
                continue;
            }
            PageLatch latch = latch(key);
            if (!latch.tryLock()) {
                continue;
            }
            try {
                if (slotKeys.get(slot) == key && (slotFlags.get(slot) & REFERENCED) == 0) {
                    if (reclaim(slot, key)) {
                        return slot;
                    }
                    if (failingFileIds == null) {
                        failingFileIds = new int[FAILING_FILES_TOLD_APART];
                    }
                    if (failingFiles < failingFileIds.length) {
                        failingFileIds[failingFiles] = PageKey.fileId(key);
                    }
                    failingFiles++;
                }
            } finally {
                latch.unlock();
            }
        }
        return NO_SLOT;
    }

    /**
     * Whether a claim that met {@code count} failing write-backs, the files of the first ones in {@code ids}, passes over
     * a dirty copy of {@code fileId}: every dirty copy once more files failed than it tells apart.
     */
    private static boolean failedBefore(int[] ids, int count, int fileId) {
        if (count > ids.length) {
            return true;
        }
        for (int i = 0; i < count; i++) {
            if (ids[i] == fileId) {
                return true;
            }
        }
        return false;
    }

    /** Under {@code key}'s latch: empties {@code slot} into state RESERVED; false if its write-back failed. */
    private boolean reclaim(int slot, long key) {
        NvmPageSwapper owner = swappers.get(PageKey.fileId(key));
        if ((slotFlags.get(slot) & DIRTY) != 0) {
            try {
                writeBack(slot, key, owner);
            } catch (IOException e) {
                writeBackErrors.incrementAndGet();
                return false;
            } catch (RuntimeException | Error e) {
                writeBackErrors.incrementAndGet(); // counted like an IOException, but not ours to swallow
                throw e;
            }
        }
        index.remove(key, slot);
        slotFlags.set(slot, 0);
        slotKeys.set(slot, RESERVED);
        nvmEvictions.incrementAndGet();
        return true;
    }

    private void markedDirty(NvmPageSwapper owner) {
        owner.addDirty();
        dirtySlots.incrementAndGet();
    }

    private void markedClean(NvmPageSwapper owner) {
        owner.removeDirty();
        dirtySlots.decrementAndGet();
    }

    /**
     * Every write of a page to its file through the tier: the file owes a force from then on. Set after the write, so
     * that a close clearing it just before its own force ({@link #forget}) has the write behind that force; set later,
     * the write came after the close's force (a page evicted during the close, written back by the clock, written
     * through, or bypassing a full tier), and the drop forces the file again before it frees the file id.
     */
    private static void writeFile(NvmPageSwapper owner, long pageId, long address) throws IOException {
        owner.fileSwapper().write(pageId, address);
        owner.owesForce();
    }

    /** Under {@code key}'s latch: writes the dirty copy in {@code slot} to its file and marks it clean. */
    private void writeBack(int slot, long key, NvmPageSwapper owner) throws IOException {
        long buffer = scratch + (long) stripe(key) * slotSize;
        device.read(slot, buffer, owner.filePageSize());
        writeFile(owner, PageKey.pageId(key), buffer);
        clearFlags(slot, DIRTY);
        markedClean(owner);
        writeBacks.incrementAndGet();
    }

    /** Under {@code key}'s latch: drops the copy of {@code key} in {@code slot} without writing it anywhere. */
    private void invalidate(int slot, long key, NvmPageSwapper owner) {
        index.remove(key, slot);
        if ((slotFlags.getAndSet(slot, 0) & DIRTY) != 0) {
            markedClean(owner);
        }
        slotKeys.set(slot, FREE);
        invalidations.incrementAndGet();
    }

    /** Flush path: the frame's version goes to the file, which makes any NVM copy stale. */
    void write(NvmPageSwapper owner, long pageId, long address) throws IOException {
        long key = PageKey.of(owner.fileId(), pageId);
        PageLatch latch = latch(key);
        latch.lock();
        try {
            owner.checkOpen();
            writeFile(owner, pageId, address);
            flushWrites.incrementAndGet();
            int slot = index.get(key);
            if (slot != PageSlotIndex.ABSENT) {
                invalidate(slot, key, owner);
            }
        } finally {
            latch.unlock();
        }
    }

    /** Vectored flush: latches every page's stripe (ascending, so no cycle), then one file call. */
    void write(NvmPageSwapper owner, long startPageId, long[] addresses, int count) throws IOException {
        long stripes = 0;
        for (int i = 0; i < count; i++) {
            stripes |= 1L << stripe(PageKey.of(owner.fileId(), startPageId + i));
        }
        long locked = 0;
        try {
            for (long s = stripes; s != 0; s &= s - 1) {
                int stripe = Long.numberOfTrailingZeros(s);
                latches[stripe].lock();
                locked |= 1L << stripe;
            }
            owner.checkOpen();
            owner.fileSwapper().write(startPageId, addresses, count);
            owner.owesForce(); // as writeFile does
            flushWrites.addAndGet(count);
            for (int i = 0; i < count; i++) {
                long key = PageKey.of(owner.fileId(), startPageId + i);
                int slot = index.get(key);
                if (slot != PageSlotIndex.ABSENT) {
                    invalidate(slot, key, owner);
                }
            }
        } finally {
            for (long s = locked; s != 0; s &= s - 1) {
                latches[Long.numberOfTrailingZeros(s)].unlock();
            }
        }
    }

    /** Writes every dirty NVM page of the file to the file, then forces the file. */
    void force(NvmPageSwapper owner) throws IOException {
        owner.checkOpen();
        writeBackFile(owner);
        owner.fileSwapper().force();
        IOException lost = owner.takeLostDirtyCopy();
        if (lost != null) {
            throw lost;
        }
    }

    private void writeBackFile(NvmPageSwapper owner) throws IOException {
        if (owner.dirtyPages() == 0) {
            return;
        }
        for (int slot = 0; slot < slots; slot++) {
            long key = slotKeys.get(slot);
            if (!ownedBy(key, owner) || (slotFlags.get(slot) & DIRTY) == 0) {
                continue;
            }
            PageLatch latch = latch(key);
            latch.lock();
            try {
                // per slot, under its latch: a close of the file (forget) that completed while this scan ran passes
                // the file id on, and the next file's dirty copies under it must not go into this file
                owner.checkOpen();
                if (slotKeys.get(slot) == key && (slotFlags.get(slot) & DIRTY) != 0) {
                    writeBack(slot, key, owner);
                }
            } finally {
                latch.unlock();
            }
        }
    }

    /**
     * Truncates the file, then drops its NVM copies of pages {@code >= pageCount} (unwritten), with every latch held
     * throughout: no write-back can grow the file past the cut meanwhile, and a cut that fails leaves every copy, dirty
     * ones included, as it was. (Dropped first, a failed cut lost the dirty copies, newer than the file, and the
     * file's older bytes past the cut read back.) A truncate is rare; holding the latches for one file call is cheap.
     */
    void truncate(NvmPageSwapper owner, long pageCount) throws IOException {
        owner.checkOpen(); // its file id may be another file's by now, whose copies the scan would drop
        if (pageCount < 0) {
            // before the scan, which would drop every copy of the file, dirty ones unwritten
            throw new IllegalArgumentException("page count must not be negative: pageCount=" + pageCount + " for "
                + owner.file());
        }
        int locked = 0;
        try {
            for (; locked < latches.length; locked++) { // ascending, as every caller taking several latches does
                latches[locked].lock();
            }
            // under every latch: a close (forget) of the file has not passed its id on, nor can it until this returns
            owner.checkOpen();
            owner.fileSwapper().truncate(pageCount);
            for (int slot = 0; slot < slots; slot++) {
                long key = slotKeys.get(slot);
                if (ownedBy(key, owner) && PageKey.pageId(key) >= pageCount) {
                    invalidate(slot, key, owner);
                }
            }
        } finally {
            while (locked > 0) {
                latches[--locked].unlock();
            }
        }
    }

    /**
     * Makes the file durable and forgets it: writes back its dirty pages, forces, drops its copies
     * (its file id may be reused for another file). If a write-back fails, nothing dirty has been
     * dropped. Closing the file swapper is the caller's next step. A retry after the drop failed (a copy evicted dirty
     * during the close, whose write-back failed) goes straight on with the drop: the swapper is released by then, and
     * the write-back scan refused it as closed, so the close failed for good and the copy stayed dirty in NVM.
     */
    void forget(NvmPageSwapper owner) throws IOException {
        if (!owner.isReleased()) {
            writeBackFile(owner);
            // A write to the file from here on (a page evicted during the close: its copy written back by the clock for
            // another file's eviction before the drop reaches it, written through, or bypassing a full tier) owes the
            // drop a force: the drop found nothing dirty, and the late page, written after this force, was never forced.
            owner.forced();
            owner.fileSwapper().force();
        }
        if (swappers.get(owner.fileId()) == owner) {
            // not yet dropped: once it was, the file id is free, and a scan by it would take the next file's copies
            dropCopies(owner, true);
        }
    }

    /**
     * Refuses every call through {@code owner} from now on and drops its copies, writing back one still dirty (evicted
     * during a close: never dropped dirty), then forgets the file id. No call is under way once each latch was free for
     * a moment (a call checks under its page's latch): no eviction can put a copy back behind the scan, and after it
     * the file id, free for another file, is never reached through this swapper. A copy written back, here or by the
     * clock since the close's force, leaves the
     * file owing a force ({@link NvmPageSwapper#forceOwed}), which {@code payOwedForce} pays before the file id is
     * freed: a force that fails leaves the swapper under its id, where a retried close, or the tier's, finds it.
     */
    private void dropCopies(NvmPageSwapper owner, boolean payOwedForce) throws IOException {
        dropCopies(owner, payOwedForce, null);
    }

    /**
     * {@link #dropCopies(NvmPageSwapper, boolean)}, or with {@code lowestLostIds} for a file given up
     * ({@link #closeGivingUpUnwritten}): its dirty copies are dropped unwritten, the lowest of their page ids kept in
     * {@code lowestLostIds}, ascending (the scan meets them in slot order, which an operator or a host parsing the
     * failure read as unsorted). Returns the dirty copies given up.
     */
    private long dropCopies(NvmPageSwapper owner, boolean payOwedForce, long[] lowestLostIds) throws IOException {
        owner.release();
        for (PageLatch latch : latches) {
            latch.lock();
            latch.unlock();
        }
        long lost = 0;
        for (int slot = 0; slot < slots; slot++) {
            long key = slotKeys.get(slot);
            if (!ownedBy(key, owner)) {
                continue;
            }
            PageLatch latch = latch(key);
            latch.lock();
            try {
                if (slotKeys.get(slot) == key) {
                    if ((slotFlags.get(slot) & DIRTY) != 0) {
                        if (lowestLostIds == null) {
                            writeBack(slot, key, owner); // owes a force
                        } else {
                            keepLowest(lowestLostIds, (int) Math.min(lost, lowestLostIds.length), PageKey.pageId(key));
                            lost++;
                            dirtyCopiesGivenUp.incrementAndGet();
                        }
                    }
                    invalidate(slot, key, owner);
                }
            } finally {
                latch.unlock();
            }
        }
        if (payOwedForce && owner.forceOwed()) {
            // copies evicted during the close, written back here: durable too, also when a retry finds them written
            // and only this force failed before
            owner.fileSwapper().force();
            owner.forced();
        }
        swappers.compareAndSet(owner.fileId(), owner, null);
        return lost;
    }

    /** Inserts {@code id} into the ascending {@code lowest[0, kept)}, the highest falling off once it is full. */
    private static void keepLowest(long[] lowest, int kept, long id) {
        int at = kept;
        while (at > 0 && lowest[at - 1] > id) {
            at--;
        }
        if (at == lowest.length) {
            return;
        }
        System.arraycopy(lowest, at, lowest, at + 1, Math.min(kept, lowest.length - 1) - at);
        lowest[at] = id;
    }

    /** The file's page count, or more if NVM holds a dirty page past the file's end (a scan; rare call). */
    long pageCount(NvmPageSwapper owner) throws IOException {
        owner.checkOpen();
        // The dirty copies before the file's length: a write-back (the clock making room for another file's eviction)
        // writes the file before it marks the copy clean, so a copy found clean here is in the length read after. The
        // other way round, a write-back in between was in neither, and a truncate keeping that page as its last wrote
        // a zero page over it.
        long count = 0;
        if (owner.dirtyPages() > 0) {
            for (int slot = 0; slot < slots; slot++) {
                long key = slotKeys.get(slot);
                if (ownedBy(key, owner) && (slotFlags.get(slot) & DIRTY) != 0) {
                    count = Math.max(count, PageKey.pageId(key) + 1);
                }
            }
        }
        return Math.max(count, owner.fileSwapper().pageCount());
    }

    private static boolean ownedBy(long key, NvmPageSwapper owner) {
        return key != FREE && key != RESERVED && PageKey.fileId(key) == owner.fileId();
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static int stripe(long key) {
        return (int) (PageKey.hash(key) >>> 58);
    }

    private PageLatch latch(long key) {
        return latches[stripe(key)];
    }

    /** Sets bits; returns the flags before. */
    private int setFlags(int slot, int bits) {
        int f;
        do {
            f = slotFlags.get(slot);
        } while ((f & bits) != bits && !slotFlags.compareAndSet(slot, f, f | bits));
        return f;
    }

    /** Clears bits; returns the flags before. */
    private int clearFlags(int slot, int bits) {
        int f;
        do {
            f = slotFlags.get(slot);
        } while ((f & bits) != 0 && !slotFlags.compareAndSet(slot, f, f & ~bits));
        return f;
    }

    // ---- introspection --------------------------------------------------------------------------

    /** Page reads in progress through the tier (from NVM or from the file): demand a prefetcher must not delay. */
    @Override
    public int readsInFlight() {
        return readsInFlight.get();
    }

    /** Logical slots: pages the tier can hold. */
    @Override
    public int slots() {
        return slots;
    }

    /** The {@link PageKey} of the page in logical slot {@code slot}, or 0 when the slot holds none (a hint: it may change at once). */
    @Override
    public long keyInSlot(int slot) {
        if (slot < 0 || slot >= slots) {
            throw new IndexOutOfBoundsException("NVM slot must be in [0, " + slots + "): slot=" + slot);
        }
        long key = slotKeys.get(slot);
        return key == FREE || key == RESERVED ? 0L : key;
    }

    /** Whether NVM holds a copy of the page. */
    @Override
    public boolean contains(int fileId, long pageId) {
        return index.get(PageKey.of(fileId, pageId)) != PageSlotIndex.ABSENT;
    }

    /** The slot holding the page, or -1. */
    int slotOf(int fileId, long pageId) {
        return index.get(PageKey.of(fileId, pageId));
    }

    /** Whether NVM holds a copy of the page that is newer than the file. */
    public boolean isDirtyInNvm(int fileId, long pageId) {
        int slot = slotOf(fileId, pageId);
        return slot != PageSlotIndex.ABSENT && (slotFlags.get(slot) & DIRTY) != 0;
    }

    /** The tier's counters in the page cache's terms. */
    @Override
    public TierCounters counters() {
        NvmTierStats tier = stats();
        NvmStats device = tier.device();
        return new TierCounters(device.reads(), device.writes(), device.bytesRead(), device.bytesWritten(), tier.swapIns(),
            tier.swapOuts(), tier.dirtyEvictionsAbsorbed(), tier.cleanEvictionsAbsorbed(), tier.fileReadsAvoided(),
            tier.fileWritesAvoided(), tier.writeBacks(), device.wearMax(), device.wearMean(), device.modeledDeviceNanos(),
            device.injectedNanos(), device.energyJoules());
    }

    /** This tier itself, when {@code pagecache.nvm.prefetch} is above 0; else null. */
    @Override
    public PrefetchSource prefetchSource() {
        return config.prefetch() > 0 ? this : null;
    }

    /** {@code pagecache.nvm.prefetch}. */
    @Override
    public int depth() {
        return config.prefetch();
    }

    /** With {@code pagecache.nvm.write_aware}: write-aware eviction, its shadows modeling this tier's slots. */
    @Override
    public WriteAwareness writeAwareness() {
        return config.writeAware() ? new WriteAwareness(slots) : null;
    }

    /**
     * Counters and the two occupancy figures, read without scanning the tier's slots; the device's part
     * ({@link NvmDevice#stats()}) does walk one wear counter per physical slot for the maximum and mean wear, so a
     * caller polling often (a metrics scrape) reads the tier's counters elsewhere: JMX reads the page cache's stats
     * without the tier.
     */
    public NvmTierStats stats() {
        int resident = index.size();
        long dirty = dirtySlots.get();
        // Each count before the one its events follow: write-backs and copies given up (each of a copy an absorbed dirty
        // eviction made dirty, counted under the page's latch before either) before dirty swap-outs, and those before
        // swap-outs (each counted after its swap-out). Read the other way, a snapshot taken meanwhile showed more dirty
        // swap-outs than swap-outs (docs/nvm.md: swapOuts >= dirtySwapOuts always), or more write-backs than the dirty
        // swap-outs they wrote, and fileWritesAvoided (their difference) fell below what the tier had saved, to 0.
        long writtenBack = writeBacks.get();
        long givenUp = dirtyCopiesGivenUp.get();
        long dirtySwapOuts = dirtyEvictionsAbsorbed.get();
        return new NvmTierStats(swapIns.get(), fileReads.get(), swapOuts.get(), cleanEvictionsAbsorbed.get(),
            dirtySwapOuts, writtenBack, writeThroughs.get(), flushWrites.get(), nvmEvictions.get(),
            bypasses.get(), invalidations.get(), deviceWriteErrors.get(), writeBackErrors.get(), givenUp,
            resident, dirty, device.stats());
    }

    /**
     * Checks, when no operation is running, that slots, index and per-file dirty counts agree, and
     * that write-through left nothing dirty; throws {@link IllegalStateException} naming the first
     * inconsistency.
     */
    @Override
    public void checkInvariants() {
        int resident = 0;
        long[] dirtyPerFile = new long[PageKey.MAX_FILE_ID + 1];
        for (int slot = 0; slot < slots; slot++) {
            long key = slotKeys.get(slot);
            if (key == RESERVED) {
                throw new IllegalStateException("slot " + slot + " is still reserved");
            }
            if (key == FREE) {
                if (slotFlags.get(slot) != 0) {
                    throw new IllegalStateException("free slot " + slot + " has flags " + slotFlags.get(slot));
                }
                continue;
            }
            resident++;
            if (index.get(key) != slot) {
                throw new IllegalStateException("slot " + slot + " holds " + PageKey.toString(key)
                    + " but the index maps it to " + index.get(key));
            }
            if (swappers.get(PageKey.fileId(key)) == null) {
                throw new IllegalStateException("slot " + slot + " holds " + PageKey.toString(key) + " of an unmapped file");
            }
            if ((slotFlags.get(slot) & DIRTY) != 0) {
                if (writePolicy == WritePolicy.WRITE_THROUGH) {
                    throw new IllegalStateException("write-through left " + PageKey.toString(key) + " dirty in NVM");
                }
                dirtyPerFile[PageKey.fileId(key)]++;
            }
        }
        if (resident != index.size()) {
            throw new IllegalStateException(resident + " slots hold pages but the index has " + index.size());
        }
        long dirtyTotal = 0;
        for (long count : dirtyPerFile) {
            dirtyTotal += count;
        }
        if (dirtyTotal != dirtySlots.get()) {
            throw new IllegalStateException(dirtyTotal + " slots are dirty but the tier counts " + dirtySlots.get());
        }
        for (int fileId = 0; fileId < dirtyPerFile.length; fileId++) {
            NvmPageSwapper owner = swappers.get(fileId);
            long counted = owner == null ? 0 : owner.dirtyPages();
            if (counted != dirtyPerFile[fileId]) {
                throw new IllegalStateException("file " + fileId + " counts " + counted + " dirty NVM pages, slots hold "
                    + dirtyPerFile[fileId]);
            }
        }
    }

    /**
     * Closes every file still open through the tier (making it durable), then the device and the
     * wrapped file swapper factory. If a file cannot be made durable while NVM holds dirty pages, throws and leaves
     * the device open, so those pages are still there for another attempt; with none, closes the files that failed and
     * the device all the same, then throws the failure. A close, or a {@link #create}, called meanwhile waits for it.
     *
     * @throws IllegalStateException while the page cache this tier serves is open: that cache closes it with itself
     */
    @Override
    public void close() throws IOException {
        synchronized (lifecycle) {
            if (!closed && servedCacheOpen.getAsBoolean()) {
                // Closed under the cache, every file's swapper was released: the cache's dirty frames could no longer be
                // written, and every close of the cache failed, keeping its memory and threads for the JVM's life.
                throw refusedUnderOpenCache();
            }
            closeFilesAndDevice();
        }
    }

    /**
     * As {@link #close}, and where that fails with dirty copies in NVM that their files will not take (storage gone for
     * good), gives those pages up: drops the copies unwritten, closes the files without a force and the device (its
     * memory freed), then throws an {@code IOException} naming every page given up, by file, the close's failure its
     * cause. Only on the host's word: {@link #close} never drops a dirty copy, and its retries kept the device for the
     * JVM's life where the files never took writes again. Files that took their copies are closed as by {@link #close}.
     *
     * <p>While the page cache this tier serves is open (its close failed on such a file, and stays open so as not to
     * lose the copies), it gives up only the files that cache has closed, whose close failed on their dirty copies, and
     * leaves the tier open: the cache's next close then closes them, and the tier with itself.
     *
     * @throws IllegalStateException while the page cache this tier serves is open and has no such file, as {@link #close}
     *                               is refused then: nothing to give up, and the cache closes its tier with itself
     */
    public void closeGivingUpUnwritten() throws IOException {
        synchronized (lifecycle) {
            if (!closed && servedCacheOpen.getAsBoolean()) {
                if (!anyCloseFailedHoldingUnwrittenPages()) {
                    // It returned normally, the tier left open with nothing said: a host that called it before the
                    // cache's close took its tier for closed, and its copies for given up should that close fail on them.
                    throw new IllegalStateException("the NVM tier serves an open page cache, and no file that cache"
                        + " closed failed on dirty copies in NVM: nothing to give up; close the page cache"
                        + " (PageCache.close), which closes its tier, and give up what its close fails on after that");
                }
                giveUpUnwritten(null);
                return;
            }
            try {
                closeFilesAndDevice();
            } catch (Throwable failure) {
                if (closed) {
                    throw failure; // nothing dirty was left: the device is freed already
                }
                giveUpUnwritten(failure);
            }
        }
    }

    /** Whether a file's swapper is left with dirty copies by its failed close ({@link NvmPageSwapper#closeFailedHoldingUnwrittenPages}). */
    private boolean anyCloseFailedHoldingUnwrittenPages() {
        for (int fileId = 0; fileId < swappers.length(); fileId++) {
            NvmPageSwapper owner = swappers.get(fileId);
            if (owner != null && owner.closeFailedHoldingUnwrittenPages()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Under lifecycle: drops the dirty copies files would not take and closes those files, then throws naming the pages.
     * With {@code failure} the tier's close that kept the device for them: every file is given up, and the tier closed.
     * Without, the served cache is open: only its files whose close failed on their copies, and the tier stays open.
     */
    private void giveUpUnwritten(Throwable failure) throws IOException {
        boolean closingTier = failure != null;
        StringBuilder lost = new StringBuilder();
        long lostPages = 0;
        Throwable closeFailure = failure;
        long[] lowestIds = new long[NAMED_LOST_PAGES]; // each file's, named before the next file's
        for (int fileId = 0; fileId < swappers.length(); fileId++) {
            NvmPageSwapper owner = swappers.get(fileId);
            if (owner != null && (closingTier || owner.closeFailedHoldingUnwrittenPages())) {
                long[] dropped = {0};
                try {
                    owner.abandon(() -> dropped[0] = dropCopies(owner, false, lowestIds));
                } catch (Throwable t) {
                    closeFailure = Failures.addOrLeaveOut(closeFailure, t); // closed as far as it goes
                }
                if (dropped[0] > 0) {
                    lostPages += dropped[0];
                    lost.append(lost.length() == 0 ? "" : "; ").append(owner.file()).append(": pages ");
                    long named = Math.min(dropped[0], NAMED_LOST_PAGES);
                    for (int i = 0; i < named; i++) {
                        lost.append(i == 0 ? "" : ", ").append(lowestIds[i]);
                    }
                    if (dropped[0] > named) {
                        lost.append(" and ").append(dropped[0] - named).append(" more");
                    }
                }
            }
        }
        if (closingTier) {
            closeFailure = Failures.addOrLeaveOut(closeFailure, closeDeviceAndFiles());
        }
        if (lostPages == 0) {
            Failures.rethrow(closeFailure);
            return;
        }
        throw new IOException("the NVM tier gave up " + lostPages + " dirty page" + (lostPages == 1 ? "" : "s")
            + " that their files would not take, newer than the files, now lost: " + lost, closeFailure);
    }

    /**
     * The last of the tier's close, its files' copies dealt with: marks it closed, frees the device and the scratch
     * memory, and closes the file factory; returns what that close threw (null if nothing), for the caller to report.
     */
    private Throwable closeDeviceAndFiles() {
        closed = true;
        device.closeForTier();
        UnsafeAccess.UNSAFE.freeMemory(scratch);
        try {
            files.close();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    private static IllegalStateException refusedUnderOpenCache() {
        return new IllegalStateException("the NVM tier serves an open page cache, which closes it with itself:"
            + " close the page cache (PageCache.close), not its tier");
    }

    /**
     * The page cache taking this tier: while {@code cacheOpen} answers true, {@link #close} is refused, and so is
     * another cache.
     */
    @Override
    public void servesCache(BooleanSupplier cacheOpen) {
        Objects.requireNonNull(cacheOpen, "cacheOpen");
        synchronized (lifecycle) {
            if (servedCacheOpen.getAsBoolean()) {
                throw new IllegalStateException("the NVM tier already serves an open page cache: each cache needs a tier"
                    + " of its own");
            }
            servedCacheOpen = cacheOpen;
        }
    }

    private void closeFilesAndDevice() throws IOException {
        if (closed) {
            return;
        }
        // An Error from a file's close (the file swapper's, a plug-in's or the JVM's) ended the loop: the files after
        // it were left open, their dirty copies unwritten, and the device and scratch memory kept. It goes on now, and
        // the Error is thrown at the end as itself, the other failures suppressed in it.
        CloseFailures failures = closeFailures.cleared();
        for (int fileId = 0; fileId < swappers.length(); fileId++) {
            NvmPageSwapper owner = swappers.get(fileId);
            if (owner != null) {
                try {
                    owner.close();
                } catch (Throwable t) {
                    // The file swapper's RuntimeException too (a plug-in's bug, an UncheckedIOException): it ended the
                    // loop, leaving the files after it open and the device kept whatever NVM held.
                    failures.add(owner.file(), t);
                }
            }
        }
        if (failures.any()) {
            if (dirtySlots.get() > 0) {
                failures.throwThem(); // dirty pages are still in NVM; the device stays open
            }
            // No file lacks anything NVM holds: what failed was making a file durable (its force) or closing it. A
            // page cache closes its tier once and closes all the same, so keeping the device for another attempt kept
            // its region (the whole capacity, off-heap) and those files open for the life of the JVM.
            for (int fileId = 0; fileId < swappers.length(); fileId++) {
                NvmPageSwapper owner = swappers.get(fileId);
                if (owner != null) {
                    try {
                        abandon(owner);
                    } catch (Throwable t) {
                        failures.suppress(t);
                    }
                }
            }
        }
        Throwable factoryFailure = closeDeviceAndFiles();
        if (factoryFailure != null) {
            // a RuntimeException too (a plug-in's bug): thrown alone, it hid a file that could not be made durable; an
            // Error is thrown as itself, as a file's Error is, with that failure in it
            failures.addFactorys(factoryFailure);
        }
        failures.throwThem();
    }

    /**
     * The failures of the tier's close, gathered so that gathering them never ends the close. Naming a file's
     * RuntimeException, or suppressing one failure in another, allocates, and an OutOfMemoryError there (the heap
     * full, or a plug-in's exception whose message cannot be made) once came out of the loop over the files: the files
     * after it stayed open, their dirty copies unwritten, and the device and its memory were kept. Whatever cannot be
     * recorded so is recorded as it is, or left out once a failure of its kind is kept.
     */
    private static final class CloseFailures {
        private IOException failure;
        private Error fatal;
        /** A failure kept as it is: a file's that could not be named (the heap full), the factory's where no file failed. */
        private Throwable asItIs;

        /** Empties this for a new close: a retried close records its own failures. */
        CloseFailures cleared() {
            failure = null;
            fatal = null;
            asItIs = null;
            return this;
        }

        boolean any() {
            return failure != null || fatal != null || asItIs != null;
        }

        /** A file's failure to close: an IOException as it is, a RuntimeException named, an Error kept apart. */
        void add(Path file, Throwable t) {
            try {
                if (t instanceof Error e) {
                    fatal = (Error) Failures.add(fatal, e);
                } else {
                    IOException named = t instanceof IOException io ? io
                        : new IOException("closing " + file + " through the NVM tier failed: " + t, t);
                    failure = (IOException) Failures.add(failure, named);
                }
            } catch (Throwable full) {
                keepAsItIs(t);
            }
        }

        /** The factory's failure: thrown alone where no file failed, else suppressed in the file's; an Error as itself. */
        void addFactorys(Throwable t) {
            if (!any() || t instanceof Error) {
                try {
                    if (t instanceof Error e) {
                        fatal = (Error) Failures.add(fatal, e);
                    } else {
                        asItIs = t;
                    }
                } catch (Throwable full) {
                    keepAsItIs(t);
                }
                return;
            }
            suppress(t);
        }

        /** A later failure, suppressed in the first; left out where that fails (not itself: see Failures.add). */
        void suppress(Throwable t) {
            Failures.addOrLeaveOut(first(), t);
        }

        private void keepAsItIs(Throwable t) {
            if (t instanceof Error e) {
                if (fatal == null) {
                    fatal = e;
                }
            } else if (t instanceof IOException io && failure == null) {
                failure = io;
            } else if (asItIs == null) {
                asItIs = t;
            }
        }

        private Throwable first() {
            return fatal != null ? fatal : failure != null ? failure : asItIs;
        }

        /** Throws the close's failure, if any: an Error as itself, the others suppressed in it; else the IOException. */
        void throwThem() throws IOException {
            Throwable first = first();
            if (first == null) {
                return;
            }
            if (failure != null && failure != first) {
                suppress(failure);
            }
            if (asItIs != null && asItIs != first) {
                suppress(asItIs);
            }
            Failures.rethrow(first);
        }
    }

    /**
     * At the tier's close, for a file that could not be made durable or closed but has no dirty page in NVM: refuses
     * its swapper from now on, drops its (clean) copies and closes the file.
     */
    private void abandon(NvmPageSwapper owner) throws IOException {
        // none of them dirty (the caller checked): no write-back to the file that failed
        owner.abandon(() -> dropCopies(owner, false));
    }
}
