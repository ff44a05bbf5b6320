package io.ratatosk.policies.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.FrameTable;
import org.junit.jupiter.api.Test;

/**
 * The regions' search bounds at frame counts too large to build here (a table of 716 million frames needs 23 GB of
 * native memory), which the configuration accepts; w-tinylfu-adaptive's window may take every frame (LRU).
 */
class TinyLfuLargeCacheTest {
    @Test
    void eachSearchGoesRoundItsRegionAsOftenAtEverySizeUpToTheLargestTable() {
        for (int pages : new int[] {1, 1000, 715_827_882, 1 << 30, FrameTable.MAX_FRAMES}) {
            assertEquals(pages + 65L, TinyLfuRegions.victimSearchSteps(pages), pages + " frames");
            assertEquals(2L * pages + 1, TinyLfuRegions.windowSteps(pages), pages + " pages in the window");
            assertEquals(3L * pages + 3, TinyLfuRegions.mainSteps(pages), pages + " pages in the main region");
        }
    }
}
