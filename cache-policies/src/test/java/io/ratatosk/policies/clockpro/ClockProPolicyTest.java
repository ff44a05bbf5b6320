package io.ratatosk.policies.clockpro;

import static io.ratatosk.policies.clockpro.ClockProBits.DEMOTED;
import static io.ratatosk.policies.clockpro.ClockProBits.HOT;
import static io.ratatosk.policies.clockpro.ClockProBits.IN_TEST;
import static io.ratatosk.policies.clockpro.ClockProBits.REFERENCED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyDriver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-made traces that pin CLOCK-Pro's semantics. Pages are numbers; the clock is listed oldest
 * first. With 4 frames and the cold minimum of 2, the first two pages come in hot and the next two
 * cold in their test period.
 */
class ClockProPolicyTest {
    private static final Map<String, String> FIXED_COLD_TARGET = Map.of("pagecache.clockpro.adaptive", "false");

    private static PolicyDriver clockPro(int frames, Map<String, String> flags) {
        return PolicyDriver.of(frames, ClockProPolicy.NAME, flags);
    }

    private static ClockProClock policy(PolicyDriver driver) {
        return (ClockProClock) driver.policy;
    }

    private static String state(PolicyDriver driver, long page) {
        return ClockProBits.toString(driver.policyWord(page));
    }

    @Test
    void fillingCacheBringsPagesInHotUntilOnlyTheColdMinimumIsLeft() {
        try (PolicyDriver driver = clockPro(4, Map.of())) {
            driver.access(1, 2, 3, 4);
            assertEquals("hot", state(driver, 1));
            assertEquals("hot", state(driver, 2));
            assertEquals("cold, in test", state(driver, 3));
            assertEquals("cold, in test", state(driver, 4));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void coldPageHitInItsTestPeriodIsPromotedWhenTheColdHandReachesIt() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 3);
            assertEquals("cold, in test, referenced", state(driver, 3), "a hit only sets the reference bit");
            driver.access(5);
            assertEquals("hot", state(driver, 3));
            assertEquals(List.of(4L), driver.evicted(), "the cold hand took the next unreferenced cold page");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void hotHandDemotesTheOldestUnreferencedHotPageToMakeRoomForAPromotion() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 1, 3, 5);
            assertEquals("hot", state(driver, 1), "1 was referenced: spared, its bit cleared");
            assertEquals("cold", state(driver, 2), "2 was hot and unreferenced: demoted, no test period");
            assertEquals("hot", state(driver, 3));
            assertEquals(2, policy(driver).hotCount());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pageEvictedInItsTestPeriodLeavesAGhostAndComesBackHot() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 3, 5);
            assertFalse(driver.isResident(4));
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 4)));
            driver.access(4);
            assertEquals(List.of(4L, 1L), driver.evicted(), "1, demoted and unreferenced, made room");
            assertEquals("hot", state(driver, 4), "a fault on a ghost comes back hot");
            assertEquals("cold", state(driver, 2), "the hot hand demoted 2 to make room for it");
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 4)), "the ghost entry goes");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pageEvictedOutOfItsTestPeriodLeavesNoGhost() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 3, 5, 6);
            assertEquals(List.of(4L, 1L), driver.evicted());
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 1)), "1 was demoted, out of its test period");
            assertEquals(1, policy(driver).ghostCount());
        }
    }

    @Test
    void faultOnAGhostComesBackColdInTestWhenTheHotHandFindsNothingToDemote() {
        // frames 4, 2 hot; both hot pages referenced twice round, so nothing can be demoted before the hand passes the ghost
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 5);
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 3)));
            driver.access(1, 2, 3);
            assertEquals("cold, in test", state(driver, 3),
                "the hot hand spared 1 and 2, reached 3's ghost and ended its test period: promotion refused");
            assertEquals(2, policy(driver).hotCount());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void testHandTrimsTheOldestGhostWhenGhostsExceedTheirCapacity() {
        // ghosts 0.5 x 4 frames = 2
        try (PolicyDriver driver = clockPro(4, Map.of("pagecache.clockpro.ghosts", "0.5", "pagecache.clockpro.adaptive", "false"))) {
            driver.access(1, 2, 3, 4, 5, 6);
            assertEquals(List.of(3L, 4L), driver.evicted());
            assertEquals(2, policy(driver).ghostCount());
            driver.access(7);
            assertEquals(2, policy(driver).ghostCount());
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 3)), "the oldest ghost's test period ended");
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 4)));
            assertTrue(policy(driver).hasGhost(PageKey.of(0, 5)));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void hotHandEndsTheTestPeriodsOfColdPagesItPassesAndRefusesAPromotionItReaches() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4, 5);
            // clock, oldest first: 1 hot, 2 hot, ghost 3, 4 and 5 cold in test
            driver.access(1, 2, 4, 6);
            // The cold hand finds 4 referenced in test; making room, the hot hand spares 1 and 2, removes
            // ghost 3, reaches 4 (promotion refused) and ends the test periods of 4 and 5.
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 3)), "the hot hand removed the ghost it passed");
            assertEquals("cold, in test", state(driver, 4), "refused, 4 starts a new test period at the head");
            assertEquals(List.of(3L, 5L), driver.evicted());
            assertFalse(policy(driver).hasGhost(PageKey.of(0, 5)), "5's test period had ended: no ghost");
            assertEquals(2, policy(driver).hotCount());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void coldTargetRisesWhenAPageIsAccessedInItsTestPeriod() {
        try (PolicyDriver driver = clockPro(10, Map.of())) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            assertEquals(2, policy(driver).coldTarget());
            driver.access(9, 11);
            assertEquals(3, policy(driver).coldTarget(), "9 was hit in its test period");
            assertEquals("hot", state(driver, 9));
            driver.access(10);
            assertEquals(4, policy(driver).coldTarget(), "10 faulted while it had a ghost");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void coldTargetFallsWhenATestPeriodEndsUnused() {
        try (PolicyDriver driver = clockPro(10, Map.of("pagecache.clockpro.ghosts", "0.5"))) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 11, 10);
            assertEquals(4, policy(driver).coldTarget());
            int ghosts = policy(driver).ghostCount();
            // New pages push ghosts past the capacity of 5: each trimmed ghost ends a test period unused.
            long page = 100;
            while (policy(driver).coldTarget() == 4) {
                driver.access(page++);
            }
            assertEquals(3, policy(driver).coldTarget());
            assertTrue(policy(driver).ghostCount() >= ghosts);
            driver.policy.checkInvariants();
        }
    }

    @Test
    void coldTargetStaysWithinItsBoundsAndFixedWhenNotAdaptive() {
        try (PolicyDriver adaptive = clockPro(10, Map.of("pagecache.clockpro.cold_max", "3"));
             PolicyDriver fixed = clockPro(10, Map.of("pagecache.clockpro.adaptive", "false", "pagecache.clockpro.cold_min", "4"))) {
            int highest = 0;
            // Every new page is asked for again two requests later, in its test period.
            for (long page = 1; page <= 60; page++) {
                for (PolicyDriver driver : List.of(adaptive, fixed)) {
                    driver.access(page);
                    driver.access(Math.max(1, page - 1));
                }
                highest = Math.max(highest, policy(adaptive).coldTarget());
                assertEquals(4, policy(fixed).coldTarget(), "cold_min, never moved");
            }
            assertEquals(3, highest, "rose to cold_max and no further");
            adaptive.policy.checkInvariants();
            fixed.policy.checkInvariants();
        }
    }

    @Test
    void pageReadAgainRightAfterItsFaultIsACorrelatedReferenceNotAReuse() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 3, 3, 4, 4);
            assertEquals("cold, in test", state(driver, 3));
            assertEquals("cold, in test", state(driver, 4));
            driver.access(3);
            assertEquals("cold, in test, referenced", state(driver, 3), "after another page, a hit counts again");
        }
    }

    @Test
    void coldHandSkipsAPinnedColdPageAndTakesTheNextOne() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4);
            int frame3 = driver.frameOf(3);
            assertTrue(driver.frames.tryWriteLock(frame3));
            try {
                assertEquals(driver.frameOf(4), driver.policy.nextVictim(Sweep.background()));
            } finally {
                driver.frames.unlockWrite(frame3);
            }
        }
    }

    @Test
    void whenEveryColdPageIsPinnedTheHotHandDemotesOneSoThatALaterCallFindsAVictim() {
        try (PolicyDriver driver = clockPro(4, FIXED_COLD_TARGET)) {
            driver.access(1, 2, 3, 4);
            int frame3 = driver.frameOf(3);
            int frame4 = driver.frameOf(4);
            assertTrue(driver.frames.tryWriteLock(frame3));
            assertTrue(driver.frames.tryWriteLock(frame4));
            try {
                Sweep sweep = Sweep.background();
                assertEquals(EvictionPolicy.NO_VICTIM, driver.policy.nextVictim(sweep));
                assertEquals("cold", state(driver, 1), "demoted regardless of the hot target");
                assertEquals(driver.frameOf(1), driver.policy.nextVictim(sweep));
            } finally {
                driver.frames.unlockWrite(frame3);
                driver.frames.unlockWrite(frame4);
            }
        }
    }

    @Test
    void checkInvariantsNamesACountThatDisagreesWithTheFrames() {
        try (PolicyDriver driver = clockPro(4, Map.of())) {
            driver.access(1, 2, 3, 4);
            driver.frames.setPolicyWord(driver.frameOf(3), HOT);
            IllegalStateException e = assertThrows(IllegalStateException.class, driver.policy::checkInvariants);
            assertTrue(e.getMessage().contains("hot count 2, hot frames 3"), e.getMessage());
        }
    }

    @Test
    void coldBoundsThatContradictEachOtherAreRefusedNamingTheFlags() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> clockPro(100,
            Map.of("pagecache.clockpro.cold_min", "20", "pagecache.clockpro.cold_max", "10")));
        assertEquals("pagecache.clockpro.cold_min=20 (20 frames) must be at most pagecache.clockpro.cold_max=10 (10 frames);"
            + " the frame count is 100", e.getMessage());
    }

    @Test
    void bitsLieAboveTheUsageBitsAndTheReferenceBitIsUsageBitZero() {
        assertEquals(1L, REFERENCED);
        assertEquals(0, (HOT | IN_TEST | DEMOTED) & 0x7);
    }

    @Test
    void replayKeepsEveryInvariantOnAMixedTrace() {
        Map<String, String> flags = new HashMap<>();
        try (PolicyDriver driver = clockPro(16, flags)) {
            long seed = 42;
            for (int i = 0; i < 20_000; i++) {
                seed = seed * 6364136223846793005L + 1442695040888963407L;
                long page = (seed >>> 33) % (i % 3 == 0 ? 64 : 20);
                driver.request(page);
            }
            driver.policy.checkInvariants();
        }
    }
}
