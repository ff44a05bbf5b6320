package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyDriver;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DeferredLRU over page frames on hand-made traces; pages are numbers, LRU orders newest first. */
class DeferredLruPolicyTest {
    private static PolicyDriver deferredLru(int frames, int pullThreshold, int purgeCount) {
        return PolicyDriver.of(frames, DeferredLruPolicy.NAME, Map.of(
            "pagecache.deferred_lru.pull_threshold", String.valueOf(pullThreshold),
            "pagecache.deferred_lru.purge_count", String.valueOf(purgeCount)));
    }

    private static DeferredLruPolicy policy(PolicyDriver driver) {
        return (DeferredLruPolicy) driver.policy;
    }

    /** The LRU list as pages, newest first. */
    private static long[] lru(PolicyDriver driver) {
        return Arrays.stream(policy(driver).lruOrder()).mapToLong(f -> PageKey.pageId(driver.frames.binding(f))).toArray();
    }

    private static long[] recent(PolicyDriver driver) {
        return Arrays.stream(policy(driver).recentFrames()).mapToLong(f -> PageKey.pageId(driver.frames.binding(f))).toArray();
    }

    @Test
    void faultsSpliceFramesInAtTheHead() {
        try (PolicyDriver driver = deferredLru(8, 3, 1)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8);
            assertArrayEquals(new long[] {8, 7, 6, 5, 4, 3, 2, 1}, lru(driver));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void hitsBelowThePullThresholdOnlyPushOntoRecent() {
        try (PolicyDriver driver = deferredLru(8, 3, 1)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 2, 5, 2);
            assertArrayEquals(new long[] {8, 7, 6, 5, 4, 3, 2, 1}, lru(driver), "the list has not moved");
            assertArrayEquals(new long[] {5, 2}, recent(driver), "a frame already in Recent is not pushed again");
            assertEquals(0, policy(driver).pulls());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pullMovesRecentToTheHeadLastHitFirstInOneBatch() {
        try (PolicyDriver driver = deferredLru(8, 3, 1)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 2, 5, 3);
            assertArrayEquals(new long[] {3, 5, 2, 8, 7, 6, 4, 1}, lru(driver));
            assertArrayEquals(new long[0], recent(driver));
            assertEquals(1, policy(driver).pulls());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void pullNeverUnlinksTheFrameAfterTheHead() {
        try (PolicyDriver driver = deferredLru(8, 3, 1)) {
            driver.access(1, 2, 3, 4, 5, 6, 7, 8, 2, 8, 3);
            // An exact LRU would order 3, 8, 2; 8 sits right after the head and stays where it is.
            assertArrayEquals(new long[] {3, 2, 8, 7, 6, 5, 4, 1}, lru(driver));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void purgeTakesTheTailSkippingFramesInRecent() {
        try (PolicyDriver driver = deferredLru(4, 4, 1)) {
            driver.access(1, 2, 3, 4, 1, 5);
            assertEquals(List.of(2L), driver.evicted(), "1 is the tail but in Recent");
            driver.access(6);
            assertEquals(List.of(2L, 3L), driver.evicted());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void purgeSkipsPinnedFrames() {
        try (PolicyDriver driver = deferredLru(4, 4, 2)) {
            driver.access(1, 2, 3, 4);
            int tail = driver.frameOf(1);
            assertTrue(driver.frames.tryWriteLock(tail));
            try {
                assertEquals(driver.frameOf(2), driver.policy.nextVictim(Sweep.background()));
                assertEquals(driver.frameOf(3), driver.policy.nextVictim(Sweep.background()), "the purge collected 2 and 3");
            } finally {
                driver.frames.unlockWrite(tail);
            }
        }
    }

    @Test
    void purgeLeavesTheFrameAfterTheHeadUntilAPullHasMovedItsNeighbours() {
        try (PolicyDriver driver = deferredLru(2, 2, 1)) {
            driver.access(1, 2, 1);
            assertArrayEquals(new long[] {2, 1}, lru(driver));
            // 1 is in Recent and 2 is right after the head: the purge takes nothing, pulls, and then 2
            // is no longer first.
            driver.access(3);
            assertEquals(List.of(2L), driver.evicted());
            assertArrayEquals(new long[] {3, 1}, lru(driver));
            driver.policy.checkInvariants();
        }
    }

    @Test
    void aCacheOfOneFrameGivesUpItsOnlyFrame() {
        try (PolicyDriver driver = deferredLru(1, 1, 1)) {
            driver.access(1, 2, 2, 3);
            assertEquals(List.of(1L, 2L), driver.evicted());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void candidatesHitAfterThePurgeAreSpared() {
        try (PolicyDriver driver = deferredLru(6, 6, 3)) {
            driver.access(1, 2, 3, 4, 5, 6, 7); // purge collects 1, 2, 3 and evicts 1
            driver.access(2);                     // 2 is hit: in Recent now
            driver.access(8);
            assertEquals(List.of(1L, 3L), driver.evicted());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void aPullThresholdOfOneIsAnExactLru() {
        try (PolicyDriver driver = deferredLru(3, 1, 2)) {
            driver.access(1, 2, 3, 1, 4, 2, 5, 3, 1);
            assertEquals(List.of(2L, 3L, 1L, 4L, 2L), driver.evicted());
            driver.policy.checkInvariants();
        }
    }

    @Test
    void evictingAFrameInRecentPullsItOutFirst() {
        try (PolicyDriver driver = deferredLru(4, 4, 1)) {
            driver.access(1, 2, 3, 4, 2);
            int frame = driver.frameOf(2);
            long key = driver.frames.binding(frame);
            assertTrue(driver.frames.tryExclusiveLock(frame));
            driver.frames.setBinding(frame, PageKey.UNBOUND);
            driver.policy.onEvicted(frame, key); // as when a file is unmapped
            driver.frames.unlockExclusive(frame);
            assertArrayEquals(new long[0], recent(driver));
            assertEquals(3, policy(driver).lruOrder().length);
            driver.frames.setBinding(frame, PageKey.of(0, 9));
            assertTrue(driver.frames.tryExclusiveLock(frame));
            driver.policy.onFault(frame, PageKey.of(0, 9));
            driver.frames.unlockExclusive(frame);
            driver.policy.checkInvariants();
        }
    }

    @Test
    void defaultsArePullAtNinetyPercentOfTheFramesAndPurgeOnePercent() {
        try (PolicyDriver driver = PolicyDriver.of(1000, DeferredLruPolicy.NAME, Map.of())) {
            assertEquals(900, policy(driver).pullThreshold());
            assertEquals(10, policy(driver).purgeCount());
        }
        try (PolicyDriver driver = PolicyDriver.of(1000, DeferredLruPolicy.NAME,
                Map.of("pagecache.deferred_lru.pull_threshold", "0.5", "pagecache.deferred_lru.purge_count", "25"))) {
            assertEquals(500, policy(driver).pullThreshold());
            assertEquals(25, policy(driver).purgeCount());
        }
    }

    @Test
    void aCountAboveTheFramesIsRefusedNamingTheFlag() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> deferredLru(4, 5, 1));
        assertEquals("pagecache.deferred_lru.pull_threshold=5: must be at most the frame count, 4", e.getMessage());
    }

    @Test
    void noVictimWhileEveryFrameIsPinned() {
        try (PolicyDriver driver = deferredLru(2, 2, 1)) {
            driver.access(1, 2);
            assertTrue(driver.frames.tryWriteLock(0));
            assertTrue(driver.frames.tryWriteLock(1));
            assertEquals(EvictionPolicy.NO_VICTIM, driver.policy.nextVictim(Sweep.background()));
            driver.frames.unlockWrite(0);
            driver.frames.unlockWrite(1);
        }
    }
}
