package io.ratatosk.policies.clockpro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.Waits;
import io.ratatosk.policies.PolicyDriver;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.core.config.FlagValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CLOCK-Pro+'s demoted marks and adaptation steps on hand-made traces. 10 frames: the first 8 pages
 * come in hot, the next 2 cold in test; the cold target starts at its minimum, 2.
 */
class ClockProPlusPolicyTest {
    private static PolicyDriver clockProPlus(int frames) {
        return PolicyDriver.of(frames, ClockProPlusPolicy.NAME, Map.of());
    }

    private static ClockProClock policy(PolicyDriver driver) {
        return (ClockProClock) driver.policy;
    }

    private static String state(PolicyDriver driver, long page) {
        return ClockProBits.toString(driver.policyWord(page));
    }

    @Test
    void hotHandMarksThePageItDemotesAndATestPeriodHitChangesNothing() {
        try (PolicyDriver driver = clockProPlus(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 11);
            assertEquals("hot", state(driver, 9), "promoted: it was hit in its test period");
            assertEquals("cold, demoted", state(driver, 1), "the hot hand demoted 1 to make room");
            assertEquals(1, policy(driver).demotedCount());
            assertEquals(2, policy(driver).coldTarget(), "a promotion does not move clock-pro-plus's cold target");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void ghostRefaultRaisesTheColdTargetByDemotedOverGhostsAtLeastOne() {
        try (PolicyDriver driver = clockProPlus(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
            assertEquals(0, policy(driver).demotedCount());
            driver.access(9); // 11 evicted first: 3 ghosts, no demoted page: max(1, 0 / 3) = 1
            assertEquals(3, policy(driver).coldTarget());
            assertEquals("hot", state(driver, 9));
            assertEquals(2, policy(driver).demotedCount(), "making room demoted 1 and 2");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void referencedDemotedPageLowersTheColdTargetByGhostsOverDemotedAtLeastOneAndLosesItsMark() {
        try (PolicyDriver driver = clockProPlus(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 9);
            assertEquals(3, policy(driver).coldTarget());
            driver.access(1, 12, 13);
            // The cold hand promotes 12 (demoting 3), then finds 1 demoted and referenced with 2 ghosts
            // and 3 demoted pages: max(1, 2 / 3) = 1. 1 starts a test period; 2, demoted, goes.
            assertEquals(2, policy(driver).coldTarget());
            assertEquals("cold, in test", state(driver, 1));
            assertEquals(List.of(9L, 10L, 11L, 2L), driver.evicted());
            assertEquals(1, policy(driver).demotedCount(), "2's mark left with it; 3 keeps its own");
            assertEquals("cold, demoted", state(driver, 3));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void adaptationStepsAreRatiosRoundedDownAndAtLeastOne() {
        try (FrameTable frames = new FrameTable(100)) {
            ClockProPlusPolicy policy = ClockProPlusPolicy.create(frames, FlagValues.NONE);
            assertEquals(1, policy.onGhostRefault(5, 2));
            assertEquals(3, policy.onGhostRefault(2, 7));
            assertEquals(-1, policy.onDemotedReferenced(1, 4));
            assertEquals(-4, policy.onDemotedReferenced(9, 2));
            assertEquals(0, policy.onTestPeriodEnded(false));
            assertEquals(0, policy.onTestPeriodEnded(true));
            assertEquals(0, policy.onTestPageReferenced());
        }
    }

    @Test
    void coldTargetStaysAtMostHalfTheFrames() {
        try (PolicyDriver driver = clockProPlus(10)) {
            for (long page = 1; page <= 400; page++) {
                driver.access(page % 23, page % 7 + 100);
                assertTrue(policy(driver).coldTarget() <= 5, "cold target " + policy(driver).coldTarget());
            }
            driver.policy.checkInvariants();
        }
    }

    @Test
    void ghostsDefaultToOnePerFrame() {
        try (PolicyDriver driver = clockProPlus(10)) {
            for (long page = 1; page <= 100; page++) {
                driver.access(page);
                assertTrue(policy(driver).ghostCount() <= 10);
            }
            assertEquals(10, policy(driver).ghostCount());
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 80)));
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 90)));
        }
    }

    /**
     * A background evictor evicts several pages in a row, with no fault between them. With fewer ghosts than
     * such a run (pagecache.clockpro.ghosts=0.5, the least accepted: one ghost for 3 frames), the second page
     * evicted in its test period put the ghosts over capacity while the test hand rested on nothing: the cold
     * hand had started the test periods of the referenced cold pages, which moves no test hand. The test hand
     * then never moved, and the eviction looped for ever holding the policy's lock, so every fault hung too.
     * The hands' invariants hold after every step.
     */
    @Test
    void consecutiveEvictionsPastTheGhostCapacityEndWhenNoTestHandWasSet() {
        for (String policy : List.of(ClockProPlusPolicy.NAME, ClockProPolicy.NAME)) {
            try (FrameTable frames = new FrameTable(3)) {
                EvictionPolicy clock = PolicyRegistry.create(policy, frames,
                    PolicyRegistry.parse(Map.of("pagecache.clockpro.ghosts", "0.5")));
                for (int frame = 0; frame < 3; frame++) { // the first hot, the others cold in their test period
                    long key = PageKey.of(0, frame);
                    frames.tryExclusiveLock(frame);
                    frames.setBinding(frame, key);
                    clock.onFault(frame, key);
                    frames.unlockExclusive(frame);
                }
                for (int frame = 0; frame < 3; frame++) {
                    clock.onHit(frame);
                }
                clock.checkInvariants();
                Sweep evictor = Sweep.background();
                List<Integer> evicted = new ArrayList<>();
                assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), () -> {
                    for (int i = 0; i < 2; i++) {
                        evictor.begin();
                        int victim = clock.nextVictim(evictor);
                        assertTrue(victim >= 0, policy + ": no victim among unpinned frames");
                        clock.checkInvariants();
                        frames.tryExclusiveLock(victim);
                        long key = frames.binding(victim);
                        frames.setBinding(victim, PageKey.UNBOUND);
                        clock.onEvicted(victim, key);
                        evicted.add(victim);
                        clock.checkInvariants();
                    }
                }, policy + ": the second eviction in a row did not return");
                assertEquals(2, evicted.size());
                clock.checkInvariants();
            }
        }
    }

    @Test
    void droppingTheLastHotPageLeavesNoHotHandToEndTheTestPeriodsAndGhosts() {
        for (String policy : List.of(ClockProPlusPolicy.NAME, ClockProPolicy.NAME)) {
            try (FrameTable frames = new FrameTable(4)) {
                ClockProClock clock = (ClockProClock) PolicyRegistry.create(policy, frames, PolicyRegistry.parse(Map.of()));
                for (int frame = 0; frame < 4; frame++) { // 0 and 1 come in hot, 2 and 3 cold in their test period
                    ClockFrames.bind(frames, clock, frame, PageKey.of(0, frame));
                }
                Sweep evictor = Sweep.background();
                evictor.begin();
                int victim = clock.nextVictim(evictor); // a cold page in its test period: it leaves a ghost
                long ghostKey = ClockFrames.unbind(frames, clock, victim);
                ClockFrames.bind(frames, clock, victim, PageKey.of(0, 4));
                assertTrue(clock.hasGhost(ghostKey), policy);
                int testPeriodsBefore = inTest(frames);
                // An unmap drops the hot pages without the policy choosing them, and nothing faults after it.
                ClockFrames.unbind(frames, clock, 0);
                ClockFrames.unbind(frames, clock, 1);
                assertEquals(0, clock.hotCount(), policy);
                // Every cold page pinned: the cold hand finds none to evict, and the hot hand is asked to demote one.
                frames.tryWriteLock(2);
                frames.tryWriteLock(3);
                evictor.begin();
                assertEquals(EvictionPolicy.NO_VICTIM, clock.nextVictim(evictor), policy);
                assertTrue(clock.hasGhost(ghostKey), policy + ": with no hot page the hot hand has nothing to pass");
                assertEquals(testPeriodsBefore, inTest(frames), policy + ": the cold pages' test periods go on");
                frames.unlockWrite(2);
                frames.unlockWrite(3);
                clock.checkInvariants();
            }
        }
    }

    private static int inTest(FrameTable frames) {
        int count = 0;
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            if (frames.binding(frame) != PageKey.UNBOUND && (frames.policyWord(frame) & ClockProBits.IN_TEST) != 0) {
                count++;
            }
        }
        return count;
    }
}
