package io.ratatosk.policies.tinylfu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyDriver;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-made traces that pin W-TinyLFU's semantics. With 10 frames and the window at 1 frame, the
 * main region holds 9 pages (protected at most 80%, 7).
 */
class WTinyLfuPolicyTest {
    private static PolicyDriver wTinyLfu(int frames) {
        return PolicyDriver.of(frames, WTinyLfuPolicy.NAME, Map.of());
    }

    private static TinyLfuRegions policy(PolicyDriver driver) {
        return (TinyLfuRegions) driver.policy;
    }

    @Test
    void fillingCacheMovesTheWindowsOverflowToProbation() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            assertEquals(1, policy(driver).windowTarget());
            assertArrayEquals(new int[] {1, 9, 0}, policy(driver).regionSizes());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void candidateUsedNoMoreThanTheVictimIsEvictedItself() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
            assertEquals(List.of(10L), driver.evicted(), "page 10, the window's candidate, was used once like victim 1");
            assertTrue(driver.isResident(1));
        }
    }

    @Test
    void candidateUsedMoreOftenThanTheVictimIsAdmitted() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 11);
            assertEquals(List.of(1L), driver.evicted(), "page 10 (3 uses) beat probation's oldest page, 1 (1 use)");
            assertTrue(driver.isResident(10));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pageHitInProbationIsPromotedInsteadOfEvicted() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 10, 10, 11);
            assertFalse(driver.evicted().contains(1L), "page 1 was hit in probation");
            assertEquals(List.of(2L), driver.evicted());
            assertEquals(1, policy(driver).regionSizes()[2], "page 1 is protected");
            driver.policy.checkInvariants();
        }
    }

    @Test
    void probationAllPinnedBringsProtectedsOldestDownInsteadOfGivingUp() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7);
            int[] pinned = {driver.frameOf(8), driver.frameOf(9), driver.frameOf(10)};
            for (int frame : pinned) {
                assertTrue(driver.frames.tryWriteLock(frame));
            }
            // The hand promotes 1..7 to protected (their reference bits cleared), finds 8 and 9 pinned, then
            // demotes protected's oldest, 1, to probation: it was not hit since, so it is the victim.
            int victim = driver.policy.nextVictim(Sweep.background());
            assertEquals(driver.frameOf(1), victim, "protected held evictable pages behind a pinned probation");
            for (int frame : pinned) {
                driver.frames.unlockWrite(frame);
            }
            driver.policy.checkInvariants();
        }
    }

    @Test
    void hitSetsTheReferenceBitAndCountsItInThePolicyWordUntilAHandLooks() {
        try (PolicyDriver driver = wTinyLfu(10)) {
            driver.access(1);
            assertEquals(0, driver.policyWord(1) & (TinyLfuRegions.REFERENCED | TinyLfuRegions.PENDING));
            driver.access(1, 1);
            long word = driver.policyWord(1);
            assertEquals(TinyLfuRegions.REFERENCED, word & TinyLfuRegions.REFERENCED);
            assertEquals(2, (word & TinyLfuRegions.PENDING) >>> TinyLfuRegions.PENDING_SHIFT, "two hits pending");
            assertEquals(1, policy(driver).frequency(io.ratatosk.core.PageKey.of(0, 1)), "the sketch has the fault only");
            // Page 1 is the window's candidate at the next fault: the hand moves its hits to the sketch.
            driver.access(2);
            assertEquals(3, policy(driver).frequency(io.ratatosk.core.PageKey.of(0, 1)));
            assertEquals(0, driver.policyWord(1) & (TinyLfuRegions.REFERENCED | TinyLfuRegions.PENDING));
        }
    }

    @Test
    void randomTraceKeepsTheRegionsConsistent() {
        try (PolicyDriver driver = wTinyLfu(64)) {
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < 20_000; i++) {
                driver.request(random.nextInt(random.nextBoolean() ? 80 : 500));
            }
            driver.policy.checkInvariants();
            int[] sizes = policy(driver).regionSizes();
            assertEquals(64, sizes[0] + sizes[1] + sizes[2]);
            assertTrue(sizes[2] <= (int) (63 * 0.8), "protected within its share: " + sizes[2]);
        }
    }
}
