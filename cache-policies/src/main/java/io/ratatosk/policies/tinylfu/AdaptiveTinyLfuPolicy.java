package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import io.ratatosk.policies.SampleRing;
import io.ratatosk.policies.SimulationPlace;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * W-TinyLFU whose window share follows the workload, chosen by miniature simulations: beside the real
 * frames it runs five small key-only W-TinyLFU caches ({@link ShadowTinyLfuSet}) with windows of 1%, 5%,
 * 15%, 40% and 100% (an exact LRU) of their capacity, fed the same requests, and after every period
 * gives the real cache the window of the one that hit most lately (hits decay by 5% a period) if it
 * missed 3% less than the current choice. A small window lets the frequency filter
 * keep loops, scans and one-hit wonders out (LIRS's and CLOCK-Pro's ground); a large one is LRU, which
 * wins on recency (zigzag, back-and-forth); the middle serves web-like mixes. Where a hill climber
 * probes by moving the real window and reading a noisy hit ratio, the simulations compare the
 * candidates side by side on the same requests, so the choice is quick on short traces and does not
 * drift on stable ones.
 *
 * <p>Above {@code shadow_entries} (2048) frames, the simulations hold that many keys and see only the requests
 * whose key hash falls in the same share of the hash space (spatial sampling, as in Waldspurger et
 * al., "Cache Modeling and Optimization using Miniature Simulations", USENIX ATC 2017); below it they
 * are full size and see everything. Source of the policy: G. Einziger, O. Eytan, R. Friedman,
 * B. Manes, "Adaptive Software Cache Management", Middleware 2018, which adapts Caffeine's window by
 * hill climbing and also evaluates such mini-simulations.
 *
 * <p>Concurrency. A sampled hit appends its key to a {@link SampleRing} (plain, racy writes; two
 * threads may write one slot: one sample lost); a hit that finds the ring full drops its sample. The
 * ring is replayed into the simulations under the lock, off the hit path: by housekeeping (the
 * background evictor's, or the evicting thread's at the start of an eviction) and by each fault before
 * its own request. Where the page cache's background evictor runs housekeeping
 * ({@link #housekeepingInBackground}), a fault offers its sampled key to the ring too and only the evictor
 * replays it, under a lock of the simulations' own, so that no fault waits for them (as best-of's
 * miniatures). In one thread every sample is replayed in order, so the policy is deterministic and
 * the page cache counts exactly the simulator's hits.
 *
 * <p>As best-of's expert ({@link #following}) it runs no simulations of its own: it takes the window its
 * miniature in best-of chose, which the miniatures' simulations keep up whichever expert the frames follow.
 * Best-of's miniature of this policy runs the same five simulations of the same cache (at the miniature's
 * scale, sampling a quarter of the miniature's keys, at least 256), so the evictor ran two sets of five for
 * one choice; and an expert built at a switch now starts with a window chosen on the whole history instead
 * of the default.
 */
public final class AdaptiveTinyLfuPolicy extends TinyLfuRegions {
    public static final String NAME = "w-tinylfu-adaptive";
    /** The simulations' window shares, smallest first. */
    static final double[] WINDOW_SHARES = {0.01, 0.05, 0.15, 0.4, 1.0};
    /**
     * Each period's score keeps this much of the score before: a memory of about twenty periods, so
     * that a trace whose hits come in bursts (zigzag: only at its turns) does not flip the choice
     * between the bursts.
     */
    static final double DECAY = 0.95;
    /**
     * A simulation must save this share of the chosen one's misses before the real window moves: each
     * move costs misses while the regions resize.
     */
    static final double MARGIN = 0.03;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "W-TinyLFU whose admission window follows the workload: miniature simulations of five window shares (1% to 100%, i.e. LRU) pick the best.",
        List.of(ReadFlag.of(TinyLfuFlags.WINDOW), ReadFlag.of(TinyLfuFlags.PROTECTED), ReadFlag.of(TinyLfuFlags.SKETCH_PERIOD),
            ReadFlag.of(TinyLfuFlags.SHADOW_ENTRIES), ReadFlag.of(TinyLfuFlags.ADAPT_PERIOD)),
        AdaptiveTinyLfuPolicy::create, (frames, settings) -> create(frames, settings, true));

    /** The miniature simulations, one per window share of {@link #WINDOW_SHARES}; null where {@link #windowSource} chooses. */
    private final ShadowTinyLfuSet shadows;
    /** The policy whose chosen window this one takes ({@link #following}), or null: it chooses its own. */
    private final AdaptiveTinyLfuPolicy windowSource;
    /** Requests whose hash's low 32 bits are below this are sampled; 2^32 samples all. */
    private final long sampleBelow;
    private final long period;
    /**
     * The sampled keys waiting for the simulations; null where {@link #windowSource} chooses, which samples nothing: the
     * ring's {@link SampleRing#SLOTS} keys (32 KiB) were made at each of best-of's switches to this expert and never written.
     */
    private final SampleRing ring;
    /** The ring's sink, made once: a drain allocates nothing. */
    private final LongConsumer replay = key -> simulate(key, PageKey.hash(key));
    /** Where the simulations run: in each fault, or in the background evictor's housekeeping. */
    private final SimulationPlace simulations = new SimulationPlace(NAME, lock);
    // Guarded by the lock that guards the simulations (see SimulationPlace).
    private long sampledRequests;
    private final double[] scores;
    private double requestScore;
    /** The simulation chosen last, or -1; written where the simulations run, read by every fault. */
    private volatile int chosen;

    AdaptiveTinyLfuPolicy(FrameTable frames, TinyLfuSizing sizing, int shadowEntries, double adaptPeriod) {
        this(frames, sizing, shadowEntries, adaptPeriod, null, false, null);
    }

    private AdaptiveTinyLfuPolicy(FrameTable frames, TinyLfuSizing sizing, int shadowEntries, double adaptPeriod,
            AdaptiveTinyLfuPolicy windowSource, boolean guardedByOwner, FrequencySketch sketch) {
        super(NAME, frames, sizing, guardedByOwner, sketch);
        this.windowSource = windowSource;
        this.ring = windowSource == null ? new SampleRing() : null;
        int capacity = Math.min(frameCount, shadowEntries);
        this.sampleBelow = capacity == frameCount ? 1L << 32 : (long) Math.ceil((double) capacity / frameCount * (1L << 32));
        int[] windows = new int[WINDOW_SHARES.length];
        for (int i = 0; i < windows.length; i++) {
            windows[i] = (int) Math.max(1, Math.round(capacity * WINDOW_SHARES[i]));
        }
        this.shadows = windowSource != null ? null : new ShadowTinyLfuSet(capacity, windows, sizing.protectedShare(),
            Math.max(1, (long) ((double) sizing.sketchPeriod() / frameCount * capacity)));
        this.period = Math.max(1, (long) (adaptPeriod * capacity));
        this.scores = new double[windows.length];
        this.chosen = -1;
    }

    /**
     * A new sketch, sized as this policy's own over {@code frameCount} frames with {@code settings}: for a {@code sketch}
     * to hand to {@link #following} that best-of counted in before any expert of this policy was built.
     */
    public static FrequencySketch newSketch(int frameCount, FlagValues settings) {
        return new FrequencySketch(frameCount, TinyLfuSizing.read(frameCount, settings).sketchPeriod());
    }

    /** With the {@code pagecache.tinylfu.*} flags, at their defaults where unset. */
    public static AdaptiveTinyLfuPolicy create(FrameTable frames, FlagValues settings) {
        return create(frames, settings, false);
    }

    private static AdaptiveTinyLfuPolicy create(FrameTable frames, FlagValues settings, boolean guardedByOwner) {
        return new AdaptiveTinyLfuPolicy(frames, TinyLfuSizing.read(frames.frameCount(), settings),
            settings.getInt(TinyLfuFlags.SHADOW_ENTRIES), settings.getDouble(TinyLfuFlags.ADAPT_PERIOD), null, guardedByOwner, null);
    }

    /**
     * With the {@code pagecache.tinylfu.*} flags, but its window taken from {@code windowSource}'s latest choice (the
     * default window before the first) instead of simulations of its own: for best-of, whose miniature of this
     * policy is the source. The source is read without a lock ({@link #chosen} is volatile). Built as the
     * {@link PolicyEntry#guardedFactory() guarded factory} builds: best-of's lock guards every call but hits and its
     * background housekeeping, which, following, has no simulations to guard.
     *
     * <p>It counts in {@code sketch} where one is given: the {@link #sketch()} of the expert best-of followed the
     * last time it followed this policy, so that the page popularity a switch away left behind is there when the
     * frames come back. A new sketch starts every page at zero; each switch to one cost about 370 hits at 5% of
     * the LDBC main job's store (docs/policies.md, "best-of").
     *
     * @param sketch an earlier expert's sketch, built for the same frame count and settings, or null for a new one
     * @throws IllegalArgumentException if {@code sketch} was sized for another frame count or sample period
     */
    public static AdaptiveTinyLfuPolicy following(FrameTable frames, FlagValues settings, AdaptiveTinyLfuPolicy windowSource,
            FrequencySketch sketch) {
        return new AdaptiveTinyLfuPolicy(frames, TinyLfuSizing.read(frames.frameCount(), settings),
            settings.getInt(TinyLfuFlags.SHADOW_ENTRIES), settings.getDouble(TinyLfuFlags.ADAPT_PERIOD),
            Objects.requireNonNull(windowSource, "windowSource"), true, sketch);
    }

    /**
     * By the hash's low half: best-of's miniatures sample by the high half, so that this policy, run as
     * one of them, samples their keys as it would any others instead of taking them all.
     */
    private boolean sampled(long hash) {
        return windowSource == null && (hash & 0xFFFF_FFFFL) < sampleBelow;
    }

    @Override
    long faultBits(long hash) {
        return sampled(hash) ? SAMPLED : 0;
    }

    /** A sampled hit's key goes into the ring; a full ring drops it (the miss path replays the ring). */
    @Override
    void afterHit(int frame) {
        long pageKey = frames.binding(frame);
        if (pageKey == PageKey.UNBOUND || ring == null) { // following: a stray sampled bit (a racing hit) samples nothing
            return;
        }
        ring.offer(pageKey);
    }

    /**
     * The background evictor's housekeeping (or the evicting thread's) replays the ring off the hit path; in
     * the background under the simulations' own lock, so that faults and evictions go on meanwhile.
     */
    @Override
    public void housekeeping() {
        if (ring != null) {
            simulations.drain(ring, replay);
        }
    }

    @Override
    public boolean housekeepingPending() {
        return ring != null && simulations.pending(ring);
    }

    /** From now on only the evictor's housekeeping runs the simulations ({@link SimulationPlace#moveToBackground}). */
    @Override
    public void housekeepingInBackground() {
        lock.lock();
        try {
            simulations.moveToBackground(sampledRequests > 0);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Called under the lock: in the background, the sampled request only joins the ring. Following another's
     * choice, nothing is sampled and the ring stays empty, so there is nothing to replay.
     */
    @Override
    int windowAfterFault(long pageKey, long hash, int window) {
        if (windowSource == null) {
            if (simulations.inBackground()) {
                if (sampled(hash)) {
                    ring.offer(pageKey);
                }
            } else {
                replayRing();
                if (sampled(hash)) {
                    simulate(pageKey, hash);
                }
            }
        }
        int share = chosenIndex();
        return share < 0 ? window : (int) Math.max(1, Math.round(frameCount * WINDOW_SHARES[share]));
    }

    private void replayRing() {
        ring.drain(replay);
    }

    private void simulate(long pageKey, long hash) {
        shadows.access(pageKey, hash);
        if (++sampledRequests % period == 0) {
            choose();
        }
    }

    /**
     * Each simulation's score is its hits this period plus {@link #DECAY} of its score before; the best
     * one's window wins if it saves {@link #MARGIN} of the chosen one's (equally decayed) misses.
     */
    private void choose() {
        int current = chosen < 0 ? 0 : chosen;
        int best = current;
        for (int i = 0; i < scores.length; i++) {
            scores[i] = scores[i] * DECAY + shadows.hits(i);
            shadows.resetHits(i);
        }
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] > scores[best]) {
                best = i;
            }
        }
        requestScore = requestScore * DECAY + period;
        chosen = scores[best] - scores[current] > MARGIN * (requestScore - scores[current]) ? best : current;
    }

    /** The window share of the simulation chosen last, or -1 before the first choice. */
    public double chosenShare() {
        int share = chosenIndex();
        return share < 0 ? -1 : WINDOW_SHARES[share];
    }

    /** The index in {@link #WINDOW_SHARES} chosen last, by this policy's simulations or its {@link #windowSource}'s; -1 before the first. */
    private int chosenIndex() {
        return windowSource != null ? windowSource.chosen : chosen;
    }

    /** Whether the evictor's housekeeping, not the faults, runs the simulations ({@link #housekeepingInBackground}). */
    public boolean simulatesInBackground() {
        return simulations.inBackground();
    }

    /** Sampled requests the simulations have seen (those a full ring dropped are not among them). */
    public long sampledRequests() {
        return simulations.read(() -> sampledRequests);
    }
}
