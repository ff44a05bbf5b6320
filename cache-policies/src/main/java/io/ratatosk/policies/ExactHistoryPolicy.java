package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PolicyLock;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;

/**
 * {@link BitsetHistoryPolicy} without collisions, for measuring what the bitset costs: the history
 * is an exact set of page keys (a {@link PageKeyTable}) with a ring of keys in eviction order, under
 * one lock. Eviction, boost and trimming follow the bitset version step for step (remember on
 * eviction, forget on a boosted fault, trim to the capacity in housekeeping), so in the simulator
 * the two differ where pages share a bit, and where a page is evicted again while an older entry of
 * it is still in the history: trimming that older entry clears the bitset's bit, so bitset-history
 * forgets the page although its newer entry is within the capacity, where this one remembers it
 * until its latest entry is trimmed (it ignores older ones). Without shared bits it remembers every
 * page the bitset does, and those too. This is the thesis's exact history minus its
 * concurrent set; it still serialises every fault and eviction on the lock, which is why the page
 * cache should run the bitset version. Source: Larsson and Gustavsson (2024), sections 3.4.6 and 5.3, listing B.6.
 */
public final class ExactHistoryPolicy extends UsageClock {
    public static final String NAME = "bitset-history-exact";
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "bitset-history with an exact history instead of the bitset: what the bitset's collisions cost.",
        List.of(new ReadFlag(ClockFlags.MAX_USAGE, String.valueOf(GlobalClockPolicy.DEFAULT_MAX_USAGE)),
            ReadFlag.of(ClockFlags.FAULT_USAGE), ReadFlag.of(ClockFlags.EVICT_THRESHOLD), ReadFlag.of(HistoryFlags.CAPACITY),
            ReadFlag.of(HistoryFlags.BOOST_USAGE)),
        ExactHistoryPolicy::create);

    private final PolicyLock lock = new PolicyLock();
    private final int capacity;
    private final int boostUsage;
    // Guarded by lock. Entry s of the ring (s in [oldest, next)) is the key evicted s-th; the table
    // maps a remembered key to its latest entry, so an older entry of a key evicted again is ignored.
    private final long[] ring;
    private final int ringMask;
    private final PageKeyTable latestEntry;
    private long oldest;
    private long next;

    /** As {@link BitsetHistoryPolicy}, without the bit count. */
    public ExactHistoryPolicy(FrameTable frames, int maxUsage, int faultUsage, int evictThreshold,
                              int capacity, int boostUsage) {
        super(NAME, frames, maxUsage, faultUsage, evictThreshold);
        BitsetHistoryPolicy.checkCapacityAndBoost(capacity, boostUsage, maxUsage);
        this.capacity = capacity;
        this.boostUsage = boostUsage;
        int bound = ringBound(capacity);
        this.ring = new long[bound];
        this.ringMask = bound - 1;
        this.latestEntry = new PageKeyTable(bound);
    }

    /**
     * Ring entries for {@code capacity}: the bitset version's queue bound rounded up to a power of
     * two, 2^29 at {@link PolicySizes#MAX_HISTORY_CAPACITY}, where its key table has 2^30 cells.
     */
    public static int ringBound(int capacity) {
        return Integer.highestOneBit(BitsetHistoryPolicy.queueBound(capacity) - 1) << 1;
    }

    /** With the {@code pagecache.history.*} and {@code pagecache.clock.*} flags, at their defaults where unset. */
    public static ExactHistoryPolicy create(FrameTable frames, FlagValues values) {
        int maxUsage = values.getInt(ClockFlags.MAX_USAGE, GlobalClockPolicy.DEFAULT_MAX_USAGE);
        return new ExactHistoryPolicy(frames, maxUsage,
            values.getInt(ClockFlags.FAULT_USAGE, GlobalClockPolicy.DEFAULT_FAULT_USAGE),
            values.getInt(ClockFlags.EVICT_THRESHOLD, GlobalClockPolicy.DEFAULT_EVICT_THRESHOLD),
            values.getInt(HistoryFlags.CAPACITY, PolicySizes.defaultHistoryCapacity(frames.frameCount())),
            values.getInt(HistoryFlags.BOOST_USAGE, Math.min(GlobalClockPolicy.DEFAULT_MAX_USAGE, maxUsage)));
    }

    @Override
    int faultUsage(long pageKey) {
        lock.lock();
        try {
            return latestEntry.remove(pageKey) != PageKeyTable.ABSENT ? boostUsage : super.faultUsage(pageKey);
        } finally {
            lock.unlock();
        }
    }

    @Override
    void evicted(long pageKey) {
        lock.lock();
        try {
            if (next - oldest == ring.length) {
                trimTo(capacity);
            }
            ring[(int) (next & ringMask)] = pageKey;
            latestEntry.put(pageKey, next++);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void housekeeping() {
        lock.lock();
        try {
            trimTo(capacity);
        } finally {
            lock.unlock();
        }
    }

    private void trimTo(int entries) {
        while (next - oldest > entries) {
            long key = ring[(int) (oldest & ringMask)];
            if (latestEntry.get(key) == oldest) {
                latestEntry.remove(key);
            }
            oldest++;
        }
    }

    /** Whether {@code pageKey} is remembered. */
    public boolean remembers(long pageKey) {
        lock.lock();
        try {
            return latestEntry.get(pageKey) != PageKeyTable.ABSENT;
        } finally {
            lock.unlock();
        }
    }

    /** The clock's invariants, and: every remembered key points at a ring entry holding it. */
    @Override
    public void checkInvariants() {
        super.checkInvariants();
        lock.lock();
        try {
            int found = 0;
            for (long s = oldest; s < next; s++) {
                long key = ring[(int) (s & ringMask)];
                if (latestEntry.get(key) == s) {
                    found++;
                }
            }
            if (found != latestEntry.size()) {
                throw new IllegalStateException(NAME + ": " + latestEntry.size() + " keys remembered, "
                    + found + " of them at their ring entry");
            }
            if (next - oldest > ring.length) {
                throw new IllegalStateException(NAME + ": " + (next - oldest) + " ring entries, bound " + ring.length);
            }
        } finally {
            lock.unlock();
        }
    }
}
