package io.ratatosk.policies.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.Sweep;
import org.junit.jupiter.api.Test;

/** Pages the replay's index cannot hold are refused by name, before it grows its index for them. */
class PolicyReplayPageLimitTest {
    @Test
    void aPageBeyondTheLargestIndexIsRefusedNamingItAndTheReplayGoesOn() {
        try (PolicyReplay replay = new PolicyReplay(4, 2, RecordingPolicy::new, Sweep.background())) {
            for (int page : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 8}) {
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> replay.read(page));
                assertTrue(refused.getMessage().contains("page=" + page), refused.getMessage());
            }
            assertFalse(replay.read(3));
            assertTrue(replay.read(3));
            replay.verify();
        }
    }

    @Test
    void hitsRefusesAPageBeyondTheLargestIndexNamingItBeforeSizingTheIndexForIt() {
        for (int page : new int[] {Integer.MAX_VALUE - 1, PolicyReplay.MAX_PAGES}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PolicyReplay.hits(new int[] {1, page}, 4, RecordingPolicy::new));
            assertTrue(refused.getMessage().contains("page=" + page), refused.getMessage());
        }
    }

    @Test
    void anExpectedPageCountBeyondTheLargestIndexIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new PolicyReplay(4, Integer.MAX_VALUE, RecordingPolicy::new, Sweep.background()));
        assertTrue(refused.getMessage().contains("pageCount=" + Integer.MAX_VALUE), refused.getMessage());
    }
}
