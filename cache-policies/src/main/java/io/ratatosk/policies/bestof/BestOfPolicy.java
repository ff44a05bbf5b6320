package io.ratatosk.policies.bestof;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.core.config.FrameShare;
import io.ratatosk.policies.DeferringLock;
import io.ratatosk.policies.MuninnPolicy;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import io.ratatosk.policies.RecentReferences;
import io.ratatosk.policies.SampleRing;
import io.ratatosk.policies.SimulationPlace;
import io.ratatosk.policies.clockpro.ClockProPolicy;
import io.ratatosk.policies.s3fifo.S3FifoFlags;
import io.ratatosk.policies.s3fifo.S3FifoPolicy;
import io.ratatosk.policies.tinylfu.AdaptiveTinyLfuPolicy;
import io.ratatosk.policies.tinylfu.FrequencySketch;
import io.ratatosk.policies.tinylfu.TinyLfuRegions;
import io.ratatosk.policies.tinylfu.TinyLfuFlags;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The best of several whole policies (its experts: clock-pro, muninn, w-tinylfu-adaptive, s3-fifo)
 * for the workload at hand, chosen by miniature simulations. No one policy wins every kind of trace:
 * CLOCK-Pro keeps loops, scans and multi-programmed mixes by reuse distance, a usage clock is LRU's
 * equal on recency (zigzag, back-and-forth), W-TinyLFU and S3-FIFO keep frequency-skewed web, ORM,
 * block and database traces. Beside the frames, each expert runs in a {@link MiniatureSet} (its own
 * class on a small frame table of its own) fed the same requests; after every period each one's score
 * becomes its hits this period plus 0.95 of its score before, and the real cache hands its frames to
 * the best expert if that one saved {@link #margin} of the current expert's misses, or, once the
 * scores cover a full window, led it by {@link #minGain} of the requests; and between two periods, to an
 * expert whose lead is {@link #significance} standard errors of a paired sign test.
 *
 * <p>It starts as CLOCK-Pro, the best single policy on the public traces, because the first choice
 * has to be made before any evidence: a loop or a scan needs the pages of the first pass kept from
 * the start, a recency trace the latest ones, and nothing tells them apart until the first reuse.
 * A switch costs: the new expert is built afresh over the resident pages (each one faulted in again,
 * under the lock, in the order the old one would have evicted them: {@link EvictionOrder}, then told of one
 * hit on each page the old one saw hit since it last looked at it: {@link RecentReferences}) and has none
 * of the old one's ghosts or counts (but for W-TinyLFU's frequency sketch, which a switch back to it finds
 * as the last one left it: page popularity belongs to the workload), so on the
 * short traces where a switch came late or on a passing phase it cost more than it gained; hence the
 * wide margin, which lets only a clear and lasting gain move the frames. A share of the misses asks a
 * lead of half a point where nearly every request hits, but of five points where half of them miss (the
 * web, OLTP and recommender traces at small sizes, where S3-FIFO leads CLOCK-Pro by one to four points):
 * hence the second rule, a steady lead of {@link #minGain} of the requests (one point by default). It
 * waits for a full window of
 * evidence, as the first periods compare experts that are still filling their miniatures (P3 at a
 * tenth of its pages switched after three periods on a lead that did not last and lost two points).
 * The third rule needs neither a share nor a wait, only a lead chance cannot explain: the miniatures see the
 * same requests, so only those where one of two experts hit and the other missed tell them apart; under
 * equal experts each such request is a coin toss, and a lead of {@code z} standard errors of those tosses
 * ({@code wins - losses > z * sqrt(wins + losses)}, McNemar's test) comes by chance about once in 10^15
 * tries at the default of eight (for independent tosses: the decayed counts make it a guide, not an exact
 * test, and it is checked often). It moves the frames early where one expert wins nearly every disagreement (a
 * recency trace under CLOCK-Pro, OLTP at large sizes where the trace ends before a full window), and
 * waits where the experts trade hits both ways, however large their totals.
 *
 * <p>The miniatures hold a quarter of the frames, at least 256 and at most {@code shadow_entries}
 * (all of a cache of 256 frames or fewer), and see only the requests whose key hash falls in that share
 * of the hash space (spatial sampling, Waldspurger et al., "Cache Modeling and Optimization using
 * Miniature Simulations", USENIX ATC 2017).
 *
 * <p>Concurrency. A hit is the current expert's hit (one CAS at most) plus, for a sampled page, its
 * key offered to a {@link SampleRing} (plain racy writes: a sample may be lost; a full ring drops
 * it). This policy's hit filter is the current expert's on an unsampled page (a sampled one carries
 * {@link #SAMPLED} in its word), so that above {@code shadow_entries} frames most hits cost the page
 * cache no call at all, as they would with the expert alone; the filter changes at a switch. Until the
 * cache first evicts, the filter is the expert's on every page, sampled or not (see {@link #samplingHits}). The
 * ring is replayed into the miniatures under the lock, by housekeeping and by each fault before its
 * own request; where the page cache's background evictor runs housekeeping, faults offer their sampled
 * keys to the ring too and only the evictor replays it, under a lock of the miniatures' own, so that no
 * fault waits for a simulation (a switch then takes the policy's lock as well). Faults, evictions and victim choice run
 * under this policy's lock, which a switch holds, so they always reach the expert that knows the
 * frame; a fault or an eviction that finds the lock held does not wait for it but leaves its event in
 * {@link DeferringLock}'s ring for the holder, and every holder applies those, in order, before its own work
 * (so a victim is chosen by an expert told of every fault and eviction before it). The experts and the
 * miniatures are built by their {@link PolicyEntry#guardedFactory() guarded factories}: this lock (or the
 * simulations' own) guards every call but their hits and the followed expert's background housekeeping (none of
 * today's experts has any but w-tinylfu-adaptive, whose simulations keep a lock of their own), so they take no
 * lock of their own. Applied after a
 * switch, an event reaches the new expert as it would have (the frames it was told of are {@link #known}).
 * A hit that read the old expert just before a switch may apply the old expert's update to a
 * word the new one has just set; the experts' hits touch disjoint kinds of bits (a usage count in
 * bits 0..2, a reference bit 0, W-TinyLFU's pending count in bits 6..9), none of them a state bit
 * another expert counts (CLOCK-Pro's 3..5, W-TinyLFU's 10, s3-fifo's 11), so such a hit is at worst a
 * stray reference. In one thread the policy is deterministic and the page cache counts exactly the
 * simulator's hits.
 */
public final class BestOfPolicy implements EvictionPolicy {
    public static final String NAME = "best-of";
    /** The experts; the first is where the frames start. */
    static final List<PolicyEntry> EXPERTS = List.of(ClockProPolicy.ENTRY, MuninnPolicy.ENTRY, AdaptiveTinyLfuPolicy.ENTRY,
        S3FifoPolicy.ENTRY);
    /** Each capacity's worth of sampled requests, the scores keep this much of what they were: a memory of about twenty. */
    static final double DECAY = 0.95;
    /**
     * The policy-word bit of a frame whose page is sampled, above every expert's bits: it keeps a sampled page's
     * hits out of the hit filter, which would otherwise skip them as the expert does. Set at the fault and at a
     * switch under the lock, cleared at an unsampled page's fault and at the eviction; an expert that rewrites
     * a whole word drops it, and the next hit that reaches {@link #onHit} on a sampled frame sets it again (until
     * then that page's samples are skipped, in the page cache and the simulator alike). A hit racing an
     * eviction may leave it on a frame whose next page is not sampled: that page's hits then reach
     * {@link #onHit} for nothing, which is all it costs.
     */
    static final long SAMPLED = 1L << 62;
    /**
     * The miniatures see at most one page in this many (below {@code shadow_entries} frames too), so that
     * their four simulations of a sampled request cost about one per request. Sampling every page of a
     * 3335-frame cache cost the LDBC main job a seventh of its throughput (docs/policies.md).
     */
    static final int SAMPLED_SHARE = 4;
    /** ...but hold at least this many frames (or all of a smaller cache), below which a miniature's choice is noise. */
    static final int MIN_SAMPLED_ENTRIES = 256;
    /** Hits in the small FIFO that move a page to the main FIFO in the s3-fifo expert, unless set ({@link #withS3FifoMoveThreshold}). */
    static final int EXPERT_S3FIFO_MOVE_THRESHOLD = 1;
    /**
     * Sampled requests between two checks of {@link #significance} (a square root per expert); 1, 16 or 64 switched the
     * same cells. A check that falls on a period's end runs after {@link #choose} only where the period divides this
     * (1, 2, 4, 8 or 16 sampled requests: caches of that many frames, {@code shadow_entries=16}), where every check falls
     * on one: skipped there, the significance rule never ran.
     */
    static final int SIGNIFICANCE_CHECK = 16;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "The best of clock-pro, muninn, w-tinylfu-adaptive and s3-fifo for the workload, chosen by miniature simulations of all four.",
        readFlags(), BestOfPolicy::create);

    /**
     * Its own flags, then every flag its experts read (so {@code best-of:max_usage=7} sets its muninn's), each once, at
     * the default the experts run with: s3-fifo's {@code move_threshold} at {@link #EXPERT_S3FIFO_MOVE_THRESHOLD}, not
     * s3-fifo's own 2 (declared 2, the configuration tables said so, and the simulator dropped
     * {@code best-of:move_threshold=2} as a repeat of {@code best-of}); w-tinylfu-adaptive's {@code shadow_entries} as
     * {@link #miniatureSettings} gives it, not its own 2048 (declared 2048, the simulator dropped
     * {@code best-of:tinylfu.shadow_entries=2048}, whose miniature simulates every key it sees, as a repeat).
     */
    private static List<ReadFlag> readFlags() {
        List<ReadFlag> flags = new ArrayList<>(List.of(ReadFlag.of(BestOfFlags.SHADOW_ENTRIES), ReadFlag.of(BestOfFlags.ADAPT_PERIOD),
            ReadFlag.of(BestOfFlags.MARGIN), ReadFlag.of(BestOfFlags.MIN_GAIN), ReadFlag.of(BestOfFlags.SIGNIFICANCE)));
        for (PolicyEntry expert : EXPERTS) {
            for (ReadFlag read : expert.flags()) {
                if (flags.stream().noneMatch(known -> known.flag() == read.flag())) {
                    flags.add(asRunHere(read));
                }
            }
        }
        return flags;
    }

    /** An expert's flag at the default it has in this policy ({@link #withS3FifoMoveThreshold}, {@link #miniatureSettings}). */
    private static ReadFlag asRunHere(ReadFlag read) {
        if (read.flag() == S3FifoFlags.MOVE_THRESHOLD) {
            return new ReadFlag(read.flag(), String.valueOf(EXPERT_S3FIFO_MOVE_THRESHOLD));
        }
        if (read.flag() == TinyLfuFlags.SHADOW_ENTRIES) {
            return new ReadFlag(read.flag(), "a quarter of its miniature's frames, at least " + MIN_SAMPLED_ENTRIES);
        }
        return read;
    }

    private final FrameTable frames;
    private final int frameCount;
    /** What the experts are built from: their own flags, at their defaults where unset. */
    private final FlagValues settings;
    /** What the experts that follow the frames are built from: {@link #settings} and {@link #withS3FifoMoveThreshold}. */
    private final FlagValues expertSettings;
    private final MiniatureSet miniatures;
    /** Requests whose hash, shifted right by 32, is below this are sampled. */
    private final long sampleBelow;
    private final boolean samplesAll;
    private final long period;
    /** An expert must save this share of the current expert's (decayed) misses before the frames switch to it. */
    private final double margin;
    /** A lead of this share of the decayed requests switches too, once {@link #fullWindow} requests were sampled. */
    private final double minGain;
    /** Standard errors a paired lead must reach to switch at once; 0: never. */
    private final double significance;
    /** Sampled requests the decayed scores remember: {@code 1 / (1 - DECAY)} capacities' worth. */
    private final long fullWindow;
    /** {@link #DECAY} per capacity's worth of requests, as a factor per period. */
    private final double decay;
    private final SampleRing ring = new SampleRing();
    /** The ring's sink, made once: a drain allocates nothing. */
    private final LongConsumer replay = this::simulate;
    /** The expert the frames follow; replaced under the lock, read by every hit. */
    private volatile EvictionPolicy current;
    /**
     * The current expert's {@link EvictionPolicy#hitFilter() hit filter}, so that a hit it would ignore
     * costs no call into it. Written with {@link #current} at a switch and read racily by hits: a hit that
     * pairs the old filter with the new expert is at worst one reference lost or one passed on for nothing.
     */
    private HitFilter expertFilter;
    /** This policy's own hit filter, the one instance the page cache reads ({@link #hitFilter()}): see {@link #updateFilter()}. */
    private final HitFilter filter = HitFilter.passingEveryHit();
    /**
     * Whether every hit on a sampled page reaches {@link #onHit}: not until the cache is first asked for a
     * victim. Before that the filter is the expert's alone, so a sampled page's hits are sampled only while
     * they change the expert's word (a CLOCK-Pro page's first hit, a usage clock's first few), and a cache
     * that holds the whole store, where no policy ever evicts, pays for adaptation only at each page's first
     * hits. The miniatures lose the repeated hits of the warm-up, which no expert has acted on yet
     * (docs/policies.md measures what that costs). Set under the lock, read racily by hits.
     */
    private boolean samplingHits;
    /**
     * Faults and evictions that find it held leave their event for its next holder ({@link DeferringLock}): with many
     * threads faulting, they queued parked on the lock for most of their time.
     */
    private final DeferringLock lock = new DeferringLock(this::faulted, this::evicted);
    /**
     * Where the miniatures run: in each fault, which replays the ring and its own request under {@link #lock}; or,
     * where the page cache's background evictor runs {@link #housekeeping}, there, a fault only offering its
     * sampled key to the ring.
     */
    private final SimulationPlace simulations = new SimulationPlace(NAME, lock);

    // Guarded by lock.
    /** The frames the current expert was told about (faulted and not yet evicted), one bit each. */
    private final long[] known;
    /**
     * The bound frames whose page is sampled, one bit each: set or cleared at the fault, cleared at the
     * eviction, under the lock; read racily by hits, so that an unsampled page's hit (most of them, above
     * {@code shadow_entries} frames) skips the binding and the hash. A stale bit costs one sample at most
     * (a set bit is checked against the binding's key); in one thread there is none.
     */
    private final long[] sampledFrames;
    /**
     * A switch's scratch, kept so that it allocates none of them: the known frames in the outgoing expert's eviction order
     * ({@link EvictionOrder}, the first of them), those it named ({@link EvictionOrder}'s), those it saw hit
     * ({@link #recentlyReferenced}). Made at the first switch (a cache that never switches keeps no int per frame for it).
     */
    private int[] switchOrder;
    private long[] switchNamed;
    private long[] switchReferenced;
    private int chosen;
    private long switches;
    /**
     * The sketch the next w-tinylfu-adaptive expert counts on in: the one the expert built last counted in, or, before
     * the first, one made with this policy. Page popularity belongs to the workload, not to the expert, and a new
     * sketch made each switch to W-TinyLFU start blind. While another expert is followed, every fault counts in it
     * (the hits, which the other experts' hit filters skip, do not): a first switch to W-TinyLFU, late in a long trace,
     * then finds which pages keep coming back (docs/policies.md, "A switch to W-TinyLFU no longer counts ...").
     */
    private FrequencySketch tinyLfuSketch;
    // Guarded by the lock that guards the simulations (see SimulationPlace).
    private long sampledRequests;
    private final double[] scores;
    private double requestScore;
    /** Per expert: decayed sampled requests it hit and the current expert missed ({@link #wins}), and the converse. */
    private final double[] wins;
    private final double[] losses;

    BestOfPolicy(FrameTable frames, FlagValues settings, int shadowEntries, double adaptPeriod, double margin, double minGain,
            double significance) {
        this.frames = Objects.requireNonNull(frames, "frames");
        this.frameCount = frames.frameCount();
        this.settings = Objects.requireNonNull(settings, "settings");
        this.expertSettings = withS3FifoMoveThreshold(settings);
        int capacity = Math.min(frameCount, Math.min(shadowEntries, sampledEntries(frameCount)));
        this.samplesAll = capacity == frameCount;
        this.sampleBelow = samplesAll ? 1L << 32 : (long) Math.ceil((double) capacity / frameCount * (1L << 32));
        this.miniatures = new MiniatureSet(EXPERTS, capacity, miniatureSettings(settings, capacity, frameCount));
        this.period = Math.max(1, (long) (adaptPeriod * capacity));
        this.margin = margin;
        this.minGain = minGain;
        this.significance = significance;
        this.fullWindow = Math.round(capacity / (1 - DECAY));
        this.decay = Math.pow(DECAY, (double) period / capacity);
        this.scores = new double[miniatures.size()];
        this.wins = new double[miniatures.size()];
        this.losses = new double[miniatures.size()];
        this.known = new long[(frameCount + 63) >>> 6];
        this.sampledFrames = new long[(frameCount + 63) >>> 6];
        this.tinyLfuSketch = AdaptiveTinyLfuPolicy.newSketch(frameCount, expertSettings);
        follow(newExpert(0));
    }

    /**
     * Expert {@code i}, to follow the frames: w-tinylfu-adaptive takes its window from its miniature here
     * ({@link AdaptiveTinyLfuPolicy#following}), whose own simulations choose it for the same cache, instead of
     * running five more simulations beside it, and counts in the sketch of the w-tinylfu-adaptive followed before
     * (once that one is no longer followed: never the current expert's).
     */
    private EvictionPolicy newExpert(int i) {
        if (miniatures.policy(i) instanceof AdaptiveTinyLfuPolicy miniature) {
            FrequencySketch handedOn = current instanceof AdaptiveTinyLfuPolicy ? null : tinyLfuSketch;
            AdaptiveTinyLfuPolicy expert = AdaptiveTinyLfuPolicy.following(frames, expertSettings, miniature, handedOn);
            tinyLfuSketch = expert.sketch();
            return expert;
        }
        return EXPERTS.get(i).guardedFactory().create(frames, expertSettings);
    }

    /**
     * The experts' settings for their miniatures of {@code capacity} frames: w-tinylfu-adaptive's own
     * simulations, unless set, sample as this policy does (a quarter of the keys, in at least 256 entries)
     * rather than all of them, which made its miniature cost as much as the other three together
     * (five full-size simulations of W-TinyLFU inside one). Its sampling uses the other half of the hash,
     * so it samples the keys that reach it as it would any others. A frame count given for the cache is the same
     * share of the miniature's frames ({@link #atMiniatureScale}).
     */
    static FlagValues miniatureSettings(FlagValues settings, int capacity, int frameCount) {
        return atMiniatureScale(withUnlessSet(withS3FifoMoveThreshold(settings), TinyLfuFlags.SHADOW_ENTRIES,
            sampledEntries(capacity)), capacity, frameCount);
    }

    /**
     * {@code settings}, with each frame count ({@code clockpro.cold_min}, {@code cold_max}, {@code tinylfu.window},
     * {@code s3fifo.small} written as counts) given as its share of the cache's {@code frameCount} frames, so that a
     * miniature of {@code capacity} frames models the expert the frames follow, as it does for a share and for every
     * default (all shares): a miniature took the count as so many of its own frames, so best-of over 1,000 frames
     * (miniatures of 256) with {@code cold_min=300}, valid for the cache, failed its construction ("must be at most the
     * frame count, 256"), {@code cold_min=100} with {@code cold_max=0.2} failed it too (a cold_max of 51 frames below
     * a cold_min of 100), and {@code s3fifo.small=100}, the cache's {@code 0.1}, simulated a small FIFO of 39% of the
     * miniature where the expert's is 10%. A cache the size of its miniatures reads the flags as given.
     */
    private static FlagValues atMiniatureScale(FlagValues settings, int capacity, int frameCount) {
        if (capacity == frameCount) {
            return settings;
        }
        return new FlagValues() {
            @Override
            public Object given(Flag flag) {
                Object value = settings.given(flag);
                return value instanceof FrameShare share && !share.isFraction()
                    ? FrameShare.ofFraction(Math.min(1.0, (double) share.count() / frameCount)) : value;
            }

            @Override
            public String text(Flag flag) {
                Object value = given(flag);
                return value instanceof FrameShare ? value.toString() : settings.text(flag);
            }
        };
    }

    /**
     * The experts' s3-fifo moves a page from the small FIFO to the main one after one hit there unless
     * {@code move_threshold} is set, not after two as s3-fifo alone (the paper's authors' code): measured as the
     * expert, one hit kept ARC's OLTP@37376 at 72.40 and @18688 at 67.55 where two gave 71.68 and 67.29 (muninn 72.46
     * and 67.31), the 59 public cells the same counts (docs/policies.md, "best-of"). Its ghost FIFO keeps its length
     * unless {@code adaptive_ghosts} is set: adapting, it gave the LDBC traces 0.2 to 0.3 points at 5% and 10% of the
     * store for 1.04 points less over the 65 eval cells, and s3-fifo alone lost up to 0.7 at small sizes of a bursty
     * web-like trace, the family where this expert is the one followed (docs/policies.md, "s3-fifo").
     */
    private static FlagValues withS3FifoMoveThreshold(FlagValues settings) {
        return withUnlessSet(settings, S3FifoFlags.MOVE_THRESHOLD, EXPERT_S3FIFO_MOVE_THRESHOLD);
    }

    /** {@code settings}, with {@code flag} given as {@code value} where it was left unset. */
    private static FlagValues withUnlessSet(FlagValues settings, Flag flagToSet, Integer value) {
        if (settings.isSet(flagToSet)) {
            return settings;
        }
        return new FlagValues() {
            @Override
            public Object given(Flag flag) {
                return flag == flagToSet ? value : settings.given(flag);
            }

            @Override
            public String text(Flag flag) {
                return flag == flagToSet ? value.toString() : settings.text(flag);
            }
        };
    }

    /** Entries that model a cache of {@code frames} by spatial sampling: a {@link #SAMPLED_SHARE} of them, at least {@link #MIN_SAMPLED_ENTRIES}. */
    static int sampledEntries(int frames) {
        return Math.max(MIN_SAMPLED_ENTRIES, frames / SAMPLED_SHARE);
    }

    /** Hands the frames to {@code expert}, with its hit filter. */
    private void follow(EvictionPolicy expert) {
        HitFilter expertsOwn = expert.hitFilter();
        if ((expertsOwn.mask() & SAMPLED) != 0 || (expertsOwn.value() & SAMPLED) != 0) {
            throw new IllegalStateException(NAME + ": expert " + expert.name() + "'s hit filter uses the sampled bit");
        }
        expertFilter = expertsOwn;
        current = expert;
        updateFilter();
    }

    /**
     * Before hits are sampled ({@link #samplingHits}), the expert's filter on every frame; then the expert's on
     * an unsampled frame only, and none where every page is sampled (the miniatures as large as the cache).
     */
    private void updateFilter() {
        if (!samplingHits) {
            filter.set(expertFilter.mask(), expertFilter.value());
        } else if (samplesAll) {
            filter.passEveryHit();
        } else {
            filter.set(expertFilter.mask() | SAMPLED, expertFilter.value());
        }
    }

    /** See {@link #updateFilter()}; changes at a switch and at the first eviction. */
    @Override
    public HitFilter hitFilter() {
        return filter;
    }

    /** With the {@code pagecache.bestof.*} flags, at their defaults where unset; the experts read their own. */
    public static BestOfPolicy create(FrameTable frames, FlagValues settings) {
        return new BestOfPolicy(frames, settings, settings.getInt(BestOfFlags.SHADOW_ENTRIES),
            settings.getDouble(BestOfFlags.ADAPT_PERIOD), settings.getDouble(BestOfFlags.MARGIN),
            settings.getDouble(BestOfFlags.MIN_GAIN), settings.getDouble(BestOfFlags.SIGNIFICANCE));
    }

    @Override
    public String name() {
        return NAME;
    }

    private boolean sampled(long pageKey) {
        return samplesAll || (PageKey.hash(pageKey) >>> 32) < sampleBelow;
    }

    // ---------------------------------------------------------------- SPI

    /**
     * Nothing where this policy's filter says so (the page cache's hit path skips the call then, and the
     * simulator, which calls every hit, must see the same); else the current expert's hit unless its own
     * filter says the hit changes nothing, and for a sampled page its key into the ring (dropped when it is
     * full).
     */
    @Override
    public void onHit(int frame) {
        long word = frames.policyWord(frame);
        if (filter.skips(word)) {
            return;
        }
        if (!expertFilter.skips(word)) {
            current.onHit(frame);
        }
        if (!samplesAll) {
            if ((sampledFrames[frame >>> 6] & (1L << frame)) == 0) {
                return;
            }
            if ((word & SAMPLED) == 0) {
                markSampled(frame, true); // an expert rewrote the word
            }
        }
        long pageKey = frames.binding(frame);
        if (pageKey == PageKey.UNBOUND || !sampled(pageKey)) {
            return;
        }
        ring.offer(pageKey);
    }

    /**
     * Sets or clears {@link #SAMPLED} in the frame's word, keeping the expert's bits; retries only on a
     * concurrent change. Cleared, it is not passed on by an expert that keeps a frame's word across pages.
     */
    private void markSampled(int frame, boolean sampled) {
        long word;
        do {
            word = frames.policyWord(frame);
        } while (((word & SAMPLED) != 0) != sampled && !frames.casPolicyWord(frame, word, word ^ SAMPLED));
    }

    /**
     * The miniatures see the request first (which may switch the expert), then the current expert the fault;
     * with the simulation in the background, the request goes to the ring for the evictor's next housekeeping.
     * Where the lock is held, the fault waits in the lock's ring for its holder instead (unless that is full).
     */
    @Override
    public void onFault(int frame, long pageKey) {
        if (simulations.inBackground() && sampled(pageKey)) {
            ring.offer(pageKey);
        }
        lock.fault(frame, pageKey);
    }

    /** {@link #onFault} under the lock, every fault and eviction told before it applied. */
    private void faulted(int frame, long pageKey) {
        boolean sampled = sampled(pageKey);
        if (!simulations.inBackground()) {
            replayRing();
            if (sampled) {
                simulate(pageKey);
            }
        }
        if (!(current instanceof AdaptiveTinyLfuPolicy)) { // that one counts every request in this sketch itself
            tinyLfuSketch.countRequest(PageKey.hash(pageKey));
        }
        current.onFault(frame, pageKey);
        known[frame >>> 6] |= 1L << frame;
        if (sampled) {
            sampledFrames[frame >>> 6] |= 1L << frame;
        } else {
            sampledFrames[frame >>> 6] &= ~(1L << frame);
        }
        markSampled(frame, sampled && !samplesAll);
    }

    /** Reaches the current expert only if it was told of the frame (a switch skips frames being evicted). */
    @Override
    public void onEvicted(int frame, long pageKey) {
        lock.evicted(frame, pageKey);
    }

    private void evicted(int frame, long pageKey) {
        long bit = 1L << frame;
        sampledFrames[frame >>> 6] &= ~bit;
        markSampled(frame, false);
        if ((known[frame >>> 6] & bit) != 0) {
            current.onEvicted(frame, pageKey);
            known[frame >>> 6] &= ~bit;
        }
    }

    @Override
    public int nextVictim(Sweep sweep) {
        lock.lock();
        try {
            if (!samplingHits) {
                samplingHits = true;
                updateFilter();
            }
            return current.nextVictim(sweep);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Replays the ring off the hit path (and, in the background, off the fault path: under the simulations' own
     * lock, so that faults and evictions go on meanwhile), then the current expert's own housekeeping.
     *
     * <p>In the background the expert's housekeeping runs outside this policy's lock too: the expert was told it
     * runs in the background ({@link #housekeepingInBackground}), so its housekeeping guards its own state as it
     * would beside concurrent faults standing alone (none of today's experts has work left there: w-tinylfu-adaptive
     * takes its window from its miniature, see {@link #newExpert}). The expert cannot be replaced meanwhile: in the
     * background only this replay switches, and the evictor is the one thread that runs it.
     */
    @Override
    public void housekeeping() {
        if (simulations.inBackground()) {
            lock.applyIfFree();
            simulations.drain(ring, replay);
            current.housekeeping();
            return;
        }
        lock.lock();
        try {
            replayRing();
            current.housekeeping();
        } finally {
            lock.unlock();
        }
    }

    /** In the background: keys left in the ring for the next chunk, or the expert's own work left. */
    @Override
    public boolean housekeepingPending() {
        return simulations.pending(ring) || current.housekeepingPending();
    }

    /**
     * From now on only the evictor's housekeeping runs the miniatures ({@link SimulationPlace#moveToBackground}), and
     * the experts' own background work: the current one is told now, every later one as it is built.
     */
    @Override
    public void housekeepingInBackground() {
        lock.lock();
        try {
            simulations.moveToBackground(sampledRequests > 0 || hasKnownFrames());
            current.housekeepingInBackground();
        } finally {
            lock.unlock();
        }
    }

    private boolean hasKnownFrames() {
        for (long word : known) {
            if (word != 0) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- choice

    private void replayRing() {
        ring.drain(replay);
    }

    private void simulate(long pageKey) {
        long hitMask = miniatures.access(pageKey);
        if (significance > 0) {
            countDisagreements(hitMask);
        }
        if (++sampledRequests % period == 0) {
            choose();
            if (significance > 0 && SIGNIFICANCE_CHECK % period == 0 && sampledRequests % SIGNIFICANCE_CHECK == 0) {
                switchOnSignificantLead(); // every check falls on a period's end: skipped there, none would ever run
            }
        } else if (significance > 0 && sampledRequests % SIGNIFICANCE_CHECK == 0) {
            switchOnSignificantLead();
        }
    }

    /** Each expert that hit where the current one missed wins, each that missed where it hit loses. */
    private void countDisagreements(long hitMask) {
        boolean currentHit = (hitMask >>> chosen & 1) != 0;
        for (int i = 0; i < wins.length; i++) {
            boolean hit = (hitMask >>> i & 1) != 0;
            if (hit != currentHit) {
                if (hit) {
                    wins[i]++;
                } else {
                    losses[i]++;
                }
            }
        }
    }

    /**
     * Switches to the expert whose paired lead over the current one is the most standard errors above
     * {@link #significance}, if any: {@code (wins - losses) / sqrt(wins + losses)}, the decayed requests where
     * exactly one of the two hit.
     */
    private void switchOnSignificantLead() {
        int best = -1;
        double bestZ = significance;
        for (int i = 0; i < wins.length; i++) {
            double lead = wins[i] - losses[i];
            if (lead > 0) {
                double z = lead / Math.sqrt(wins[i] + losses[i]);
                if (z > bestZ) {
                    bestZ = z;
                    best = i;
                }
            }
        }
        if (best >= 0) {
            switchTo(best);
        }
    }

    /**
     * Each miniature's score is its hits this period plus the decayed score before; the best one's
     * expert takes over if it saves {@link #margin} of the current one's (equally decayed) misses, or
     * after a full window if it leads by {@link #minGain} of the (equally decayed) requests.
     */
    private void choose() {
        for (int i = 0; i < scores.length; i++) {
            scores[i] = scores[i] * decay + miniatures.hits(i);
            miniatures.resetHits(i);
        }
        int best = chosen;
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] > scores[best]) {
                best = i;
            }
        }
        requestScore = requestScore * decay + period;
        for (int i = 0; i < wins.length; i++) {
            wins[i] *= decay;
            losses[i] *= decay;
        }
        double lead = scores[best] - scores[chosen];
        if (lead > margin * (requestScore - scores[chosen]) || sampledRequests >= fullWindow && lead > minGain * requestScore) {
            switchTo(best);
        }
    }

    /**
     * Builds expert {@code next} afresh over the frames the current one knows, told of them in the order the current
     * one would have evicted them ({@link EvictionOrder}; W-TinyLFU takes them over without counting them in its
     * sketch, {@link TinyLfuRegions#takeOver}: they are no requests), then of one hit on each page the current one saw hit
     * since it last looked at it ({@link RecentReferences}), and hands it the cache.
     * A known frame already unbound is being evicted (the page cache unbinds, then calls
     * {@link #onEvicted}): the new expert is not told of it, and its eviction then reaches no one.
     * Package-private for tests, which switch at a moment of their choosing.
     */
    void switchTo(int next) {
        lock.lock(); // held already unless the simulation runs in the background
        try {
            rebuild(next);
        } finally {
            lock.unlock();
        }
    }

    private void rebuild(int next) {
        EvictionPolicy expert = newExpert(next);
        if (simulations.inBackground()) {
            expert.housekeepingInBackground(); // before its first request, as the page cache would
        }
        int count = 0;
        for (long word : known) {
            count += Long.bitCount(word);
        }
        if (switchOrder == null) {
            switchOrder = new int[frameCount];
            switchNamed = new long[known.length];
            switchReferenced = new long[known.length];
        }
        long[] referenced = recentlyReferenced(); // before EvictionOrder uses the current expert's state up
        int[] order = switchOrder;
        EvictionOrder.of(current, frames, known, count, order, switchNamed);
        for (int i = 0; i < count; i++) {
            int frame = order[i];
            long bit = 1L << frame;
            long pageKey = frames.binding(frame);
            if (pageKey == PageKey.UNBOUND) {
                known[frame >>> 6] &= ~bit;
                continue;
            }
            frames.setPolicyWord(frame, 0);
            if (expert instanceof TinyLfuRegions tinyLfu) {
                tinyLfu.takeOver(frame, pageKey);
            } else {
                expert.onFault(frame, pageKey);
            }
        }
        // The hits after every fault: CLOCK-Pro ignores a hit on the page it was told of last (a correlated reference).
        for (int i = 0; i < count; i++) {
            int frame = order[i];
            long bit = 1L << frame;
            if ((known[frame >>> 6] & bit) == 0) {
                continue;
            }
            if ((referenced[frame >>> 6] & bit) != 0) {
                expert.onHit(frame);
            }
            if (!samplesAll && (sampledFrames[frame >>> 6] & bit) != 0) {
                markSampled(frame, true);
            }
        }
        follow(expert);
        chosen = next;
        Arrays.fill(wins, 0); // they were counted against the expert the frames leave
        Arrays.fill(losses, 0);
        switches++;
    }

    /**
     * The known frames whose page the current expert saw hit since it last looked at it, one bit each: the one thing
     * about a page that every expert keeps in some form, and that a new expert would otherwise not have. Without it
     * a usage clock taking over from CLOCK-Pro gives every resident page the fault's usage and evicts the hottest as
     * readily as the coldest until hits tell them apart again: on ARC's P3 at a third of its pages that cost the
     * switch two and a half points against either expert alone (docs/policies.md, "What a switch hands over").
     */
    private long[] recentlyReferenced() {
        long[] referenced = switchReferenced;
        Arrays.fill(referenced, 0);
        if (current instanceof RecentReferences expert) {
            for (int word = 0; word < known.length; word++) {
                for (long bits = known[word]; bits != 0; bits &= bits - 1) {
                    int frame = (word << 6) + Long.numberOfTrailingZeros(bits);
                    if (expert.recentlyReferenced(frame)) {
                        referenced[word] |= 1L << frame;
                    }
                }
            }
        }
        return referenced;
    }

    // ---------------------------------------------------------------- introspection, checks

    /** The sketch the next w-tinylfu-adaptive expert counts on in (for tests). */
    FrequencySketch tinyLfuSketch() {
        return tinyLfuSketch;
    }

    /** Miniature {@code i}'s policy (for tests). */
    EvictionPolicy miniature(int i) {
        return miniatures.policy(i);
    }

    /** Miniature {@code i}'s hits since it was built (for tests). */
    long miniatureHits(int i) {
        return simulations.read(() -> miniatures.totalHits(i));
    }

    /** The expert the frames follow now (for tests: a snapshot, as {@link #currentExpert}). */
    EvictionPolicy expert() {
        return current;
    }

    /** The name of the expert the frames follow now. */
    public String currentExpert() {
        lock.lock();
        try {
            return EXPERTS.get(chosen).name();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The expert followed, the switches so far, the requests the miniatures have seen and each miniature's hit ratio
     * over them: what each expert would have hit in this cache, estimated from the sampled pages. Until the cache
     * first evicts, a sampled page's repeated hits reach the miniatures only while they change the expert's word
     * ({@link #samplingHits}), so for a cache that took long to fill the ratios read low (docs/simulator.md). Racy
     * reads: taken while the simulations run, a ratio may be off by a request or two.
     */
    @Override
    public String state() {
        long requests = sampledRequests;
        StringBuilder state = new StringBuilder(String.format(Locale.ROOT, "following %s, %d switch%s, %,d sampled requests simulated",
            EXPERTS.get(chosen).name(), switches, switches == 1 ? "" : "es", requests));
        if (requests > 0) {
            for (int i = 0; i < EXPERTS.size(); i++) {
                long hits = Math.min(miniatures.totalHits(i), requests);
                state.append(i == 0 ? "; miniatures' hit ratios: " : ", ").append(EXPERTS.get(i).name())
                    .append(String.format(Locale.ROOT, " %.2f%%", 100.0 * hits / requests));
            }
        }
        return state.toString();
    }

    /** Sampled requests the miniatures have seen (those a full ring dropped are not among them). */
    public long sampledRequests() {
        return simulations.read(() -> sampledRequests);
    }

    /** How many times the frames changed expert. */
    public long switches() {
        lock.lock();
        try {
            return switches;
        } finally {
            lock.unlock();
        }
    }

    /** The current expert's own checks, and it was told about exactly the bound frames. */
    @Override
    public void checkInvariants() {
        lock.lock();
        try {
            current.checkInvariants();
            for (int frame = 0; frame < frameCount; frame++) {
                boolean bound = frames.binding(frame) != PageKey.UNBOUND;
                boolean told = (known[frame >>> 6] & (1L << frame)) != 0;
                if (bound != told) {
                    throw new IllegalStateException(NAME + ": frame " + frame + (bound ? " is bound but its expert was not told of it"
                        : " is unbound but its expert still holds it"));
                }
            }
        } finally {
            lock.unlock();
        }
    }
}
