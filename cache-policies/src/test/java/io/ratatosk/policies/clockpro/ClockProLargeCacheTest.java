package io.ratatosk.policies.clockpro;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.PolicySizes;
import org.junit.jupiter.api.Test;

/**
 * The hands' bounds at frame and ghost counts too large to build here (a table of 2^29 frames needs 17 GB of native
 * memory), which the configuration accepts: clock-pro-plus keeps one ghost per frame by default, 2^29 of them at
 * 2^29 frames; ghosts=0.5 lets clock-pro run on up to 2^30 frames and more.
 */
class ClockProLargeCacheTest {
    @Test
    void theColdHandGoesTwiceRoundTheFramesUpToTheLargestTable() {
        for (int frames : new int[] {1, 1000, 1 << 30, FrameTable.MAX_FRAMES}) {
            assertEquals(2L * frames, ClockProClock.coldHandSteps(frames), frames + " frames");
        }
    }

    @Test
    void theHotHandGoesTwiceRoundTheClockUpToTheLargestClock() {
        int frames = 1 << 29;
        int slots = PolicySizes.MAX_GHOSTS + 1; // clock-pro-plus's default ghosts, one per frame
        assertEquals(2L * (frames + slots), ClockProClock.hotHandSteps(frames, slots));
        assertEquals(2L * FrameTable.MAX_FRAMES, ClockProClock.hotHandSteps(FrameTable.MAX_FRAMES - slots, slots));
        assertEquals(2L * (1000 + 2001), ClockProClock.hotHandSteps(1000, 2001));
    }
}
