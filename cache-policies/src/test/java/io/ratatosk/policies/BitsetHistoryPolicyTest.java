package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * bitset-history and its exact twin on hand-made traces. Two frames, default clock flags (max
 * usage 7, fault usage 1): 1 and 2 fill the cache, and every new page evicts the older one.
 */
class BitsetHistoryPolicyTest {
    private static PolicyDriver history(String policy, int frames, Map<String, String> flags) {
        return PolicyDriver.of(frames, policy, flags);
    }

    private static long key(long page) {
        return PageKey.of(0, page);
    }

    @Test
    void pageFaultingAgainAfterItsEvictionStartsAtTheBoostUsage() {
        for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
            try (PolicyDriver driver = history(policy, 2, Map.of())) {
                driver.access(1, 2, 3);
                assertEquals(List.of(1L), driver.evicted());
                assertEquals(1, driver.frames.usage(driver.frameOf(3)), policy + ": a new page starts at the fault usage");
                driver.access(1);
                assertEquals(7, driver.frames.usage(driver.frameOf(1)), policy + ": 1 was remembered");
                driver.policy.checkInvariants();
            }
        }
    }

    @Test
    void aBoostUsesTheMemoryUp() {
        try (PolicyDriver driver = history(BitsetHistoryPolicy.NAME, 2, Map.of())) {
            driver.access(1, 2, 3);
            BitsetHistoryPolicy policy = (BitsetHistoryPolicy) driver.policy;
            assertTrue(policy.remembers(key(1)));
            driver.access(1);
            assertFalse(policy.remembers(key(1)), "the fault cleared 1's bit");
        }
    }

    @Test
    void boostUsageAndCapacityFollowTheirFlags() {
        try (PolicyDriver driver = history(BitsetHistoryPolicy.NAME, 2,
                Map.of("pagecache.history.boost_usage", "4", "pagecache.clock.fault_usage", "0"))) {
            driver.access(1, 2, 3, 1);
            assertEquals(4, driver.frames.usage(driver.frameOf(1)));
            assertEquals(0, driver.frames.usage(driver.frameOf(3)));
        }
    }

    @Test
    void housekeepingTrimsTheHistoryToItsCapacityForgettingTheOldestFirst() {
        for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
            try (FrameTable frames = new FrameTable(4)) {
                // A bitset far larger than the rules allow for 4 frames, so no two pages share a bit: straight to the factory.
                UsageClock clock = (UsageClock) PolicyRegistry.entry(policy).orElseThrow().factory().create(frames,
                    PolicyRegistry.parse(Map.of("pagecache.history.capacity", "3", "pagecache.history.bits", "1048576")));
                for (long page = 1; page <= 5; page++) {
                    clock.onEvicted(0, key(page));
                }
                assertTrue(remembers(clock, 1) && remembers(clock, 2), policy + ": nothing trimmed before housekeeping");
                clock.housekeeping();
                assertFalse(remembers(clock, 1), policy);
                assertFalse(remembers(clock, 2), policy);
                assertTrue(remembers(clock, 3) && remembers(clock, 4) && remembers(clock, 5), policy);
                if (clock instanceof BitsetHistoryPolicy bitset) {
                    assertEquals(3, bitset.historySize());
                }
                clock.checkInvariants();
            }
        }
    }

    @Test
    void evictionsFarBeyondTheQueueBoundAreTrimmedOnTheWayInsteadOfLost() {
        try (FrameTable frames = new FrameTable(4)) {
            BitsetHistoryPolicy policy = BitsetHistoryPolicy.create(frames,
                PolicyRegistry.parse(Map.of("pagecache.history.capacity", "10", "pagecache.history.bits", "1048576")));
            for (long page = 1; page <= 10_000; page++) {
                policy.onEvicted(0, key(page)); // no housekeeping at all
            }
            assertTrue(policy.historySize() <= BitsetHistoryPolicy.queueBound(10));
            assertTrue(policy.remembers(key(10_000)));
            assertFalse(policy.remembers(key(1)));
            policy.checkInvariants();
        }
    }

    @Test
    void twoPagesSharingABitLendEachOtherTheBoostButTheExactHistoryDoesNot() {
        Map<String, String> smallest = Map.of("pagecache.history.bits", "64");
        long other = 2;
        while ((PageKey.hash(key(other)) & 63) != (PageKey.hash(key(1)) & 63)) {
            other++;
        }
        long twin = other;
        for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
            try (PolicyDriver driver = history(policy, 2, smallest)) {
                driver.access(1, 1000, 1001); // evicts 1
                driver.access(twin);          // never evicted, but shares 1's bit
                int usage = driver.frames.usage(driver.frameOf(twin));
                assertEquals(policy.equals(BitsetHistoryPolicy.NAME) ? 7 : 1, usage, policy + ", page " + twin);
            }
        }
    }

    @Test
    void theExactHistoryKeepsAPageEvictedAgainUntilItsNewestEntryIsTrimmed() {
        try (FrameTable frames = new FrameTable(4)) {
            ExactHistoryPolicy policy = ExactHistoryPolicy.create(frames,
                PolicyRegistry.parse(Map.of("pagecache.history.capacity", "2")));
            policy.onEvicted(0, key(1));
            policy.onEvicted(0, key(2));
            policy.onEvicted(0, key(1));
            policy.housekeeping(); // trims the first entry, which is 1's older one
            assertTrue(policy.remembers(key(1)));
            assertTrue(policy.remembers(key(2)));
            policy.checkInvariants();
        }
    }

    /**
     * The difference ExactHistoryPolicy's Javadoc and docs/policies.md state besides shared bits: 1 is evicted, faulted
     * back (boosted) and evicted again; trimming its older entry clears the bitset's bit, while the exact history keeps
     * 1 for its newer entry, within the capacity. Pages 1, 2 and 3 have bits of their own (12, 26, 31 of 64).
     */
    @Test
    void aPageEvictedAgainIsForgottenWithItsOlderEntryByTheBitsetAloneWithoutSharingABit() {
        AtomicBitset defaultBits = new AtomicBitset(BitsetHistoryPolicy.defaultBits(1));
        assertEquals(List.of(12, 26, 31), List.of(1L, 2L, 3L).stream().map(p -> defaultBits.bitOf(PageKey.hash(key(p)))).toList());
        for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
            try (PolicyDriver driver = history(policy, 1, Map.of("pagecache.history.capacity", "2"))) {
                for (long page : new long[] {1, 2, 1, 3}) {
                    driver.access(page);
                    driver.policy.housekeeping();
                }
                boolean exact = policy.equals(ExactHistoryPolicy.NAME);
                assertEquals(exact, remembers((UsageClock) driver.policy, 1), policy + " remembers 1");
                assertTrue(remembers((UsageClock) driver.policy, 2), policy + " remembers 2");
                driver.access(1); // evicts 3: the exact history boosts 1, the bitset does not
                assertEquals(exact ? 7 : 1, driver.frames.usage(driver.frameOf(1)), policy + ": 1's usage");
                driver.policy.checkInvariants();
            }
        }
    }

    @Test
    void boostAboveMaxUsageIsRefusedNamingBothFlags() {
        try (FrameTable frames = new FrameTable(4)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.create(
                BitsetHistoryPolicy.NAME, frames, PolicyRegistry.parse(Map.of(
                    "pagecache.clock.max_usage", "4", "pagecache.history.boost_usage", "5"))));
            assertEquals("pagecache.history.boost_usage=5: must be an integer in [0, pagecache.clock.max_usage=4]", e.getMessage());
        }
    }

    @Test
    void defaultsAreEightBitsPerFrameRoundedUpAndBoostCappedByMaxUsage() {
        assertEquals(64, BitsetHistoryPolicy.defaultBits(1));
        assertEquals(1024, BitsetHistoryPolicy.defaultBits(100));
        assertEquals(1024, BitsetHistoryPolicy.defaultBits(128));
        assertEquals(1 << 30, BitsetHistoryPolicy.defaultBits(Integer.MAX_VALUE));
        try (PolicyDriver driver = history(BitsetHistoryPolicy.NAME, 2, Map.of("pagecache.clock.max_usage", "3"))) {
            driver.access(1, 2, 3, 1);
            assertEquals(3, driver.frames.usage(driver.frameOf(1)));
        }
    }

    private static boolean remembers(UsageClock clock, long page) {
        return clock instanceof BitsetHistoryPolicy bitset ? bitset.remembers(key(page))
            : ((ExactHistoryPolicy) clock).remembers(key(page));
    }
}
