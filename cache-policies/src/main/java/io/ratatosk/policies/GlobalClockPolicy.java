package io.ratatosk.policies;

import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;

/**
 * Muninn's usage-count clock with every arm replaced by one shared atomic arm: the background
 * evictor and every cooperatively evicting thread step the same {@code getAndIncrement} counter,
 * where {@link MuninnPolicy} starts each cooperative episode at a random frame. Max usage, fault
 * usage and the evict threshold are flags instead of Muninn's fixed 4, 1 and 1; counting to 7 raised
 * the thesis's hit rate and throughput (docs/policies.md quotes its figures). Source: Larsson and
 * Gustavsson (2024), sections 3.4.3, 4.3.3 and 5.1.2, listing A.2.
 */
public final class GlobalClockPolicy extends UsageClock implements RecentReferences {
    public static final String NAME = "global-clock";
    public static final int DEFAULT_MAX_USAGE = 7;
    public static final int DEFAULT_FAULT_USAGE = 1;
    public static final int DEFAULT_EVICT_THRESHOLD = 1;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "Muninn's clock with one shared atomic arm for every evicting thread; usage counts up to 7 by default.",
        List.of(new ReadFlag(ClockFlags.MAX_USAGE, String.valueOf(DEFAULT_MAX_USAGE)), ReadFlag.of(ClockFlags.FAULT_USAGE),
            ReadFlag.of(ClockFlags.EVICT_THRESHOLD)),
        (frames, values) -> new GlobalClockPolicy(frames, values.getInt(ClockFlags.MAX_USAGE, DEFAULT_MAX_USAGE),
            values.getInt(ClockFlags.FAULT_USAGE, DEFAULT_FAULT_USAGE),
            values.getInt(ClockFlags.EVICT_THRESHOLD, DEFAULT_EVICT_THRESHOLD)));

    /**
     * @param maxUsage       a hit raises usage up to this, in [1, 7]
     * @param faultUsage     usage of a freshly faulted page, in [0, maxUsage]
     * @param evictThreshold a frame is a candidate when its usage before the step's decrement is at
     *                       most this, in [0, maxUsage]
     * @throws IllegalArgumentException naming the flag and value of the setting out of range
     */
    public GlobalClockPolicy(FrameTable frames, int maxUsage, int faultUsage, int evictThreshold) {
        super(NAME, frames, maxUsage, faultUsage, evictThreshold);
    }
}
