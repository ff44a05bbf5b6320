package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import io.ratatosk.policies.bestof.BestOfPolicy;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A page is recently referenced from its hit until the policy's hand, arm or scan has passed it: what best-of hands over. */
class RecentReferencesTest {
    private static final int FRAMES = 32;

    static Iterable<String> policies() {
        return PolicyRegistry.NAMES.stream().filter(name -> !name.equals(BestOfPolicy.NAME)).toList();
    }

    @Test
    void everyExpertOfBestOfTellsItsRecentReferences() {
        for (String expert : Set.of("clock-pro", "muninn", "w-tinylfu-adaptive", "s3-fifo")) {
            try (PolicyDriver driver = PolicyDriver.of(FRAMES, expert, Map.of())) {
                assertTrue(driver.policy instanceof RecentReferences, expert);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aHitMarksThePageUntilMissesHaveSweptTheCache(String name) {
        try (PolicyDriver driver = PolicyDriver.of(FRAMES, name, Map.of())) {
            if (!(driver.policy instanceof RecentReferences references)) {
                return;
            }
            for (int page = 0; page < FRAMES; page++) {
                driver.request(page);
            }
            for (int page = 0; page < FRAMES; page++) {
                assertFalse(references.recentlyReferenced(driver.frameOf(page)), name + ": page " + page + " was only faulted in");
            }
            assertTrue(driver.request(3), name + ": a hit");
            assertTrue(references.recentlyReferenced(driver.frameOf(3)), name + ": page 3 was hit");
            assertFalse(references.recentlyReferenced(driver.frameOf(4)), name + ": page 4 was not");
            // Ten caches' worth of misses: a page never hit is never marked, whatever the policy did with it meanwhile.
            for (int page = FRAMES; page < 11 * FRAMES; page++) {
                driver.request(page);
            }
            int hitFrame = driver.isResident(3) ? driver.frameOf(3) : -1;
            for (int frame = 0; frame < FRAMES; frame++) {
                if (frame != hitFrame && driver.frames.binding(frame) != PageKey.UNBOUND) {
                    assertFalse(references.recentlyReferenced(frame), name + ": frame " + frame + ", never hit");
                }
            }
            driver.policy.checkInvariants();
        }
    }

    /** A usage clock's arm takes one unit per pass: a page hit once is unmarked after the arm passed it once. */
    @Test
    void aUsageClocksArmUnmarksAPageHitOnceAsItPasses() {
        try (PolicyDriver driver = PolicyDriver.of(FRAMES, MuninnPolicy.NAME, Map.of())) {
            RecentReferences references = (RecentReferences) driver.policy;
            for (int page = 0; page < FRAMES; page++) {
                driver.request(page);
            }
            driver.request(3);
            int frame = driver.frameOf(3);
            assertTrue(references.recentlyReferenced(frame));
            // The arm, from frame 0, evicts each page at the fault's usage it meets and steps over page 3 once.
            for (int miss = 0; miss <= frame; miss++) {
                driver.request(FRAMES + miss);
            }
            assertTrue(driver.isResident(3), "a page hit since its fault outlives the arm's first pass");
            assertFalse(references.recentlyReferenced(frame), "the arm passed page 3 once");
        }
    }
}
