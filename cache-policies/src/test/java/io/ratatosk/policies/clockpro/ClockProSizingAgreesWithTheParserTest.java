package io.ratatosk.policies.clockpro;

import static io.ratatosk.policies.FlagGrid.putIfSet;
import static io.ratatosk.policies.FlagGrid.withUnset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.policies.PolicySizes;
import io.ratatosk.policies.RegistryParse;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.core.config.FlagValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parser accepts a CLOCK-Pro sizing exactly when {@link ClockProSizing#read} does, at every frame
 * count up to the largest, and what it accepts fits the clock's arrays: checked by arithmetic where
 * the arrays would take gigabytes, and by building the policy where they are small.
 */
class ClockProSizingAgreesWithTheParserTest {
    private static final int[] FRAMES = {2, 3, 8, 100, 1 << 20, 1 << 27, 1 << 28, (1 << 28) + 1, 1 << 29,
        (1 << 30) - 1, 1 << 30, 1_431_655_759, 1_431_655_760, 1_610_612_726, 1_610_612_727, FrameTable.MAX_FRAMES - 1,
        FrameTable.MAX_FRAMES};
    private static final List<String> GHOSTS = withUnset("0.5", "1.0", "2.0", "3.3", "4.0");
    private static final List<String> COLD = withUnset("1", "2", "3", "0.0000001", "0.01", "0.5", "1.0");

    @Test
    void theParserAndThePolicyAcceptTheSameSizingsAndTheAcceptedOnesFitTheClocksArrays() {
        List<String> disagreements = new ArrayList<>();
        int accepted = 0;
        int refused = 0;
        for (int frames : FRAMES) {
            for (String policy : List.of(ClockProPolicy.NAME, ClockProPlusPolicy.NAME)) {
                for (String ghosts : GHOSTS) {
                    for (String coldMin : COLD) {
                        for (String coldMax : COLD) {
                            Map<String, String> flags = flags(ghosts, coldMin, coldMax);
                            FlagValues config = RegistryParse.acceptedOrNull(flags, policy, frames);
                            String problem = config == null ? refusedByThePolicy(frames, policy, flags) : fits(config, policy, frames);
                            if (problem != null) {
                                disagreements.add(flags + ": " + problem);
                            }
                            accepted += config == null ? 0 : 1;
                            refused += config == null ? 1 : 0;
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), disagreements.subList(0, Math.min(10, disagreements.size())), disagreements.size() + " disagree");
        assertTrue(accepted > 0 && refused > 0, accepted + " accepted, " + refused + " refused");
    }

    @Test
    void theGhostIndexHasTwoCellsPerGhostUpToTheMostGhostsItHolds() {
        assertEquals(1 << 30, GhostIndex.cellsFor(PolicySizes.MAX_GHOSTS));
        assertEquals(4, GhostIndex.cellsFor(1));
        for (int capacity : new int[] {1, 2, 3, 4, 5, 1000, 1 << 20, (1 << 20) + 1, PolicySizes.MAX_GHOSTS - 1}) {
            int cells = GhostIndex.cellsFor(capacity);
            assertEquals(1, Integer.bitCount(cells), "a power of two for " + capacity);
            assertTrue(cells >= 2L * capacity && cells > capacity + 1, cells + " cells for " + capacity);
        }
        assertThrows(IllegalArgumentException.class, () -> new GhostIndex(PolicySizes.MAX_GHOSTS + 1));
        assertThrows(IllegalArgumentException.class, () -> new GhostIndex(0));
    }

    @Test
    void ghostsThatDoNotFitAreRefusedByThePolicyTooNamingTheFlag() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClockProSizing.read(1 << 30,
            FlagValues.NONE, ClockProPolicy.DEFAULT_COLD_MAX_SHARE, ClockProPolicy.DEFAULT_GHOSTS));
        assertEquals("pagecache.clockpro.ghosts=2.0 keeps 2147483648 ghosts beside 1073741824 frames; at most 536870912 fit",
            e.getMessage());
    }

    /** Null if the accepted config's sizing fits the clock; else what is wrong. */
    private static String fits(FlagValues config, String policy, int frames) {
        ClockProSizing sizing;
        try {
            sizing = ClockProSizing.read(frames, config, PolicySizes.defaultColdMaxShare(policy), PolicySizes.defaultGhosts(policy));
        } catch (RuntimeException e) {
            return "accepted by the parser, refused by the policy: " + e.getMessage();
        }
        if (sizing.coldMin() < 1 || sizing.coldMin() > sizing.coldMax() || sizing.coldMax() > frames) {
            return "cold bounds " + sizing.coldMin() + ".." + sizing.coldMax() + " of " + frames + " frames";
        }
        long ghosts = sizing.ghostCapacity();
        if (ghosts < 1 || ghosts > PolicySizes.MAX_GHOSTS || GhostIndex.cellsFor((int) ghosts) > 1 << 30
            || (long) frames + ghosts + 1 > FrameTable.MAX_FRAMES) {
            return ghosts + " ghosts beside " + frames + " frames do not fit";
        }
        if (frames <= 4096) {
            try (FrameTable table = new FrameTable(frames)) {
                PolicyRegistry.create(policy, table, config).checkInvariants();
            }
        }
        return null;
    }

    /** Null if the policy refuses what the parser refused (with an IllegalArgumentException); else what is wrong. */
    private static String refusedByThePolicy(int frames, String policy, Map<String, String> flags) {
        try {
            ClockProSizing.read(frames, PolicyRegistry.parse(flags), PolicySizes.defaultColdMaxShare(policy), PolicySizes.defaultGhosts(policy));
            return "refused by the parser, accepted by the policy";
        } catch (IllegalArgumentException expected) {
            return null;
        }
    }

    private static Map<String, String> flags(String ghosts, String coldMin, String coldMax) {
        Map<String, String> flags = new LinkedHashMap<>();
        putIfSet(flags, "pagecache.clockpro.ghosts", ghosts);
        putIfSet(flags, "pagecache.clockpro.cold_min", coldMin);
        putIfSet(flags, "pagecache.clockpro.cold_max", coldMax);
        return flags;
    }
}
