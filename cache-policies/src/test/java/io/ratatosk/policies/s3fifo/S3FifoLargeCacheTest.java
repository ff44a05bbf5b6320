package io.ratatosk.policies.s3fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.FrameTable;
import org.junit.jupiter.api.Test;

/**
 * The victim search's bound at frame counts too large to build here (a table of 430 million frames needs
 * 14 GB of native memory, the queues and ghosts 20 GB of heap), which the configuration accepts.
 */
class S3FifoLargeCacheTest {
    @Test
    void theVictimSearchTakesFiveRoundsOfTheFramesUpToTheLargestTable() {
        for (int frames : new int[] {1, 1000, 429_496_728, FrameTable.MAX_FRAMES}) {
            assertEquals(5L * frames + 8, S3FifoPolicy.victimSearchSteps(frames), frames + " frames");
        }
    }
}
