package io.ratatosk.policies.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyDriver;
import io.ratatosk.policies.PolicyRegistry;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The window follows the workload: recency traces get a window of the whole cache, loops a small one. */
class AdaptiveTinyLfuPolicyTest {
    private static final int FRAMES = 100;

    private static PolicyDriver adaptive() {
        return PolicyDriver.of(FRAMES, AdaptiveTinyLfuPolicy.NAME, Map.of());
    }

    private static AdaptiveTinyLfuPolicy policy(PolicyDriver driver) {
        return (AdaptiveTinyLfuPolicy) driver.policy;
    }

    @Test
    void recencyTraceGetsAWindowOfTheWholeCache() {
        try (PolicyDriver driver = adaptive()) {
            driver.zigzag(800, 10);
            assertEquals(1.0, policy(driver).chosenShare());
            assertEquals(FRAMES, policy(driver).windowTarget());
            driver.policy.checkInvariants();
        }
    }

    /**
     * With the page cache's background evictor running housekeeping, a fault only queues its sampled request,
     * the simulations see it at the next housekeeping (the replay's, before each eviction, as the evictor's
     * would come), and the window still follows the workload.
     */
    @Test
    void inTheBackgroundFaultsQueueTheirRequestsAndHousekeepingSimulatesThem() {
        try (PolicyDriver driver = adaptive()) {
            AdaptiveTinyLfuPolicy policy = policy(driver);
            policy.housekeepingInBackground();
            for (int p = 0; p < FRAMES; p++) {
                driver.request(p);
            }
            assertEquals(0, policy.sampledRequests(), "no fault ran a simulation");
            policy.housekeeping();
            assertEquals(FRAMES, policy.sampledRequests(), "housekeeping replayed every queued fault");
            driver.zigzag(800, 10);
            assertEquals(1.0, policy.chosenShare());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void movingTheSimulationsToTheBackgroundAfterTheFirstRequestIsRefused() {
        try (PolicyDriver driver = adaptive()) {
            driver.request(1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> policy(driver).housekeepingInBackground());
            assertTrue(e.getMessage().contains("after the first request"), e.getMessage());
        }
    }

    @Test
    void loopLargerThanTheCacheGetsASmallWindow() {
        try (PolicyDriver driver = adaptive()) {
            for (int r = 0; r < 40; r++) {
                for (int p = 0; p < 150; p++) {
                    driver.request(p);
                }
            }
            assertTrue(policy(driver).chosenShare() <= 0.05, "share " + policy(driver).chosenShare());
            assertTrue(driver.hits() > driver.requests() / 2, "a small window keeps most of the loop: " + driver.hits());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void sameTraceGivesTheSameHits() {
        long[] hits = new long[2];
        for (int run = 0; run < 2; run++) {
            try (PolicyDriver driver = adaptive()) {
                SplittableRandom random = new SplittableRandom(3);
                for (int i = 0; i < 30_000; i++) {
                    driver.request(i % 3 == 0 ? random.nextInt(1000) : random.nextInt(120));
                }
                driver.policy.checkInvariants();
                hits[run] = driver.hits();
            }
        }
        assertEquals(hits[0], hits[1]);
    }

    @Test
    void largeCacheSamplesTheRequestsForItsSimulations() {
        try (PolicyDriver driver = PolicyDriver.of(400, AdaptiveTinyLfuPolicy.NAME, Map.of("pagecache.tinylfu.shadow_entries", "64"))) {
            driver.zigzag(800, 4);
            driver.policy.checkInvariants();
            assertTrue(policy(driver).chosenShare() > 0, "a choice was made from the sampled requests");
        }
    }

    /** best-of's switch back to W-TinyLFU: the new expert counts in the sketch it is handed, one sized for its own frames only. */
    @Test
    void anExpertFollowingCountsInTheSketchItIsHandedIfSizedForItsFrames() {
        FlagValues settings = PolicyRegistry.parse(Map.of());
        try (FrameTable frames = new FrameTable(FRAMES); FrameTable miniatureFrames = new FrameTable(FRAMES / 4);
             FrameTable larger = new FrameTable(4 * FRAMES)) {
            AdaptiveTinyLfuPolicy miniature = AdaptiveTinyLfuPolicy.create(miniatureFrames, settings);
            AdaptiveTinyLfuPolicy first = AdaptiveTinyLfuPolicy.following(frames, settings, miniature, null);
            AdaptiveTinyLfuPolicy second = AdaptiveTinyLfuPolicy.following(frames, settings, miniature, first.sketch());
            assertSame(first.sketch(), second.sketch());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AdaptiveTinyLfuPolicy.following(larger, settings, miniature, first.sketch()));
            assertTrue(e.getMessage().contains("sized for another cache"), e.getMessage());
        }
    }
}
