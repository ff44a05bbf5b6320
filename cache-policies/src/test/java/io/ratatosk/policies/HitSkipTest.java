package io.ratatosk.policies;

import static io.ratatosk.policies.FrameFixture.faultAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.config.FlagValues;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hit filter the page cache's read hit path applies before {@code onHit} ({@link EvictionPolicy#hitFilter()}):
 * a hit it skips must be one {@code onHit} ignores, for every policy, on every word a run of hits produces.
 */
class HitSkipTest {
    private static final int FRAMES = 16;
    /** Policies besides the usage clocks whose hot pages' hits the filter skips (w-tinylfu-adaptive samples every page of so small a cache). */
    private static final Set<String> SKIPS_SATURATED = Set.of("s3-fifo", "w-tinylfu");

    static Iterable<String> policies() {
        return PolicyRegistry.NAMES;
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aHitTheFilterSkipsLeavesThePolicyWordAsItIs(String name) {
        try (FrameTable frames = new FrameTable(FRAMES)) {
            EvictionPolicy policy = PolicyRegistry.create(name, frames, FlagValues.NONE);
            HitFilter kept = policy.hitFilter(); // as the page cache asks: once, before the first request
            faultAll(frames, policy);
            int skipped = 0;
            for (int round = 0; round < 20; round++) {
                HitFilter now = policy.hitFilter();
                assertEquals(now.mask(), kept.mask(), name + ": the filter kept is the policy's");
                assertEquals(now.value(), kept.value(), name + ": the filter kept is the policy's");
                for (int f = 0; f < FRAMES; f++) {
                    long word = frames.policyWord(f);
                    if (kept.skips(word)) {
                        policy.onHit(f);
                        assertEquals(word, frames.policyWord(f), name + ": a skipped hit changed frame " + f + "'s word");
                        skipped++;
                    } else {
                        policy.onHit(f);
                    }
                }
            }
            if (policy instanceof UsageClock || SKIPS_SATURATED.contains(name)) {
                assertNotEquals(0, skipped, name + ": a saturated word is skipped");
            }
        }
    }
}
