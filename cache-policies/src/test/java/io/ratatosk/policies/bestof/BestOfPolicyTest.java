package io.ratatosk.policies.bestof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.MuninnPolicy;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.policies.PolicyDriver;
import io.ratatosk.policies.RecentReferences;
import io.ratatosk.policies.SimulationPlace;
import io.ratatosk.policies.clockpro.ClockProPolicy;
import io.ratatosk.policies.s3fifo.S3FifoPolicy;
import io.ratatosk.policies.tinylfu.AdaptiveTinyLfuPolicy;
import io.ratatosk.policies.tinylfu.FrequencySketch;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The frames follow the expert whose miniature hits most: CLOCK-Pro for loops, a usage clock for recency. */
class BestOfPolicyTest {
    private static final int FRAMES = 100;

    private static PolicyDriver bestOf(int frames, Map<String, String> flags) {
        return PolicyDriver.of(frames, BestOfPolicy.NAME, flags);
    }

    private static BestOfPolicy policy(PolicyDriver driver) {
        return (BestOfPolicy) driver.policy;
    }

    @Test
    void loopLargerThanTheCacheKeepsMostOfItAndNeverFollowsTheUsageClock() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            for (int r = 0; r < 40; r++) {
                for (int p = 0; p < 150; p++) {
                    driver.request(p);
                }
            }
            // CLOCK-Pro (3822 hits alone) or W-TinyLFU (3861 alone, a steady point ahead): either keeps most of it.
            assertNotEquals(MuninnPolicy.NAME, policy(driver).currentExpert(), "a usage clock hits nothing in a loop");
            assertTrue(driver.hits() > driver.requests() / 2, "the frames keep most of the loop: " + driver.hits());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void recencyTraceSwitchesToTheUsageClockAndHitsAsLruDoes() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            driver.zigzag(800, 10);
            assertEquals(MuninnPolicy.NAME, policy(driver).currentExpert());
            assertTrue(policy(driver).state().matches("following muninn, \\d+ switch(es)?, [\\d,]+ sampled requests simulated;"
                + " miniatures' hit ratios: clock-pro [\\d.]+%, muninn [\\d.]+%, w-tinylfu-adaptive [\\d.]+%, s3-fifo [\\d.]+%"),
                policy(driver).state());
            // LRU hits the 100 most recent pages at each of the 19 turns after the first pass up.
            assertTrue(driver.hits() >= 17 * 99, "after the switch each turn hits as LRU's would: " + driver.hits());
            driver.policy.checkInvariants();
        }
    }

    /** The state names each miniature's hits over the sampled requests: what each expert would have hit here. */
    @Test
    void stateReportsWhatEachMiniatureHit() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            driver.zigzag(800, 10);
            BestOfPolicy policy = policy(driver);
            String state = policy.state();
            long requests = policy.sampledRequests();
            assertTrue(requests > 0, state);
            double[] ratios = new double[BestOfPolicy.EXPERTS.size()];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = 100.0 * policy.miniatureHits(i) / requests;
                String expected = String.format(Locale.ROOT, "%s %.2f%%", BestOfPolicy.EXPERTS.get(i).name(), ratios[i]);
                assertTrue(state.contains(expected), expected + " in " + state);
            }
            // A recency trace: the usage clock's miniature hits more than CLOCK-Pro's and S3-FIFO's.
            assertTrue(ratios[1] > ratios[0] && ratios[1] > ratios[3], state);
        }
        try (FrameTable frames = new FrameTable(FRAMES)) {
            assertEquals("following clock-pro, 0 switches, 0 sampled requests simulated",
                BestOfPolicy.create(frames, FlagValues.NONE).state(), "no ratios before any request");
        }
    }

    /** Where the frames ended and what they hit, after one workload. */
    private record Outcome(String expert, long hits) {
    }

    /** {@code workload} on best-of with {@code flags}, its invariants checked after it. */
    private static Outcome run(Map<String, String> flags, Consumer<PolicyDriver> workload) {
        try (PolicyDriver driver = bestOf(FRAMES, flags)) {
            workload.accept(driver);
            driver.policy.checkInvariants();
            return new Outcome(policy(driver).currentExpert(), driver.hits());
        }
    }

    @Test
    void aSteadyLeadOfTwoPointsSwitchesWhereHalfTheRequestsMiss() {
        Outcome off = run(Map.of(BestOfFlags.MIN_GAIN.name(), "1"), BestOfPolicyTest::webLike);
        Outcome on = run(Map.of(BestOfFlags.MIN_GAIN.name(), BestOfFlags.MIN_GAIN.defaultValue()), BestOfPolicyTest::webLike);
        assertEquals(ClockProPolicy.NAME, off.expert(), "W-TinyLFU saves about 3% of CLOCK-Pro's misses, under the 10% margin");
        assertEquals(AdaptiveTinyLfuPolicy.NAME, on.expert(), "but leads it by about 2 points of the requests, more than min_gain");
        assertTrue(on.hits() > off.hits() + 600, "the switch paid: " + on.hits() + " hits against " + off.hits());
    }

    /**
     * Half the requests go up and down 800 pages, half to pages never seen again: a usage clock hits the most
     * recent pages at each turn and CLOCK-Pro, which keeps the first pass, hits next to nothing, but that lead
     * is a few percent of the requests, under the 10% margin of the misses (and here min_gain is off). The
     * recency experts (muninn, s3-fifo, whose small FIFO keeps the latest pages) win nearly every request where
     * they and CLOCK-Pro disagree, though: the sign test switches to one of them.
     */
    @Test
    void aLeadThatWinsNearlyEveryDisagreementSwitchesUnderTheMargin() {
        Consumer<PolicyDriver> zigzagBesideOneTimePages = driver -> {
            long unique = 1_000_000;
            for (int turn = 0; turn < 12; turn++) {
                for (int i = 0; i < 800; i++) {
                    driver.request(turn % 2 == 0 ? i : 799 - i);
                    driver.request(unique++);
                }
            }
        };
        Outcome off = run(Map.of(BestOfFlags.MIN_GAIN.name(), "1", BestOfFlags.SIGNIFICANCE.name(), "0"), zigzagBesideOneTimePages);
        Outcome on = run(Map.of(BestOfFlags.MIN_GAIN.name(), "1", BestOfFlags.SIGNIFICANCE.name(), BestOfFlags.SIGNIFICANCE.defaultValue()),
            zigzagBesideOneTimePages);
        assertEquals(ClockProPolicy.NAME, off.expert(), "the lead stays under the margin of the misses");
        assertTrue(List.of(MuninnPolicy.NAME, S3FifoPolicy.NAME).contains(on.expert()), "but chance does not explain it: " + on.expert());
        assertTrue(on.hits() > off.hits() + 200, "the switch paid: " + on.hits() + " hits against " + off.hits());
    }

    /**
     * The sign test runs every {@link BestOfPolicy#SIGNIFICANCE_CHECK} sampled requests but at a period's end, where
     * the period's choice runs instead: with periods that divide it (shadow_entries=16: a period of 16; caches of 8 or
     * 16 frames) every check fell on a period's end and the rule never ran, whatever significance said. A zigzag where
     * muninn wins nearly every disagreement, under a margin and a min_gain that never switch, must switch on a low
     * significance there as it does with a period of 17 or at 9 frames.
     */
    @Test
    void theSignificanceRuleRunsWhereEveryCheckFallsOnAPeriodsEnd() {
        for (String shadowEntries : new String[] {"17", "16"}) {
            try (PolicyDriver driver = bestOf(FRAMES, Map.of(BestOfFlags.SHADOW_ENTRIES.name(), shadowEntries, BestOfFlags.MARGIN.name(), "1",
                    BestOfFlags.MIN_GAIN.name(), "1", BestOfFlags.SIGNIFICANCE.name(), "2"))) {
                driver.zigzag(400, 12);
                assertEquals(MuninnPolicy.NAME, policy(driver).currentExpert(), "shadow_entries=" + shadowEntries + ": " + policy(driver).state());
                driver.policy.checkInvariants();
            }
        }
        for (int frames : new int[] {9, 8, 16}) {
            try (PolicyDriver driver = bestOf(frames, Map.of(BestOfFlags.MARGIN.name(), "1", BestOfFlags.MIN_GAIN.name(), "1",
                    BestOfFlags.SIGNIFICANCE.name(), "2"))) {
                driver.zigzag(frames * 4, 200);
                assertEquals(MuninnPolicy.NAME, policy(driver).currentExpert(), frames + " frames: " + policy(driver).state());
                driver.policy.checkInvariants();
            }
        }
    }

    /**
     * Six requests in ten to 200 pages skewed to the first ones, the rest mostly to pages never seen again
     * (a web cache's one-hit wonders): about 38% hits in 100 frames, W-TinyLFU's 1.8 points above CLOCK-Pro's.
     */
    private static void webLike(PolicyDriver driver) {
        SplittableRandom random = new SplittableRandom(7);
        long unique = 1_000_000;
        for (int i = 0; i < 60_000; i++) {
            if (random.nextDouble() < 0.6) {
                double u = random.nextDouble();
                driver.request((long) (200 * u * u));
            } else if (random.nextDouble() < 0.7) {
                driver.request(unique++);
            } else {
                driver.request(10_000 + random.nextInt(2000));
            }
        }
    }

    /**
     * Page popularity belongs to the workload, not to the expert: the frames leave W-TinyLFU for a recency phase
     * and come back to it, and the expert built then counts on in the sketch the first one left, with what it
     * learned of the skewed pages' popularity, instead of a new one that starts every page at zero.
     */
    @Test
    void anExpertBuiltOnASwitchBackToTinyLfuCountsInTheSketchTheLastOneLeft() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            webLike(driver);
            assertEquals(AdaptiveTinyLfuPolicy.NAME, policy.currentExpert(), "as in aSteadyLeadOfTwoPoints...");
            FrequencySketch first = ((AdaptiveTinyLfuPolicy) policy.expert()).sketch();
            long switches = policy.switches();
            driver.zigzag(800, 10);
            assertEquals(MuninnPolicy.NAME, policy.currentExpert(), "as in recencyTraceSwitches...");
            webLike(driver);
            assertEquals(AdaptiveTinyLfuPolicy.NAME, policy.currentExpert(), "back to W-TinyLFU: " + policy.state());
            assertTrue(policy.switches() >= switches + 2, policy.state());
            assertSame(first, ((AdaptiveTinyLfuPolicy) policy.expert()).sketch(), "the sketch the first W-TinyLFU expert counted in");
            driver.policy.checkInvariants();
        }
    }

    /**
     * W-TinyLFU's sketch counts requests. Until the frames first follow W-TinyLFU, best-of counts every fault in the
     * sketch the first W-TinyLFU expert takes (hits stay unseen: the other experts' hit filters skip them); the
     * switch, which hands that expert the resident pages, counts none of them. Counted, every resident page would
     * gain a use no request made, and pages requested since could not pass admission against them.
     */
    @Test
    void aSwitchToTinyLfuFindsTheFaultsCountedAndCountsNoneOfThePagesHandedOver() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            for (int page = 0; page < FRAMES + 10; page++) {
                driver.request(page);
            }
            long refaulted = driver.evicted().get(0);
            assertFalse(driver.request(refaulted), "evicted, so faulted again");
            assertEquals(ClockProPolicy.NAME, policy.currentExpert());
            FrequencySketch sketch = policy.tinyLfuSketch();
            int[] before = new int[FRAMES + 10];
            for (int page = 0; page < before.length; page++) {
                before[page] = sketch.frequency(PageKey.hash(PageKey.of(0, page)));
                assertTrue(before[page] >= 1, "page " + page + " faulted, and the fault was counted");
            }
            assertTrue(before[(int) refaulted] >= 2, "two faults of page " + refaulted);

            policy.switchTo(BestOfPolicy.EXPERTS.indexOf(AdaptiveTinyLfuPolicy.ENTRY));
            assertSame(sketch, ((AdaptiveTinyLfuPolicy) policy.expert()).sketch(), "the expert counts on in it");
            for (int page = 0; page < before.length; page++) {
                assertEquals(before[page], sketch.frequency(PageKey.hash(PageKey.of(0, page))), "page " + page
                    + (driver.isResident(page) ? " was handed over, which is no request" : " is not resident"));
            }
            driver.policy.checkInvariants();
        }
    }

    /**
     * A switch to w-tinylfu-adaptive no longer makes the expert a {@link io.ratatosk.policies.SampleRing} of its own, which
     * one that follows its miniature's window never writes ({@link io.ratatosk.policies.SampleRing#SLOTS} keys, 32 KiB):
     * at 8 frames it was 33,680 of a switch's bytes, and best-of switched 6.4 times per 1,000 faults on uniform reads
     * of 8 times the cache, so about 50 bytes a fault. The least of three rounds of switches to each expert, after a round
     * to warm up (a deoptimization allocates a few hundred bytes), must stay under a quarter of that ring.
     */
    @Test
    void aSwitchAllocatesNoSampleRingForTheExpert() {
        try (PolicyDriver driver = bestOf(8, Map.of())) {
            BestOfPolicy policy = policy(driver);
            SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < 200; i++) {
                driver.request(random.nextInt(64));
            }
            int tinyLfu = BestOfPolicy.EXPERTS.indexOf(AdaptiveTinyLfuPolicy.ENTRY);
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 4; round++) {
                policy.switchTo(BestOfPolicy.EXPERTS.indexOf(MuninnPolicy.ENTRY));
                long before = allocatedBytes();
                policy.switchTo(tinyLfu);
                long allocated = allocatedBytes() - before;
                if (round > 0) {
                    least = Math.min(least, allocated);
                }
            }
            assertTrue(least < io.ratatosk.policies.SampleRing.SLOTS * Long.BYTES / 4,
                "a switch to w-tinylfu-adaptive allocated " + least + " bytes");
            assertFalse(policy.expert().housekeepingPending(), "the expert follows its miniature's window: nothing to replay");
            policy.expert().housekeeping();
            driver.policy.checkInvariants();
        }
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * A switch hands the incoming expert one hit on each page the outgoing one saw hit since it last looked at it:
     * from CLOCK-Pro's reference bits to muninn's usage counts, and back.
     */
    @Test
    void aSwitchHandsOverWhichPagesWereHitRecently() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            for (int page = 0; page < FRAMES; page++) {
                driver.request(page);
            }
            for (int page = 0; page < FRAMES / 2; page++) {
                assertTrue(driver.request(page), "the cache holds every page");
            }
            assertEquals(ClockProPolicy.NAME, policy.currentExpert());
            policy.switchTo(BestOfPolicy.EXPERTS.indexOf(MuninnPolicy.ENTRY));
            assertEquals(MuninnPolicy.NAME, policy.currentExpert());
            for (int page = 0; page < FRAMES; page++) {
                long usage = driver.policyWord(page) & FrameDescriptor.USAGE_MASK;
                assertEquals(page < FRAMES / 2 ? 2 : 1, usage, "muninn's usage of page " + page + ": the fault's, plus one if it was hit");
            }
            policy.switchTo(BestOfPolicy.EXPERTS.indexOf(ClockProPolicy.ENTRY));
            RecentReferences clockPro = (RecentReferences) policy.expert();
            for (int page = 0; page < FRAMES; page++) {
                assertEquals(page < FRAMES / 2, clockPro.recentlyReferenced(driver.frameOf(page)), "CLOCK-Pro's reference bit of page " + page);
            }
            driver.policy.checkInvariants();
        }
    }

    @Test
    void sameTraceGivesTheSameHits() {
        long[] hits = new long[2];
        for (int run = 0; run < 2; run++) {
            try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
                SplittableRandom random = new SplittableRandom(3);
                for (int i = 0; i < 30_000; i++) {
                    driver.request(i % 3 == 0 ? random.nextInt(1000) : random.nextInt(120));
                }
                driver.zigzag(800, 3);
                driver.policy.checkInvariants();
                hits[run] = driver.hits();
            }
        }
        assertEquals(hits[0], hits[1]);
    }

    /**
     * With the page cache's background evictor running housekeeping, a fault only queues its sampled request;
     * the miniatures see it at the next housekeeping (here the replay's, before each eviction, as the
     * evictor's would come), and the frames still follow the expert the workload needs.
     */
    @Test
    void inTheBackgroundFaultsQueueTheirRequestsAndHousekeepingSimulatesThem() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            policy.housekeepingInBackground();
            for (int p = 0; p < FRAMES; p++) {
                driver.request(p);
            }
            assertEquals(0, policy.sampledRequests(), "no fault ran a simulation");
            policy.housekeeping();
            assertEquals(FRAMES, policy.sampledRequests(), "housekeeping replayed every queued fault");
            driver.zigzag(800, 10);
            assertEquals(MuninnPolicy.NAME, policy.currentExpert());
            assertTrue(driver.hits() >= 17 * 99, "after the switch each turn hits as LRU's would: " + driver.hits());
            driver.policy.checkInvariants();
        }
    }

    /**
     * In the background a housekeeping call replays one chunk of the queued requests and says whether it left some,
     * so that the evictor refills the free frames between chunks rather than after milliseconds of simulation;
     * inline, where the simulator and a page cache without an evictor run, a call still replays them all.
     */
    @Test
    void inTheBackgroundHousekeepingReplaysAChunkAtATime() {
        int requests = 2 * SimulationPlace.BACKGROUND_CHUNK + 17;
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            policy.housekeepingInBackground();
            assertFalse(policy.housekeepingPending());
            for (int p = 0; p < requests; p++) {
                driver.request(p);
            }
            assertTrue(policy.housekeepingPending(), "faults queued their requests");
            // The replay ran a housekeeping before each eviction (PolicyReplay), as a page cache's cooperative
            // eviction would: a chunk each, fewer than the faults queued, so the ring still holds requests.
            long seen = policy.sampledRequests();
            assertTrue(seen < requests, "chunks so far: " + seen);
            while (policy.housekeepingPending()) {
                policy.housekeeping();
                long replayed = policy.sampledRequests() - seen;
                assertTrue(replayed > 0 && replayed <= SimulationPlace.BACKGROUND_CHUNK, "one chunk per call: " + replayed);
                seen = policy.sampledRequests();
            }
            assertEquals(requests, policy.sampledRequests(), "every queued request, in the end");
            driver.policy.checkInvariants();
        }
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            for (int p = 0; p < requests; p++) {
                driver.request(p);
            }
            assertFalse(policy(driver).housekeepingPending(), "inline, nothing is left for later");
        }
    }

    /**
     * In the background, the experts' own work leaves the faults too: an expert built at a switch is told before its
     * first request. The followed w-tinylfu-adaptive runs no window simulations of its own: it takes the window its
     * miniature chose, which best-of's housekeeping keeps simulating.
     */
    @Test
    void inTheBackgroundTheExpertFollowedTakesItsWindowFromItsMiniature() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            BestOfPolicy policy = policy(driver);
            policy.housekeepingInBackground();
            webLike(driver);
            assertEquals(AdaptiveTinyLfuPolicy.NAME, policy.currentExpert(), "as inline (aSteadyLeadOfTwoPoints...)");
            AdaptiveTinyLfuPolicy expert = (AdaptiveTinyLfuPolicy) policy.expert();
            assertTrue(expert.simulatesInBackground(), "told at the switch, before its first request");
            assertEquals(0, expert.sampledRequests(), "no simulations of its own");
            AdaptiveTinyLfuPolicy miniature = (AdaptiveTinyLfuPolicy) policy.miniature(BestOfPolicy.EXPERTS.indexOf(AdaptiveTinyLfuPolicy.ENTRY));
            assertTrue(miniature.sampledRequests() > 0, "the miniature's simulations ran");
            assertTrue(miniature.chosenShare() > 0, "and chose a window");
            assertEquals(miniature.chosenShare(), expert.chosenShare(), "the expert's window is its miniature's");
            driver.policy.checkInvariants();
        }
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            webLike(driver);
            assertEquals(AdaptiveTinyLfuPolicy.NAME, policy(driver).currentExpert());
            assertTrue(!((AdaptiveTinyLfuPolicy) policy(driver).expert()).simulatesInBackground(), "inline stays inline");
        }
    }

    @Test
    void inlineFaultsSimulateTheirRequestsAtOnce() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            for (int p = 0; p < FRAMES; p++) {
                driver.request(p);
            }
            assertEquals(FRAMES, policy(driver).sampledRequests());
        }
    }

    @Test
    void movingTheSimulationToTheBackgroundAfterTheFirstRequestIsRefused() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            driver.request(1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> policy(driver).housekeepingInBackground());
            assertTrue(e.getMessage().contains("after the first request"), e.getMessage());
        }
    }

    @Test
    void largeCacheSamplesTheRequestsForItsMiniatures() {
        try (PolicyDriver driver = bestOf(400, Map.of("pagecache.bestof.shadow_entries", "64"))) {
            driver.zigzag(800, 6);
            assertTrue(policy(driver).switches() > 0, "a switch was made from the sampled requests");
            assertEquals(MuninnPolicy.NAME, policy(driver).currentExpert());
            driver.policy.checkInvariants();
        }
    }

    /**
     * A frame count its experts' flags give for the cache is the same share of the miniatures' frames, so that a flag
     * written as a count runs as the share it is of the cache: at 1,000 frames (miniatures of 256) clock-pro's
     * cold_min=300 or tinylfu.window=300 failed best-of's construction ("must be at most the frame count, 256", a count
     * the user never saw), cold_min=100 with cold_max=0.2 too (cold_max 51 frames, below cold_min), all valid for the
     * cache, and s3fifo.small=100 simulated a small FIFO of 100 of the miniature's 256 frames where the expert's, as
     * with 0.1, holds a tenth.
     */
    @Test
    void aFrameCountRunsAsTheShareOfTheCacheItIs() {
        List<List<Map<String, String>>> pairs = List.of(
            List.of(Map.of("pagecache.clockpro.cold_min", "300"), Map.of("pagecache.clockpro.cold_min", "0.3")),
            List.of(Map.of("pagecache.clockpro.cold_min", "100", "pagecache.clockpro.cold_max", "0.2"),
                Map.of("pagecache.clockpro.cold_min", "0.1", "pagecache.clockpro.cold_max", "0.2")),
            List.of(Map.of("pagecache.tinylfu.window", "300"), Map.of("pagecache.tinylfu.window", "0.3")),
            List.of(Map.of("pagecache.s3fifo.small", "100"), Map.of("pagecache.s3fifo.small", "0.1")));
        for (List<Map<String, String>> pair : pairs) {
            List<String> outcomes = pair.stream().map(flags -> {
                try (PolicyDriver driver = bestOf(1000, flags)) {
                    BestOfPolicy policy = policy(driver);
                    SplittableRandom random = new SplittableRandom(5);
                    for (int i = 0; i < 40_000; i++) {
                        driver.request(i % 2 == 0 ? random.nextInt(600) : random.nextInt(4000));
                    }
                    for (int expert = BestOfPolicy.EXPERTS.size() - 1; expert >= 0; expert--) {
                        policy.switchTo(expert);
                        for (int p = 0; p < 1500; p++) {
                            driver.request(p);
                        }
                        driver.policy.checkInvariants();
                    }
                    StringBuilder outcome = new StringBuilder(driver.hits() + " hits, " + policy.switches() + " switches");
                    for (int i = 0; i < BestOfPolicy.EXPERTS.size(); i++) {
                        outcome.append(", ").append(BestOfPolicy.EXPERTS.get(i).name()).append(' ').append(policy.miniatureHits(i));
                    }
                    return outcome.toString();
                }
            }).toList();
            assertEquals(outcomes.get(0), outcomes.get(1), pair + ": a count runs as its share of the cache");
        }
    }

    @Test
    void theHitFilterSkipsUnsampledPagesAsTheExpertDoesAndNeverASampledOne() {
        try (PolicyDriver driver = bestOf(400, Map.of("pagecache.bestof.shadow_entries", "64"))) {
            // As the page cache does: the filter asked for once, before any request, then read on every hit.
            HitFilter kept = policy(driver).hitFilter();
            for (int round = 0; round < 3; round++) {
                for (int p = 0; p < 300; p++) {
                    driver.request(p);
                }
            }
            assertWarmUpFilter(driver, kept, 300);
            driver.zigzag(800, 6);
            assertEquals(MuninnPolicy.NAME, policy(driver).currentExpert(), "the filter is now the usage clock's");
            for (int round = 0; round < 8; round++) {
                for (int p = 0; p < 300; p++) {
                    driver.request(p);
                }
            }
            assertFilter(driver, kept, 300);
            assertSame(kept, policy(driver).hitFilter(), "one filter for the policy's life: the one the page cache kept");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void aCacheTooSmallToSampleFiltersAsTheExpertDoesUntilItFirstEvicts() {
        try (PolicyDriver driver = bestOf(FRAMES, Map.of())) {
            HitFilter kept = policy(driver).hitFilter();
            for (int round = 0; round < 3; round++) {
                for (int p = 0; p < FRAMES; p++) {
                    driver.request(p);
                }
            }
            for (int p = 0; p < FRAMES; p++) {
                long word = driver.policyWord(p);
                assertTrue(kept.skips(word), "page " + p + "'s repeated hits are filtered");
            }
            driver.request(FRAMES);
            assertEquals(1, driver.evicted().size(), "one page evicted");
            for (int p = 0; p <= FRAMES; p++) {
                if (driver.isResident(p)) {
                    long word = driver.policyWord(p);
                    assertTrue(!kept.skips(word),
                        "every page is sampled, so once the cache evicts no hit on page " + p + " may be filtered");
                }
            }
            driver.policy.checkInvariants();
        }
    }

    /** Before the first eviction: some resident pages of 0..pages-1 sampled, and filtered as the unsampled ones are. */
    private static void assertWarmUpFilter(PolicyDriver driver, HitFilter kept, int pages) {
        assertTrue(driver.evicted().isEmpty(), "nothing evicted yet");
        int sampled = 0;
        for (int p = 0; p < pages; p++) {
            long word = driver.policyWord(p);
            sampled += (word & BestOfPolicy.SAMPLED) != 0 ? 1 : 0;
            assertTrue(kept.skips(word),
                "page " + p + " was hit before the cache evicted, so its repeated hits are filtered, sampled or not");
        }
        assertTrue(sampled > 0, "about 64 / 400 of the pages are sampled: " + sampled);
    }

    /** Among the resident pages of 0..pages-1: some sampled, none of those filtered; some unsampled ones filtered. */
    private static void assertFilter(PolicyDriver driver, HitFilter kept, int pages) {
        BestOfPolicy policy = policy(driver);
        assertSame(policy.hitFilter(), kept, "the kept filter is the policy's");
        int sampled = 0;
        int skipped = 0;
        for (int p = 0; p < pages; p++) {
            if (!driver.isResident(p)) {
                continue;
            }
            long word = driver.policyWord(p);
            boolean skips = kept.skips(word);
            if ((word & BestOfPolicy.SAMPLED) != 0) {
                sampled++;
                assertTrue(!skips, "page " + p + " is sampled, so its hits must reach the policy");
            } else if (skips) {
                skipped++;
            }
        }
        assertTrue(sampled > 0 && sampled < pages / 2, "about 64 / 400 of the pages are sampled: " + sampled);
        assertTrue(skipped > 0, "the expert's saturated unsampled pages are filtered");
    }
}
