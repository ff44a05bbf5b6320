package io.ratatosk.policies;

import static io.ratatosk.core.FrameDescriptor.USAGE_MASK;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.UsageModel;
import io.ratatosk.core.config.Flag;
import java.util.Objects;

/**
 * The usage-count clock every clock policy here is: usage counts in the usage bits of each frame's
 * policy word, raised by a hit up to a maximum, set by a fault, decremented by each arm step, and a
 * frame a candidate when its usage before the step was at most a threshold. Updates are single CASes
 * that are not retried when they lose a race, and keep the policy word's other bits. One shared
 * atomic arm serves every caller; {@link MuninnPolicy} adds arms of its own for cooperative sweeps.
 */
abstract sealed class UsageClock implements EvictionPolicy
    permits GlobalClockPolicy, ClockPolicy, MuninnPolicy, BitsetHistoryPolicy, ExactHistoryPolicy {
    final FrameTable frames;
    private final String name;
    private final int maxUsage;
    private final int faultUsage;
    private final int evictThreshold;
    private final ClockArm arm = new ClockArm();

    /**
     * @param maxUsage       a hit raises usage up to this, in [1, 7]
     * @param faultUsage     usage of a freshly faulted page, in [0, maxUsage]
     * @param evictThreshold a frame is a candidate when its usage before the step's decrement is at
     *                       most this, in [0, maxUsage]
     */
    UsageClock(String name, FrameTable frames, int maxUsage, int faultUsage, int evictThreshold) {
        if (maxUsage < 1 || maxUsage > FrameDescriptor.MAX_USAGE) {
            throw new IllegalArgumentException(
                ClockFlags.MAX_USAGE + "=" + maxUsage + " must be in [1, " + FrameDescriptor.MAX_USAGE + "]");
        }
        checkAtMostMaxUsage(ClockFlags.FAULT_USAGE, faultUsage, maxUsage);
        checkAtMostMaxUsage(ClockFlags.EVICT_THRESHOLD, evictThreshold, maxUsage);
        this.name = name;
        this.frames = Objects.requireNonNull(frames, "frames");
        this.maxUsage = maxUsage;
        this.faultUsage = faultUsage;
        this.evictThreshold = evictThreshold;
    }

    private static void checkAtMostMaxUsage(Flag flag, int value, int maxUsage) {
        if (value < 0) {
            throw new IllegalArgumentException(flag + "=" + value + " must be >= 0");
        }
        if (value > maxUsage) {
            throw new IllegalArgumentException(
                flag + "=" + value + " must be <= " + ClockFlags.MAX_USAGE + "=" + maxUsage);
        }
    }

    @Override
    public final String name() {
        return name;
    }

    /** This clock's own settings: what write-aware eviction's shadows model it with. */
    @Override
    public final UsageModel usageModel() {
        return new UsageModel(maxUsage, faultUsage, evictThreshold);
    }

    @Override
    public final void onHit(int frame) {
        long word = frames.policyWord(frame);
        if ((word & USAGE_MASK) < maxUsage) {
            frames.casPolicyWord(frame, word, word + 1);
        }
    }

    /** A word whose usage is at the maximum: {@link #onHit} leaves it as it is. */
    @Override
    public final HitFilter hitFilter() {
        return new HitFilter(USAGE_MASK, maxUsage);
    }

    @Override
    public final void onFault(int frame, long pageKey) {
        frames.setUsage(frame, faultUsage(pageKey));
    }

    @Override
    public final void onEvicted(int frame, long pageKey) {
        // The next fault sets the usage; only a policy with a history remembers the page.
        evicted(pageKey);
    }

    /**
     * A usage above the fault usage: hit more often since its fault than the arm has stepped over it. What a plain
     * clock's {@link RecentReferences} answers; a clock with a history faults some pages in above it.
     */
    public final boolean recentlyReferenced(int frame) {
        return frames.usage(frame) > faultUsage;
    }

    /** Usage a page starts with after its fault: the fault usage, unless a subclass knows better. */
    int faultUsage(long pageKey) {
        return faultUsage;
    }

    /** {@code pageKey} left the cache; a policy with a history remembers it. */
    void evicted(long pageKey) {
    }

    final int maxUsage() {
        return maxUsage;
    }

    /** Steps the shared arm at most once round the frames; every caller, of any kind, moves it. */
    @Override
    public int nextVictim(Sweep sweep) {
        int frameCount = frames.frameCount();
        for (int i = 0; i < frameCount; i++) {
            int frame = arm.next(frameCount);
            if (step(frame)) {
                return frame;
            }
        }
        return NO_VICTIM;
    }

    /**
     * One arm step over {@code frame}: decrements a positive usage (one CAS, not retried) and says
     * whether the frame is a candidate. Unbound frames hold no page: skipped, left alone.
     */
    final boolean step(int frame) {
        if (frames.binding(frame) == PageKey.UNBOUND) {
            return false;
        }
        long word = frames.policyWord(frame);
        long usage = word & USAGE_MASK;
        if (usage > 0) {
            frames.casPolicyWord(frame, word, word - 1);
        }
        return usage <= evictThreshold && frames.isEvictable(frame);
    }

    /** Every bound frame's usage lies in [0, max usage]. */
    @Override
    public void checkInvariants() {
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            long binding = frames.binding(frame);
            int usage = frames.usage(frame);
            if (binding != PageKey.UNBOUND && usage > maxUsage) {
                throw new IllegalStateException(name + ": frame " + frame + " (" + PageKey.toString(binding)
                    + ") has usage " + usage + " above max usage " + maxUsage);
            }
        }
    }
}
