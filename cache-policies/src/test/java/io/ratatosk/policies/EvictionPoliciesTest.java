package io.ratatosk.policies;

import static io.ratatosk.policies.FrameFixture.fault;
import static io.ratatosk.policies.FrameFixture.hit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EvictionPoliciesTest {
    private final FrameTable frames = new FrameTable(4);

    @AfterEach
    void closeFrames() {
        frames.close();
    }

    @Test
    void everyListedNameCreatesThePolicyOfThatName() {
        for (String name : EvictionPolicies.NAMES) {
            assertEquals(name, EvictionPolicies.create(name, frames, PolicySettings.defaults()).name());
        }
    }

    @Test
    void unknownNameIsRejectedListingTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> EvictionPolicies.create("lru", frames, PolicySettings.defaults()));
        assertEquals("pagecache.policy=lru is not a policy; valid: muninn, global-clock, clock, random, clock-pro, clock-pro-plus, bitset-history, bitset-history-exact, deferred-lru",
            e.getMessage());
    }

    @Test
    void globalClockCountsToSevenAndMuninnToFourByDefault() {
        assertEquals(7, maxUsage("global-clock", PolicySettings.defaults()));
        assertEquals(4, maxUsage("muninn", PolicySettings.defaults()));
    }

    @Test
    void maxUsageFlagAppliesToMuninnAndGlobalClock() {
        PolicySettings settings = PolicySettings.of(Map.of("pagecache.clock.max_usage", "3"));
        assertEquals(3, maxUsage("global-clock", settings));
        assertEquals(3, maxUsage("muninn", settings));
        assertEquals(1, maxUsage("clock", settings), "clock is one reference bit whatever the flag");
    }

    @Test
    void globalClockReadsFaultUsageFlag() {
        EvictionPolicy policy = EvictionPolicies.create("global-clock", frames,
            PolicySettings.of(Map.of("pagecache.clock.fault_usage", "6")));
        fault(frames, policy, 0);
        assertEquals(6, frames.usage(0));
    }

    @Test
    void globalClockReadsEvictThresholdFlag() {
        EvictionPolicy policy = EvictionPolicies.create("global-clock", frames,
            PolicySettings.of(Map.of("pagecache.clock.evict_threshold", "0")));
        fault(frames, policy, 0);
        fault(frames, policy, 1);
        frames.setUsage(1, 0);
        assertEquals(1, policy.nextVictim(Sweep.background()),
            "frame 0 has fault usage 1, above threshold 0");
    }

    @Test
    void badFlagValueFailsNamingFlagAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> EvictionPolicies.create("global-clock", frames, PolicySettings.of(Map.of(
                "pagecache.clock.max_usage", "4", "pagecache.clock.fault_usage", "5"))));
        assertEquals("pagecache.clock.fault_usage=5 must be <= pagecache.clock.max_usage=4", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> EvictionPolicies.create("muninn", frames,
                PolicySettings.of(Map.of("pagecache.clock.max_usage", "four"))));
        assertEquals("pagecache.clock.max_usage=four is not an integer", e.getMessage());
    }

    private int maxUsage(String name, PolicySettings settings) {
        EvictionPolicy policy = EvictionPolicies.create(name, frames, settings);
        fault(frames, policy, 0);
        hit(policy, 0, 10);
        return frames.usage(0);
    }
}
