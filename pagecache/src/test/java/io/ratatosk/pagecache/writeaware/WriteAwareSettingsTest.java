package io.ratatosk.pagecache.writeaware;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.InertPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The usage-clock settings the shadows model a policy with are checked where write-aware eviction is made: a shadow
 * clock whose evict threshold no usage reaches (a negative one) never found a victim, and the first eviction after a
 * shadow filled up swept it for ever.
 */
class WriteAwareSettingsTest {
    @Test
    void settingsNoUsageClockHasAreRefusedNamingThem() {
        try (FrameTable frames = new FrameTable(4)) {
            InertPolicy policy = new InertPolicy("inert");
            IllegalArgumentException threshold = assertThrows(IllegalArgumentException.class,
                () -> new WriteAwareEviction(policy, frames, 0, 4, 1, -1));
            assertTrue(threshold.getMessage().contains("evictThreshold=-1"), threshold.getMessage());
            IllegalArgumentException max = assertThrows(IllegalArgumentException.class,
                () -> new WriteAwareEviction(policy, frames, 0, 200, 1, 1));
            assertTrue(max.getMessage().contains("maxUsage=200"), max.getMessage());
            IllegalArgumentException fault = assertThrows(IllegalArgumentException.class,
                () -> new WriteAwareEviction(policy, frames, 0, 4, 5, 1));
            assertTrue(fault.getMessage().contains("faultUsage=5"), fault.getMessage());
        }
    }

    /** With the plain clock's settings, more pages than a shadow holds are evicted from it as ever. */
    @Test
    void aShadowFullOfPagesEvictsWithValidSettings() {
        try (FrameTable frames = new FrameTable(4)) {
            WriteAwareEviction eviction = new WriteAwareEviction(new InertPolicy("inert"), frames, 0, 4, 1, 0);
            assertTimeoutPreemptively(Duration.ofMinutes(1), () -> {
                for (long page = 0; page < 64; page++) {
                    int frame = (int) (page % 4);
                    long key = PageKey.of(1, page);
                    frames.setBinding(frame, key);
                    eviction.onFault(frame, key);
                }
                eviction.housekeeping(); // replays the faults into the shadows, which hold 4 pages each
                eviction.checkInvariants();
            });
        }
    }
}
