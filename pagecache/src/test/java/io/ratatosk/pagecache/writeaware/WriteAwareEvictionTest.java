package io.ratatosk.pagecache.writeaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.pagecache.InertPolicy;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Write-aware eviction on single-threaded simulations of the frames: it must cut write-backs where
 * passing over dirty pages pays, and never cost more than 1/16 in misses where it does not.
 */
class WriteAwareEvictionTest {
    private static final int FRAMES = 256;
    private static final int PAGES = FRAMES * 10;
    private static final int REFERENCES = 300_000;

    /** Which page a reference touches and whether it writes. */
    private interface Workload {
        void next(SplittableRandom random, int i, long[] pageAndWrite);
    }

    /** Reads spread over the whole file, 30% writes on a tenth of it (updates to a hot table, say). */
    private static final Workload WRITES_ON_A_HOT_TENTH = (random, i, out) -> {
        boolean write = random.nextInt(10) < 3;
        out[0] = write ? random.nextInt(PAGES / 10) : random.nextInt(PAGES);
        out[1] = write ? 1 : 0;
    };

    /** A clean working set just under the frame count, read over and over, and a stream of pages written once. */
    private static final Workload CLEAN_WORKING_SET_AND_A_DIRTY_STREAM = (random, i, out) -> {
        boolean write = random.nextInt(10) < 3;
        out[0] = write ? PAGES + i : random.nextInt(FRAMES * 7 / 8);
        out[1] = write ? 1 : 0;
    };

    /** Uniform over the file, 30% writes: nothing to gain, and nothing may be lost. */
    private static final Workload UNIFORM = (random, i, out) -> {
        out[0] = random.nextInt(PAGES);
        out[1] = random.nextInt(10) < 3 ? 1 : 0;
    };

    static Iterable<String> policies() {
        return PolicyRegistry.NAMES;
    }

    /**
     * The policies whose victim order ARI's shadow caches model: usage-count clocks. For CLOCK-Pro(+)
     * and DeferredLRU the wrapper still never costs more than a sixteenth in misses (the other tests),
     * but the budget the shadows choose cuts their write-backs far less (2%, 23% and 2% measured).
     */
    static List<String> usageClockPolicies() {
        return PolicyRegistry.NAMES.stream()
            .filter(name -> !name.startsWith("clock-pro") && !name.equals("deferred-lru"))
            .toList();
    }

    /**
     * The policies {@link #usageClockPolicies} leaves out. On the read/write mix their misses and write-backs are bounded
     * here; the usage clocks' are held to more (a quarter fewer write-backs, misses within the same sixteenth) by
     * {@link #cutsWriteBacksByAQuarterOrMoreOnAReadWriteMixWithoutCostingMisses} over the very same runs.
     */
    static List<String> otherPolicies() {
        return PolicyRegistry.NAMES.stream().filter(name -> !usageClockPolicies().contains(name)).toList();
    }

    private static FrameCacheSimulation run(String policy, boolean writeAware, Workload workload) {
        FrameCacheSimulation sim = new FrameCacheSimulation(FRAMES, policy, writeAware);
        SplittableRandom random = new SplittableRandom(11);
        long[] ref = new long[2];
        for (int i = 0; i < REFERENCES; i++) {
            workload.next(random, i, ref);
            sim.reference(ref[0], ref[1] == 1);
        }
        sim.close();
        return sim;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usageClockPolicies")
    void cutsWriteBacksByAQuarterOrMoreOnAReadWriteMixWithoutCostingMisses(String policy) {
        FrameCacheSimulation plain = run(policy, false, WRITES_ON_A_HOT_TENTH);
        FrameCacheSimulation aware = run(policy, true, WRITES_ON_A_HOT_TENTH);
        WriteAwareEviction wrapper = (WriteAwareEviction) aware.policy();
        String report = policy + ": plain misses " + plain.misses() + " write-backs " + plain.writes()
            + "; write-aware misses " + aware.misses() + " write-backs " + aware.writes() + "; " + wrapper.describe();
        assertTrue(aware.writes() <= plain.writes() * 3 / 4, report);
        assertTrue(aware.misses() <= plain.misses() * 17 / 16, report);
        assertTrue(wrapper.budget() > 0 && wrapper.dirtySkips() > 0, report);
        assertTrue(wrapper.epochs() >= REFERENCES / AriSampler.EPOCH_REFERENCES - 1, report);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherPolicies")
    void neverCostsMoreThanASixteenthInMissesOnTheReadWriteMix(String policy) {
        FrameCacheSimulation plain = run(policy, false, WRITES_ON_A_HOT_TENTH);
        FrameCacheSimulation aware = run(policy, true, WRITES_ON_A_HOT_TENTH);
        String report = policy + ": plain misses " + plain.misses() + " write-backs " + plain.writes()
            + "; write-aware misses " + aware.misses() + " write-backs " + aware.writes();
        assertTrue(aware.misses() <= plain.misses() * 17 / 16, report);
        assertTrue(aware.writes() <= plain.writes(), report);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void staysWithinASixteenthOfThePlainMissesWherePassingOverDirtyPagesHurts(String policy) {
        FrameCacheSimulation plain = run(policy, false, CLEAN_WORKING_SET_AND_A_DIRTY_STREAM);
        FrameCacheSimulation aware = run(policy, true, CLEAN_WORKING_SET_AND_A_DIRTY_STREAM);
        String report = policy + ": plain misses " + plain.misses() + ", write-aware misses " + aware.misses()
            + "; " + ((WriteAwareEviction) aware.policy()).describe();
        assertTrue(aware.misses() <= plain.misses() * 17 / 16, report);
    }

    @Test
    void aStaticCleanFirstPolicyWouldRaiseMissesOnThatWorkloadWhichIsWhyTheBudgetAdapts() {
        ShadowClock plain = new ShadowClock(FRAMES, 0, 0, 4, 1, 1);
        ShadowClock cleanFirst = new ShadowClock(FRAMES, 0, 32, 4, 1, 1);
        SplittableRandom random = new SplittableRandom(11);
        long[] ref = new long[2];
        for (int i = 0; i < REFERENCES; i++) {
            CLEAN_WORKING_SET_AND_A_DIRTY_STREAM.next(random, i, ref);
            int id = (int) ref[0] + 1;
            plain.reference(id, ref[1] == 1);
            cleanFirst.reference(id, ref[1] == 1);
        }
        assertTrue(cleanFirst.misses() > plain.misses() * 3 / 2,
            "static budget 32: " + cleanFirst.misses() + " misses, plain: " + plain.misses());
        FrameCacheSimulation aware = run("muninn", true, CLEAN_WORKING_SET_AND_A_DIRTY_STREAM);
        assertEquals(0, ((WriteAwareEviction) aware.policy()).budget(), "the sampler must refuse every budget here");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void neverCostsMoreThanASixteenthInMissesOnAUniformMix(String policy) {
        FrameCacheSimulation plain = run(policy, false, UNIFORM);
        FrameCacheSimulation aware = run(policy, true, UNIFORM);
        assertTrue(aware.misses() <= plain.misses() * 17 / 16, "plain " + plain.misses() + ", write-aware " + aware.misses());
        assertTrue(aware.writes() <= plain.writes(), "plain " + plain.writes() + ", write-aware " + aware.writes());
    }

    @Test
    void aDirtyFrameIsPassedOverAtMostTheBudgetTimesAndACleanOneNever() {
        try (FrameTable frames = new FrameTable(4)) {
            for (int f = 0; f < 4; f++) {
                frames.setBinding(f, PageKey.of(0, f));
            }
            RoundRobin offers = new RoundRobin(frames);
            WriteAwareEviction aware = new WriteAwareEviction(offers, frames, 4, 1, 1);
            for (int f = 0; f < 4; f++) {
                aware.onFault(f, PageKey.of(0, f));
            }
            markModified(frames, 1);
            markModified(frames, 2);
            aware.forceBudget(2);
            Sweep sweep = Sweep.cooperative(1);
            // Offers 0 (clean): taken.
            assertEquals(0, aware.nextVictim(sweep));
            // Offers 1 (dirty, passed 0 times): passed over; 2 (dirty): passed over; 3 (clean): taken.
            assertEquals(3, aware.nextVictim(sweep));
            assertEquals(2, aware.dirtySkips());
            // 0 clean taken; then 1 and 2 are passed over a second time, then 3.
            assertEquals(0, aware.nextVictim(sweep));
            assertEquals(3, aware.nextVictim(sweep));
            // Their budget of 2 is spent: the dirty frames are taken now.
            assertEquals(0, aware.nextVictim(sweep));
            assertEquals(1, aware.nextVictim(sweep));
            assertEquals(2, aware.nextVictim(sweep));
            assertEquals(4, aware.dirtySkips());
            // A fault starts a frame's count again.
            aware.onFault(1, PageKey.of(0, 9));
            assertEquals(3, aware.nextVictim(sweep));
            assertEquals(0, aware.nextVictim(sweep));
            assertEquals(2, aware.nextVictim(sweep), "frame 1 was faulted anew and is passed over, frame 2 is not");
            assertEquals(5, aware.dirtySkips());
        }
    }

    @Test
    void withBudgetZeroTheWrappedPolicysCandidatesPassUnchanged() {
        try (FrameTable frames = new FrameTable(3)) {
            RoundRobin offers = new RoundRobin(frames);
            WriteAwareEviction aware = new WriteAwareEviction(offers, frames, 4, 1, 1);
            markModified(frames, 0);
            Sweep sweep = Sweep.cooperative(1);
            assertEquals(0, aware.budget());
            assertEquals(0, aware.nextVictim(sweep));
            assertEquals(1, aware.nextVictim(sweep));
            assertEquals(0, aware.dirtySkips());
            assertEquals("round-robin+write-aware", aware.name());
        }
    }

    /**
     * A wrapped policy naming a frame the cache does not have (a bug) is refused naming the policy and the frame, at
     * every budget: with one above 0 the wrapper read that frame's skip count first, an ArrayIndexOutOfBoundsException
     * that named neither (and past it, the frame's dirty bit, a read outside the frame table).
     */
    @Test
    void aVictimThatIsNoFrameOfTheCacheIsRefusedNamingThePolicyAndTheFrame() {
        try (FrameTable frames = new FrameTable(4)) {
            for (int bad : new int[] {frames.frameCount(), -2}) {
                WriteAwareEviction aware = new WriteAwareEviction(new InertPolicy("off-by-one") {
                    @Override
                    public int nextVictim(Sweep sweep) {
                        return bad;
                    }
                }, frames, 4, 1, 1);
                for (int budget : WriteAwareEviction.BUDGETS) {
                    aware.forceBudget(budget);
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> aware.nextVictim(Sweep.background()),
                        "victim " + bad + ", budget " + budget);
                    assertTrue(e.getMessage().startsWith("eviction policy off-by-one named frame " + bad + " as its victim")
                        && e.getMessage().contains("(0 to " + (frames.frameCount() - 1) + ")"), e.getMessage());
                }
            }
        }
    }

    /** A negative count of NVM slots is refused naming it: the sampler made it a tier of one slot per shadow. */
    @Test
    void aNegativeNvmSlotCountIsRefusedNamingIt() {
        try (FrameTable frames = new FrameTable(4)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WriteAwareEviction(new InertPolicy("inert"), frames, -5, 4, 1, 1));
            assertEquals("the NVM tier's slots must be 0 (no tier) or more: nvmSlots=-5", e.getMessage());
            assertEquals(0, new WriteAwareEviction(new InertPolicy("inert"), frames, 0, 4, 1, 1).budget());
        }
    }

    @Test
    void theBestVariantHasTheFewestMissesPlusWriteBacksAmongThoseWithinASixteenthOfThePlainMisses() {
        // Variant 1 is cheapest overall but misses 1/8 more than variant 0: refused.
        assertEquals(2, AriSampler.best(new double[] {1600, 1800, 1690, 1650}, new double[] {800, 100, 400, 600}));
        // Exactly 1/16 more misses is still allowed.
        assertEquals(1, AriSampler.best(new double[] {1600, 1700}, new double[] {800, 600}));
        // A tie keeps the smaller budget; nothing better keeps the plain policy.
        assertEquals(0, AriSampler.best(new double[] {100, 100}, new double[] {50, 50}));
        assertEquals(0, AriSampler.best(new double[] {0, 0, 0}, new double[] {0, 0, 0}));
    }

    @Test
    void theSampleRateLeavesEachShadowAtLeast256FramesAndSamplesEveryPageOfASmallCache() {
        assertEquals(1, AriSampler.rateFor(48));
        assertEquals(1, AriSampler.rateFor(511));
        assertEquals(2, AriSampler.rateFor(512));
        assertEquals(4, AriSampler.rateFor(1024));
        assertEquals(64, AriSampler.rateFor(1 << 20));
    }

    @Test
    void aShadowClockCountsMissesAndTheWriteBacksOfItsVariant() {
        // Two frames, usage clock (max 4, fault usage 1, threshold 1).
        ShadowClock plain = new ShadowClock(2, 0, 0, 4, 1, 1);
        ShadowClock aware = new ShadowClock(2, 0, 1, 4, 1, 1);
        for (ShadowClock shadow : new ShadowClock[] {plain, aware}) {
            shadow.reference(1, true);   // miss, page 1 dirty in slot 0
            shadow.reference(2, false);  // miss, page 2 clean in slot 1
            shadow.reference(3, false);  // miss: evicts
            shadow.checkInvariants();
        }
        assertEquals(3, plain.misses());
        assertEquals(1, plain.writes(), "the plain clock takes dirty page 1 at the hand");
        assertEquals(3, aware.misses());
        assertEquals(0, aware.writes(), "budget 1 passes over page 1 and takes clean page 2");
        aware.reference(1, false);
        assertEquals(3, aware.misses(), "page 1 stayed");
        aware.resetCounts();
        assertEquals(0, aware.misses());
    }

    @Test
    void withNvmBehindTheFramesACleanEvictionWritesUnlessNvmHoldsTheCopy() {
        // Two frames, eight NVM slots.
        ShadowClock plain = new ShadowClock(2, 8, 0, 4, 1, 1);
        plain.reference(1, false);
        plain.reference(2, false);
        plain.reference(3, false); // evicts clean page 1, which NVM does not hold: stored, a write
        assertEquals(1, plain.writes());
        plain.reference(1, false); // swapped in from NVM; evicts clean page 2: stored, a write
        assertEquals(2, plain.writes());
        plain.reference(4, false); // evicts 3 (a write), keeps 1
        plain.reference(5, false); // evicts 1, whose copy NVM still holds: free
        assertEquals(3, plain.writes());
        plain.checkInvariants();

    }

    @Test
    void withNvmAVariantThatKeepsADirtyPageIsChargedForTheCleanPageItEvictsInstead() {
        // References: write 1, read 2, read 3, write 1, read 4; two frames, eight NVM slots.
        ShadowClock plain = new ShadowClock(2, 8, 0, 4, 1, 1);
        ShadowClock aware = new ShadowClock(2, 8, 1, 4, 1, 1);
        for (ShadowClock shadow : new ShadowClock[] {plain, aware}) {
            shadow.reference(1, true);
            shadow.reference(2, false);
            shadow.reference(3, false);
        }
        assertEquals(1, plain.writes(), "plain evicts dirty page 1 into NVM");
        assertEquals(1, aware.writes(), "budget 1 keeps page 1 and is charged for storing clean page 2, which NVM lacks");
        for (ShadowClock shadow : new ShadowClock[] {plain, aware}) {
            shadow.reference(1, true);
            shadow.reference(4, false);
            shadow.checkInvariants();
        }
        assertEquals(5, plain.misses());
        assertEquals(3, plain.writes(), "page 1 came back from NVM, and clean pages 2 and 3 were stored");
        assertEquals(4, aware.misses(), "the second write to page 1 hit its frame");
        assertEquals(2, aware.writes(), "page 1 left once, with both writes in it");
    }

    private static void markModified(FrameTable frames, int frame) {
        assertTrue(frames.tryWriteLock(frame));
        frames.unlockWrite(frame);
    }

    /** Offers every frame in turn, evictable or not: a policy whose order the test knows. */
    private static final class RoundRobin extends InertPolicy {
        private final FrameTable frames;
        private int next;

        RoundRobin(FrameTable frames) {
            super("round-robin");
            this.frames = frames;
        }

        @Override
        public int nextVictim(Sweep sweep) {
            int frame = next;
            next = (next + 1) % frames.frameCount();
            return frame;
        }
    }
}
