package io.ratatosk.policies;

import static io.ratatosk.policies.FlagGrid.putIfSet;
import static io.ratatosk.policies.FlagGrid.withUnset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicySizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every history size the parser accepts, at every frame count up to the largest, is one the history
 * policies can build: checked by arithmetic on their preallocated structures where those would take
 * gigabytes, and by building both policies where they are small.
 */
class HistorySizingAgreesWithTheParserTest {
    private static final int[] FRAMES = {2, 3, 100, 4096, 1 << 20, 1 << 26, (1 << 26) + 1, 1 << 28, (1 << 28) + 1,
        1 << 30, FrameTable.MAX_FRAMES};
    /** JCTools' array queues hold at most 2^30 entries. */
    private static final int MAX_QUEUE = 1 << 30;

    @Test
    void everyAcceptedHistorySizeFitsBothHistories() {
        List<String> problems = new ArrayList<>();
        int accepted = 0;
        for (int frames : FRAMES) {
            List<String> capacities = withUnset("1", "8", "9", Integer.toString(4 * Math.min(frames, 1 << 27)),
                Long.toString(4L * frames + 1), "268435456", "268435457");
            List<String> bits = withUnset("64", "128", "256", "1073741824");
            for (String capacity : capacities) {
                for (String bitCount : bits) {
                    Map<String, String> flags = new LinkedHashMap<>();
                    putIfSet(flags, "pagecache.history.capacity", capacity);
                    putIfSet(flags, "pagecache.history.bits", bitCount);
                    FlagValues config = RegistryParse.acceptedOrNull(flags, BitsetHistoryPolicy.NAME, frames);
                    if (config == null) {
                        continue;
                    }
                    accepted++;
                    String problem = fits(config, frames);
                    if (problem != null) {
                        problems.add(flags + ": " + problem);
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(accepted > FRAMES.length, accepted + " accepted");
    }

    @Test
    void theHistoryStructuresAtTheLargestCapacityAreTheLargestArraysHold() {
        int capacity = PolicySizes.MAX_HISTORY_CAPACITY;
        assertEquals(1 << 29, BitsetHistoryPolicy.queueBound(capacity));
        assertEquals(1 << 29, ExactHistoryPolicy.ringBound(capacity));
        assertEquals(1 << 30, PageKeyTable.cellsFor(ExactHistoryPolicy.ringBound(capacity)));
        assertTrue(PageKeyTable.cellsFor(ExactHistoryPolicy.ringBound(capacity + 1)) < 0, "one more would overflow the table");
    }

    @Test
    void aCapacityBeyondTheLargestIsRefusedByThePoliciesTooInsteadOfFillingTheQueueForever() {
        try (FrameTable frames = new FrameTable(4)) {
            for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
                FlagValues tooMany = new FlagValues() { // what no parse lets through, straight to the factories
                    @Override
                    public Object given(io.ratatosk.core.config.Flag flag) {
                        return flag == HistoryFlags.CAPACITY ? 1 << 30 : null;
                    }

                    @Override
                    public String text(io.ratatosk.core.config.Flag flag) {
                        return null;
                    }
                };
                PolicyEntry entry = PolicyRegistry.entry(policy).orElseThrow();
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> entry.factory().create(frames, tooMany));
                assertEquals("pagecache.history.capacity=1073741824 must be in [1, 268435456]", e.getMessage());
            }
        }
    }

    /** Null if both histories can hold the accepted sizes (built for real when small); else what is wrong. */
    private static String fits(FlagValues config, int frames) {
        int capacity = config.getInt(HistoryFlags.CAPACITY, PolicySizes.defaultHistoryCapacity(frames));
        int bits = config.getInt(HistoryFlags.BITS, PolicySizes.defaultHistoryBits(frames));
        if (capacity < 1 || capacity > PolicySizes.MAX_HISTORY_CAPACITY) {
            return "capacity " + capacity;
        }
        int queue = BitsetHistoryPolicy.queueBound(capacity);
        if (queue <= capacity || queue > MAX_QUEUE) {
            return "queue bound " + queue + " for capacity " + capacity + ": trimming could never make room";
        }
        int ring = ExactHistoryPolicy.ringBound(capacity);
        int cells = PageKeyTable.cellsFor(ring);
        if (ring <= capacity || cells < 2L * ring || cells > 1 << 30) {
            return "ring " + ring + ", table " + cells + " cells for capacity " + capacity;
        }
        if (bits < Long.SIZE || Integer.bitCount(bits) != 1 || bits > PolicySizes.MAX_HISTORY_BITS) {
            return "bits " + bits;
        }
        if (bits > 128L * frames || capacity > 4L * frames) {
            return "out of proportion to " + frames + " frames: " + bits + " bits, capacity " + capacity;
        }
        if (frames <= 4096) {
            try (FrameTable table = new FrameTable(frames)) {
                for (String policy : List.of(BitsetHistoryPolicy.NAME, ExactHistoryPolicy.NAME)) {
                    PolicyRegistry.create(policy, table, config).checkInvariants();
                }
            }
        }
        return null;
    }
}
