package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link GlobalClockPolicy} with a memory of recently evicted pages: a page whose fault finds it in
 * the memory starts at the boost usage (7) instead of the fault usage, so a page evicted a little
 * too early gets a long second life. The memory is lossy and lock-free: an eviction sets bit
 * hash(page) mod B of an {@link AtomicBitset} and appends the bit's index to an {@link IntMpscQueue}; a fault
 * that boosts a page clears its bit. Housekeeping (the background evictor's, or the evicting
 * thread's when there is none) trims the queue to the history capacity, clearing the oldest bits.
 * Two pages that share a bit can lend each other a boost or take it away, and a page evicted again
 * while its older entry is queued is forgotten when that entry is trimmed: the price of the bitset,
 * which {@link ExactHistoryPolicy} measures. Source: Larsson and Gustavsson (2024), sections 3.4.6, 4.3.5, 5.1.3 and
 * 5.3, listing B.6.
 *
 * <p>Hot path: a hit is exactly global-clock's. A fault costs one atomic AND; an eviction one atomic
 * OR and one queue offer (a CAS and a store; until 2026-11-27 a JCTools queue, which boxed each entry).
 */
public final class BitsetHistoryPolicy extends UsageClock {
    public static final String NAME = "bitset-history";
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "global-clock plus a lock-free bitset of recently evicted pages: a page faulted back soon starts at the boost usage.",
        List.of(new ReadFlag(ClockFlags.MAX_USAGE, String.valueOf(GlobalClockPolicy.DEFAULT_MAX_USAGE)),
            ReadFlag.of(ClockFlags.FAULT_USAGE), ReadFlag.of(ClockFlags.EVICT_THRESHOLD), ReadFlag.of(HistoryFlags.BITS),
            ReadFlag.of(HistoryFlags.CAPACITY), ReadFlag.of(HistoryFlags.BOOST_USAGE)),
        BitsetHistoryPolicy::create);
    /** Bits per frame of the default bitset. */
    public static final int DEFAULT_BITS_PER_FRAME = PolicySizes.HISTORY_BITS_PER_FRAME;
    private static final int MAX_BITS = PolicySizes.MAX_HISTORY_BITS;

    private final AtomicBitset bits;
    /** The bits evictions set, oldest first. */
    private final IntMpscQueue order;
    private final int capacity;
    private final int boostUsage;
    /** Held by the one thread consuming {@link #order} (it has a single consumer). */
    private final AtomicBoolean trimming = new AtomicBoolean();

    /**
     * @param bits       bitset size, a power of two in [64, 2^30]
     * @param capacity   evicted pages remembered, in [1, 2^28] ({@link PolicySizes#MAX_HISTORY_CAPACITY})
     * @param boostUsage usage of a faulted page found in the history, in [0, maxUsage]
     */
    public BitsetHistoryPolicy(FrameTable frames, int maxUsage, int faultUsage, int evictThreshold,
                               int bits, int capacity, int boostUsage) {
        super(NAME, frames, maxUsage, faultUsage, evictThreshold);
        if (bits < Long.SIZE || Integer.bitCount(bits) != 1 || bits > MAX_BITS) {
            throw new IllegalArgumentException(HistoryFlags.BITS + "=" + bits + " must be a power of two in [64, " + MAX_BITS + "]");
        }
        checkCapacityAndBoost(capacity, boostUsage, maxUsage);
        this.bits = new AtomicBitset(bits);
        this.capacity = capacity;
        this.boostUsage = boostUsage;
        // Room for what arrives between two housekeeping runs; beyond it the evicting thread trims.
        this.order = new IntMpscQueue(queueBound(capacity));
    }

    /** With the {@code pagecache.history.*} and {@code pagecache.clock.*} flags, at their defaults where unset. */
    public static BitsetHistoryPolicy create(FrameTable frames, FlagValues values) {
        int maxUsage = values.getInt(ClockFlags.MAX_USAGE, GlobalClockPolicy.DEFAULT_MAX_USAGE);
        return new BitsetHistoryPolicy(frames, maxUsage,
            values.getInt(ClockFlags.FAULT_USAGE, GlobalClockPolicy.DEFAULT_FAULT_USAGE),
            values.getInt(ClockFlags.EVICT_THRESHOLD, GlobalClockPolicy.DEFAULT_EVICT_THRESHOLD),
            values.getInt(HistoryFlags.BITS, defaultBits(frames.frameCount())),
            values.getInt(HistoryFlags.CAPACITY, PolicySizes.defaultHistoryCapacity(frames.frameCount())),
            values.getInt(HistoryFlags.BOOST_USAGE, Math.min(GlobalClockPolicy.DEFAULT_MAX_USAGE, maxUsage)));
    }

    /** 8 bits per frame, rounded up to a power of two, in [64, 2^30]. */
    static int defaultBits(int frames) {
        return PolicySizes.defaultHistoryBits(frames);
    }

    /**
     * Entries the queue holds at most: twice the capacity, at least 1024. More than the capacity,
     * so that trimming to the capacity always makes room for the next entry; at most 2^29 for a
     * capacity within {@link PolicySizes#MAX_HISTORY_CAPACITY}.
     */
    static int queueBound(int capacity) {
        return (int) Math.max(1024, 2L * capacity);
    }

    /** A capacity in [1, 2^28] and a boost usage in [0, maxUsage]; a parsed config never fails here. */
    static void checkCapacityAndBoost(int capacity, int boostUsage, int maxUsage) {
        if (capacity < 1 || capacity > PolicySizes.MAX_HISTORY_CAPACITY) {
            throw new IllegalArgumentException(HistoryFlags.CAPACITY + "=" + capacity + " must be in [1, "
                + PolicySizes.MAX_HISTORY_CAPACITY + "]");
        }
        if (boostUsage < 0 || boostUsage > maxUsage) {
            throw new IllegalArgumentException(HistoryFlags.BOOST_USAGE + "=" + boostUsage + " must be in [0, "
                + ClockFlags.MAX_USAGE + "=" + maxUsage + "]");
        }
    }

    /** A page whose bit is set starts at the boost usage, and uses the bit up. */
    @Override
    int faultUsage(long pageKey) {
        return bits.clear(bits.bitOf(PageKey.hash(pageKey))) ? boostUsage : super.faultUsage(pageKey);
    }

    @Override
    void evicted(long pageKey) {
        int bit = bits.bitOf(PageKey.hash(pageKey));
        bits.set(bit);
        while (!order.offer(bit)) {
            // Housekeeping has fallen far behind: make room here rather than lose the entry (its bit
            // would then never be cleared).
            trim();
            Thread.onSpinWait();
        }
    }

    /** Trims the history to its capacity, clearing the bits of the oldest entries. */
    @Override
    public void housekeeping() {
        trim();
    }

    private void trim() {
        if (!trimming.compareAndSet(false, true)) {
            return;
        }
        try {
            while (order.size() > capacity) {
                int bit = order.poll();
                if (bit < 0) {
                    break; // the next entry is still being published
                }
                bits.clear(bit);
            }
        } finally {
            trimming.set(false);
        }
    }

    /** Entries the history holds now (trimming brings it to the capacity). */
    public int historySize() {
        return order.size();
    }

    /** Whether {@code pageKey}'s bit is set: it, or a page sharing its bit, was evicted lately. */
    public boolean remembers(long pageKey) {
        return bits.get(bits.bitOf(PageKey.hash(pageKey)));
    }

    /**
     * The clock's invariants, and: no more bits set than entries queued (every set bit has an entry
     * that set it), and the queue within its bound.
     */
    @Override
    public void checkInvariants() {
        super.checkInvariants();
        int queued = order.size();
        int set = bits.cardinality();
        if (set > queued) {
            throw new IllegalStateException(NAME + ": " + set + " history bits set but only " + queued + " entries queued");
        }
        if (queued > order.capacity()) {
            throw new IllegalStateException(NAME + ": " + queued + " entries queued, bound " + order.capacity());
        }
    }
}
