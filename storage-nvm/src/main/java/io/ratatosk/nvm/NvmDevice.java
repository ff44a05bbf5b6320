package io.ratatosk.nvm;

import io.ratatosk.core.LatencyWait;
import io.ratatosk.pagecache.MachineMemoryExceededException;
import io.ratatosk.pagecache.internal.MachineMemory;

import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * An emulated NVM device: an off-heap region of page-sized slots behind one or more independent
 * request queues, with injected latency and counters for operations, wear and energy.
 *
 * <p>Callers address <b>logical</b> slots {@code 0 .. slots() - 1}. A remapping layer
 * ({@link Remapping}) places each in a <b>physical</b> slot and moves them over time so that a hot
 * logical slot does not wear one physical slot out. Physical slot {@code p} belongs to device
 * {@code p % devices}; each device is a first-come, first-served lock held for the whole operation
 * ({@link QueueLock}), so a request waits while its device is busy (a FIFO queue per device) and requests
 * on different devices overlap. Its locks allocate nothing, so neither does an operation.
 *
 * <p>One operation: wait for the device, copy the page, then (when latency is injected) hold the
 * device until {@code start + modeled latency}. The modeled latency of every read and every write
 * is fixed by the config ({@link NvmDeviceConfig#readLatencyNanos()}), so modeled device time is
 * exactly operations x latency.
 *
 * <p>Thread-safe: operations on different logical slots run concurrently; operations on the same
 * logical slot are serialized (a striped lock, which also excludes a start-gap move of that slot).
 * {@link #close} waits for the operations in flight (a start-gap move included) before it frees the region, and
 * refuses later ones with an {@link IllegalStateException}.
 */
public final class NvmDevice implements AutoCloseable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int MAX_SLOT_LOCK_STRIPES = 1024;
    /** Waiters a device queue wakes directly: more than the threads a cache usually has faulting at once. */
    private static final int DEVICE_WAITER_SLOTS = 64;
    /** Two operations on one logical slot rarely overlap, so a slot lock needs few. */
    private static final int SLOT_WAITER_SLOTS = 4;
    /**
     * Bytes of emulated NVM of the devices of this JVM not yet closed, taken before a region is allocated: what a new
     * device is checked against the machine with. Checked one device at a time, two tiers of 60% of memory each both
     * opened, the second zeroing its region into swap or the kernel's OOM killer.
     */
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    /** The first page of the address space, which no operating system maps (Linux keeps at least 64 KiB free). */
    private static final long NULL_PAGE_BYTES = 4096;
    /** How soon a close first looks again whether the operations it waits for have ended; the step then doubles. */
    private static final long CLOSE_POLL_NANOS = 100_000;
    /**
     * The longest step of a close's wait. Every 100 us, as it once looked, a close behind an operation of a second (the
     * flags allow latencies of 10 s, and each queued operation adds its own) woke 10,000 times a second.
     */
    private static final long MAX_CLOSE_POLL_NANOS = 10_000_000;
    static final long MAX_CLOSE_POLL_MILLIS = MAX_CLOSE_POLL_NANOS / 1_000_000;

    private final NvmDeviceConfig config;
    /** Parks of the close while it waited for operations in flight (read by tests); written by the one closing thread. */
    private int closeWaits;
    private final int slots;
    private final int physicalSlots;
    private final int pageSize;
    private final int devices;
    private final long readLatencyNanos;
    private final long writeLatencyNanos;
    private final boolean injectLatency;
    private final long base;
    /** The size of the region at {@code base}. */
    private final long bytes;
    /** Null when remapping is {@link Remapping#NONE}. */
    private final StartGap startGap;
    private final int gapInterval;
    private final ReentrantLock gapLock = new ReentrantLock();
    private final QueueLock[] deviceQueues;
    private final QueueLock[] slotLocks;
    private final AtomicLongArray wear;

    private final AtomicLong hostWrites = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong remapMoves = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong injectedNanos = new AtomicLong();
    private final AtomicLong queueWaitNanos = new AtomicLong();
    private final AtomicInteger writesToFail = new AtomicInteger();
    /** Reads and writes between their check that the device is open and their last touch of the region. */
    private final AtomicInteger operationsInFlight = new AtomicInteger();
    /**
     * Set once by {@link #closeForTier}, under closeLock: a volatile and a lock, not an atomic, as the close may run with
     * the heap full, and an AtomicBoolean's first compare-and-set in a JVM links its VarHandle, which allocates: that
     * OutOfMemoryError came out of the tier's close with the region never freed.
     */
    private volatile boolean closing;
    private final Object closeLock = new Object();
    /**
     * Set by the tier this device serves ({@link NvmSwapStore}), which alone closes it ({@link #closeForTier}): closed by
     * a host through {@code tier.device()}, it freed the tier's slots under the open cache, dirty copies and all.
     */
    private volatile boolean ownedByTier;
    private final long openedAt;
    private volatile long closedAt;

    public NvmDevice(NvmDeviceConfig config) {
        this.config = config;
        this.slots = config.slots();
        this.pageSize = config.pageSize();
        this.devices = config.devices();
        this.readLatencyNanos = config.readLatencyNanos();
        this.writeLatencyNanos = config.writeLatencyNanos();
        this.injectLatency = config.injectLatency();
        this.startGap = config.remapping() == Remapping.START_GAP ? new StartGap(slots) : null;
        this.gapInterval = config.gapInterval();
        this.physicalSlots = startGap != null ? startGap.physicalSlots() : slots;
        // Before the slot arrays (a wear count per slot is 1 GiB of heap at 1 TiB of 8k slots) and the memory itself.
        refuseMoreThanTheMachineHas(regionBytes(config), config, MachineMemory.total());
        this.deviceQueues = new QueueLock[devices];
        for (int d = 0; d < devices; d++) {
            deviceQueues[d] = new QueueLock(DEVICE_WAITER_SLOTS);
        }
        this.slotLocks = new QueueLock[Math.min(slots, MAX_SLOT_LOCK_STRIPES)];
        for (int i = 0; i < slotLocks.length; i++) {
            slotLocks[i] = new QueueLock(SLOT_WAITER_SLOTS);
        }
        this.wear = new AtomicLongArray(physicalSlots);
        // The off-heap slots last: a constructor that fails after taking them would leave them to nobody.
        this.bytes = (long) physicalSlots * pageSize;
        hold(bytes, config, MachineMemory.total());
        try {
            this.base = UNSAFE.allocateMemory(bytes);
        } catch (OutOfMemoryError e) {
            LIVE_BYTES.addAndGet(-bytes);
            throw new IllegalStateException("cannot allocate " + bytes + " bytes of emulated NVM for "
                + NvmDeviceConfig.CAPACITY + "=" + config.capacityBytes() + " (" + physicalSlots + " slots of "
                + NvmDeviceConfig.PAGE_SIZE + "=" + pageSize + "): " + e.getMessage(), e);
        }
        UNSAFE.setMemory(base, bytes, (byte) 0);
        this.openedAt = System.nanoTime();
    }

    /**
     * Emulated NVM is memory of this machine, zeroed at once: a capacity larger than the machine's memory would have the
     * host swapped out or killed by the kernel while the device is being zeroed. Refused, naming the flag, as the page
     * cache refuses a {@code pagecache.memory} larger than the machine (the two are checked each on its own). Together
     * with what the other devices of this JVM not yet closed hold.
     */
    static void refuseMoreThanTheMachineHas(long bytes, NvmDeviceConfig config, OptionalLong machine) {
        refuseMoreThanTheMachineHas(bytes, config, machine, LIVE_BYTES.get());
    }

    static void refuseMoreThanTheMachineHas(long bytes, NvmDeviceConfig config, OptionalLong machine, long heldByOthers) {
        if (machine.isPresent() && bytes > machine.getAsLong() - heldByOthers) {
            throw new MachineMemoryExceededException("cannot allocate " + bytes + " bytes of emulated NVM for "
                + NvmDeviceConfig.CAPACITY + "=" + config.capacityBytes() + ": " + (heldByOthers == 0 ? "more than"
                : "with the " + heldByOthers + " bytes the other NVM devices (tiers) of this JVM hold, more than")
                + " the " + machine.getAsLong() + " bytes of memory this machine (or its container) has; the emulated"
                + " NVM is memory, zeroed at once. Give " + NvmDeviceConfig.CAPACITY + " a smaller size"
                + (heldByOthers == 0 ? "" : ", or close the other tiers first"));
        }
    }

    /** Adds {@code bytes} to {@link #LIVE_BYTES}, refused as above if they would not fit with the others'. */
    private static void hold(long bytes, NvmDeviceConfig config, OptionalLong machine) {
        while (true) {
            long others = LIVE_BYTES.get();
            refuseMoreThanTheMachineHas(bytes, config, machine, others);
            if (LIVE_BYTES.compareAndSet(others, others + bytes)) {
                return;
            }
        }
    }

    /** The bytes of the region a device of {@code config} allocates: its physical slots, start-gap's spare one included. */
    static long regionBytes(NvmDeviceConfig config) {
        long physicalSlots = config.slots() + (config.remapping() == Remapping.START_GAP ? 1L : 0L);
        return physicalSlots * config.pageSize();
    }

    /** Bytes of emulated NVM allocated by devices not yet closed, in this JVM; for tests that look for leaks. */
    static long liveBytes() {
        return LIVE_BYTES.get();
    }

    public NvmDeviceConfig config() {
        return config;
    }

    /** Logical slots callers may address. */
    public int slots() {
        return slots;
    }

    /** Physical slots, including start-gap's spare one. */
    public int physicalSlots() {
        return physicalSlots;
    }

    public int pageSize() {
        return pageSize;
    }

    /** Where logical {@code slot} lives right now. */
    public int physicalSlot(int slot) {
        checkSlot(slot);
        return startGap != null ? startGap.toPhysical(slot) : slot;
    }

    /** The device (queue) that serves logical {@code slot} right now. */
    public int deviceOf(int slot) {
        return physicalSlot(slot) % devices;
    }

    /** Writes physical slot {@code physicalSlot} has received so far. */
    public long wear(int physicalSlot) {
        if (physicalSlot < 0 || physicalSlot >= physicalSlots) {
            // start-gap's spare slot counts: the range is the physical one, not checkSlot's logical one
            throw new IndexOutOfBoundsException("physical NVM slot must be in [0, " + physicalSlots + "): physicalSlot="
                + physicalSlot);
        }
        return wear.get(physicalSlot);
    }

    /**
     * Copies {@code length} bytes of logical {@code slot} to {@code address}, which must be native memory the caller
     * owns, at least {@code length} bytes of it (the tier passes a page frame or its own buffer). Only what is cheap to
     * check is checked: an address in the null page (0, or a small offset from it: no memory is ever there, and a copy
     * to it crashes the JVM) or a range that wraps past the end of the address space is refused.
     */
    public void read(int slot, long address, int length) {
        checkSlot(slot);
        checkLength(length);
        checkAddress(address, length);
        enter();
        try {
            QueueLock lock = slotLock(slot);
            lock.lock();
            try {
                int physical = physicalSlot(slot);
                operate(physical, false, readLatencyNanos, slotAddress(physical), address, length);
            } finally {
                lock.unlock();
            }
        } finally {
            exit();
        }
        reads.incrementAndGet();
        bytesRead.addAndGet(length);
    }

    /**
     * Copies {@code length} bytes from {@code address} into logical {@code slot}. A write that fails
     * (see {@link #failNextWrites}) throws after tearing the slot: its content is then undefined. {@code address} is
     * checked as {@link #read}'s is.
     */
    public void write(int slot, long address, int length) throws IOException {
        checkSlot(slot);
        checkLength(length);
        checkAddress(address, length);
        enter();
        try {
            QueueLock lock = slotLock(slot);
            lock.lock();
            try {
                int physical = physicalSlot(slot);
                if (writesToFail.get() > 0 && writesToFail.getAndDecrement() > 0) {
                    UNSAFE.copyMemory(address, slotAddress(physical), length / 2);
                    failedWrites.incrementAndGet();
                    throw new IOException("injected NVM write error: logical slot " + slot + ", physical slot " + physical
                        + ", device " + physical % devices);
                }
                operate(physical, true, writeLatencyNanos, address, slotAddress(physical), length);
                wear.incrementAndGet(physical);
            } finally {
                lock.unlock();
            }
            writes.incrementAndGet();
            bytesWritten.addAndGet(length);
            if (startGap != null && hostWrites.incrementAndGet() % gapInterval == 0) {
                moveGap(); // copies between physical slots: still inside the operation that close waits for
            }
        } finally {
            exit();
        }
    }

    /** Test hook: the next {@code n} host writes fail with an {@link IOException}; 0 cancels what is left. */
    public void failNextWrites(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("the count of NVM writes to fail must not be negative: n=" + n);
        }
        writesToFail.set(n);
    }

    /**
     * One device operation on {@code physical}: queue for its device, copy, then hold the device
     * until the modeled latency has passed.
     */
    private void operate(int physical, boolean isWrite, long latencyNanos, long from, long to, int length) {
        QueueLock queue = deviceQueues[physical % devices];
        long queued = System.nanoTime();
        queue.lock();
        try {
            long start = System.nanoTime();
            queueWaitNanos.addAndGet(start - queued);
            if (length > 0) {
                UNSAFE.copyMemory(from, to, length);
            }
            if (injectLatency) {
                LatencyWait.until(start + latencyNanos);
                injectedNanos.addAndGet(System.nanoTime() - start);
            }
        } finally {
            queue.unlock();
        }
    }

    /**
     * Start-gap: copies the slot below the gap into the gap, charged as one device read and one
     * device write, then commits the new mapping. Holds the moved logical slot's lock throughout,
     * never another slot's, so it cannot deadlock with host operations (which hold one slot lock
     * and never the gap lock).
     */
    private void moveGap() {
        gapLock.lock();
        try {
            int source = startGap.moveSource();
            int target = startGap.moveTarget();
            int logical = startGap.toLogical(source);
            QueueLock lock = slotLock(logical);
            lock.lock();
            try {
                operate(source, false, readLatencyNanos, 0, 0, 0);
                operate(target, true, writeLatencyNanos, slotAddress(source), slotAddress(target), pageSize);
                wear.incrementAndGet(target);
                startGap.commitMove();
            } finally {
                lock.unlock();
            }
            reads.incrementAndGet();
            writes.incrementAndGet();
            bytesRead.addAndGet(pageSize);
            bytesWritten.addAndGet(pageSize);
            remapMoves.incrementAndGet();
        } finally {
            gapLock.unlock();
        }
    }

    /**
     * Counts an operation in before it touches the region, refused once {@link #close} began: counted first, then
     * the flag read, while close sets the flag, then reads the count; so either close waits for it, or it sees the
     * flag and never touches the region.
     */
    private void enter() {
        operationsInFlight.incrementAndGet();
        if (closing) {
            operationsInFlight.decrementAndGet();
            throw new IllegalStateException("NVM device is closed");
        }
    }

    private void exit() {
        operationsInFlight.decrementAndGet();
    }

    private long slotAddress(int physical) {
        return base + (long) physical * pageSize;
    }

    private QueueLock slotLock(int slot) {
        return slotLocks[slot % slotLocks.length];
    }

    private void checkSlot(int slot) {
        if (closedAt != 0) {
            throw new IllegalStateException("NVM device is closed");
        }
        if (slot < 0 || slot >= slots) {
            throw new IndexOutOfBoundsException("NVM slot must be in [0, " + slots + "): slot=" + slot);
        }
    }

    /**
     * Refuses an address no caller can own: the null page (an unset address, or a small offset from one), or a range
     * wrapping past the top of the address space. A copy from or to either crashed the JVM (SIGSEGV). Any other
     * address is the caller's to get right: whether memory is allocated cannot be checked cheaply.
     */
    private static void checkAddress(long address, int length) {
        if (Long.compareUnsigned(address, NULL_PAGE_BYTES) < 0 || Long.compareUnsigned(address + length, address) < 0) {
            throw new IllegalArgumentException("address must be native memory of at least " + length + " bytes, not in"
                + " the null page [0, " + NULL_PAGE_BYTES + ") nor wrapping past the address space's end: address=0x"
                + Long.toHexString(address) + ", length=" + length);
        }
    }

    private void checkLength(int length) {
        if (length < 0 || length > pageSize) {
            throw new IllegalArgumentException("length must be in [0, " + pageSize + "]: length=" + length);
        }
    }

    /**
     * reads x read latency + writes x write latency, at most {@code Long.MAX_VALUE}: at the flags' 10 s latency the plain
     * products wrapped negative after about 9.2e8 operations (292 years of modelled device time, but the counts are not
     * timed when latency injection is off).
     */
    long modeledNanos(long r, long w) {
        try {
            return Math.addExact(Math.multiplyExact(r, readLatencyNanos), Math.multiplyExact(w, writeLatencyNanos));
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    public NvmStats stats() {
        long r = reads.get();
        long w = writes.get();
        long max = 0;
        long total = 0;
        for (int p = 0; p < physicalSlots; p++) {
            long x = wear.get(p);
            max = Math.max(max, x);
            total += x;
        }
        long end = closedAt != 0 ? closedAt : System.nanoTime();
        long elapsed = Math.max(1, end - openedAt);
        NvmProfile profile = config.profile();
        // mW x ns = pJ
        double readJ = (double) r * readLatencyNanos * profile.readPowerMilliwatts() * 1e-12;
        double writeJ = (double) w * writeLatencyNanos * profile.writePowerMilliwatts() * 1e-12;
        double standbyJ = (double) profile.standbyPowerMilliwatts() * devices * elapsed * 1e-12;
        double lifetime = max == 0 ? Double.POSITIVE_INFINITY : config.endurance() * (elapsed / 1e9) / max;
        return new NvmStats(r, w, bytesRead.get(), bytesWritten.get(), remapMoves.get(), failedWrites.get(),
            max, (double) total / physicalSlots, total, physicalSlots,
            modeledNanos(r, w), injectedNanos.get(), queueWaitNanos.get(),
            readJ, writeJ, standbyJ, elapsed, config.endurance(), lifetime);
    }

    /**
     * Refuses further reads and writes, waits for those in flight (each ends within its queueing and modeled latency),
     * then frees the region; once only, also when called again or from several threads at once. Freeing it under an
     * operation still copying (a swap-in, a start-gap move) was a use after free, which can crash the JVM.
     *
     * @throws IllegalStateException for the device of an {@link NvmSwapStore} that is open: the tier closes it
     */
    @Override
    public void close() {
        if (ownedByTier && !closing) {
            throw new IllegalStateException("this NVM device belongs to an NVM tier (NvmSwapStore), which closes it with"
                + " itself: close the tier, or the page cache it serves, not its device (closed under the tier, it would"
                + " lose the tier's dirty copies of pages its files lack)");
        }
        closeForTier();
    }

    /** For the {@link NvmSwapStore} that owns this device: from then on only its {@link #closeForTier} closes it. */
    void ownedByTier() {
        ownedByTier = true;
    }

    /** {@link #close}, for the tier that owns this device (and a device no tier owns). */
    void closeForTier() {
        synchronized (closeLock) {
            if (closing) {
                return;
            }
            closing = true; // a volatile write, then the count's volatile read: ordered as enter() needs (see there)
        }
        closedAt = System.nanoTime();
        boolean interrupted = false; // an interrupt does not end the wait (the memory is still in use): kept for later
        long poll = CLOSE_POLL_NANOS;
        while (operationsInFlight.get() > 0) {
            closeWaits++;
            LockSupport.parkNanos(poll);
            interrupted |= Thread.interrupted();
            poll = Math.min(2 * poll, MAX_CLOSE_POLL_NANOS);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        UNSAFE.freeMemory(base);
        LIVE_BYTES.addAndGet(-bytes);
    }

    /** Parks of the close while it waited, for tests; read on the thread that closed. */
    int closeWaits() {
        return closeWaits;
    }
}
