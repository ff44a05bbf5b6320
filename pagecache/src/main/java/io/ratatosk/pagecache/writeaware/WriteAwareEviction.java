package io.ratatosk.pagecache.writeaware;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.UsageModel;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Write-aware eviction in the manner of ARI (Fedorov 2016, chapter 2; docs/references.md), around any {@link EvictionPolicy}: when
 * the policy offers a dirty frame, it may be passed over for the policy's next candidate, so that a
 * clean low-usage page goes first and fewer pages are written (to NVM, with
 * {@code pagecache.swap=nvm}): a dirty page that stays longer absorbs more writes before it leaves.
 * ARI's observation is that pages in the low-usage end are about equally likely to be used again,
 * so evicting a clean one instead costs no misses but saves a write.
 *
 * <p>A dirty frame may be passed over at most {@code budget} times between its fault and its
 * eviction, and one search passes over at most {@value #MAX_SKIPS_PER_SEARCH} frames, so every dirty
 * page still leaves in bounded time and a search stays short. The budget is not fixed: a static clean-first policy
 * can triple the misses of some workloads (Fedorov 2016, section 2.2). The {@link AriSampler} runs every
 * budget of {@link #BUDGETS} on a sample of the pages and puts the one with the fewest misses +
 * writes in force, among those whose misses stay within 1/16 of the plain policy's (budget 0).
 * Nothing else of the wrapped policy changes: hits, faults and the order in which it offers
 * candidates are its own.
 *
 * <p>Not from ARI: dynamic insertion (placing low-locality pages low in the stack) has no
 * counterpart here, because the wrapped policy owns insertion.
 */
public final class WriteAwareEviction implements EvictionPolicy {
    /**
     * The variants compared: how often one dirty frame may be passed over. 0 is the plain policy; 64,
     * as many as one search may pass over, stands for ARI's other extreme (clean first wherever the
     * policy offers a clean candidate).
     */
    static final int[] BUDGETS = {0, 1, 2, 4, 8, 16, 32, 64};
    /** The variants compared, each in shadow caches of its own. */
    public static final int VARIANTS = BUDGETS.length;
    /** At most this many dirty candidates are passed over in one search for a victim. */
    public static final int MAX_SKIPS_PER_SEARCH = 64;

    private final EvictionPolicy policy;
    private final FrameTable frames;
    /** Times each frame's page has been passed over since its fault; a racy hint, written by evicting threads. */
    private final byte[] skips;
    private final AriSampler sampler;
    private final LongAdder dirtySkips = new LongAdder();

    /** Write-aware eviction without NVM behind the frames: the shadows count dirty evictions as the writes. */
    public WriteAwareEviction(EvictionPolicy policy, FrameTable frames, int maxUsage, int faultUsage, int evictThreshold) {
        this(policy, frames, 0, maxUsage, faultUsage, evictThreshold);
    }

    /**
     * In front of a tier of {@code tierSlots} slots, with the shadows modeling {@code policy} as the usage
     * clock {@code model} (the policy's own {@link EvictionPolicy#usageModel()}).
     */
    public WriteAwareEviction(EvictionPolicy policy, FrameTable frames, int tierSlots, UsageModel model) {
        this(policy, frames, tierSlots, Objects.requireNonNull(model, "model").maxUsage(), model.faultUsage(),
            Math.min(model.maxUsage(), model.evictThreshold()));
    }

    /**
     * @param policy         the configured policy, which keeps deciding everything but whether to pass over
     * @param nvmSlots       the NVM tier's slots, which the shadows model to count NVM writes; 0 without NVM, never negative
     * @param maxUsage       max usage of the usage-count clock the shadows model the policy with, in [1, 127]
     * @param faultUsage     its fault usage, in [0, maxUsage]
     * @param evictThreshold its evict threshold, in [0, maxUsage]
     * @throws IllegalArgumentException naming the setting out of its range
     * @throws NullPointerException     naming a null policy or frame table
     */
    public WriteAwareEviction(EvictionPolicy policy, FrameTable frames, int nvmSlots, int maxUsage, int faultUsage,
                              int evictThreshold) {
        // Named here: a null policy was taken, and failed later, bare, inside an eviction (a cursor's fault, the evictor).
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(frames, "frames");
        if (nvmSlots < 0) {
            // The sampler rounds a tier's slots to at least one per shadow, so a negative count modeled a tier of one.
            throw new IllegalArgumentException("the NVM tier's slots must be 0 (no tier) or more: nvmSlots=" + nvmSlots);
        }
        this.policy = policy;
        this.frames = frames;
        this.skips = new byte[frames.frameCount()];
        this.sampler = new AriSampler(frames, nvmSlots, BUDGETS, maxUsage, faultUsage, evictThreshold);
    }

    /**
     * Pages each shadow clock models for a cache of {@code frameCount} frames (one page in the sample rate);
     * for the benchmark that sizes an {@link IdIndex} as the shadows do.
     */
    public static int shadowFrames(int frameCount) {
        return AriSampler.shadowFrames(frameCount);
    }

    /** The sample rate for a cache of {@code frameCount} frames: the shadows see 1 page in this many. */
    public static int sampleRate(int frameCount) {
        return AriSampler.rateFor(frameCount);
    }

    @Override
    public String name() {
        return policy.name() + "+write-aware";
    }

    @Override
    public void onHit(int frame) {
        policy.onHit(frame);
        sampler.onHit(frame);
    }

    @Override
    public void onFault(int frame, long pageKey) {
        skips[frame] = 0;
        policy.onFault(frame, pageKey);
        sampler.onFault(frame, pageKey);
    }

    @Override
    public void onEvicted(int frame, long pageKey) {
        policy.onEvicted(frame, pageKey);
    }

    /**
     * The policy's next candidate, unless it is dirty and may still be passed over: then the one
     * after. Returns {@link #NO_VICTIM} when the policy does.
     */
    @Override
    public int nextVictim(Sweep sweep) {
        sampler.drainIfDue();
        int budget = sampler.chosenBudget();
        int passed = 0;
        while (true) {
            // Unchecked, its skip count was read at that index first (a bare ArrayIndexOutOfBoundsException), and its
            // dirty bit lies in native memory outside the frame table.
            int victim = EvictionPolicy.checkedVictim(policy.nextVictim(sweep), "eviction policy ", policy, skips.length);
            if (budget == 0 || victim == NO_VICTIM || passed >= MAX_SKIPS_PER_SEARCH
                || skips[victim] >= budget || !frames.isModified(victim)) {
                return victim;
            }
            skips[victim]++;
            passed++;
            dirtySkips.increment();
        }
    }

    @Override
    public String state() {
        return policy.state();
    }

    @Override
    public void housekeepingInBackground() {
        policy.housekeepingInBackground();
    }

    @Override
    public void housekeeping() {
        sampler.tryDrain();
        policy.housekeeping();
    }

    @Override
    public boolean housekeepingPending() {
        return policy.housekeepingPending();
    }

    @Override
    public void checkInvariants() {
        policy.checkInvariants();
        sampler.checkInvariants();
    }

    /** Dirty candidates passed over so far. */
    public long dirtySkips() {
        return dirtySkips.sum();
    }

    /** How many times one dirty frame may be passed over now: the budget of the variant in force. */
    public int budget() {
        return sampler.chosenBudget();
    }

    /** Epochs the sampler has closed. */
    public long epochs() {
        return sampler.epochs();
    }

    /** The sampler's state: rate, epochs and each variant's smoothed misses and write-backs. */
    public String describe() {
        return sampler.describe();
    }

    /** Puts the variant with skip budget {@code budget} (one of {@link #BUDGETS}) in force until the next epoch; for tests. */
    void forceBudget(int budget) {
        for (int v = 0; v < BUDGETS.length; v++) {
            if (BUDGETS[v] == budget) {
                sampler.choose(v);
                return;
            }
        }
        throw new IllegalArgumentException("budget must be one of " + Arrays.toString(BUDGETS) + ": budget=" + budget);
    }

    /** The wrapped policy. */
    public EvictionPolicy policy() {
        return policy;
    }
}
