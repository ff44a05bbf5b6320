package io.ratatosk.policies.bestof;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyDriver;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.s3fifo.S3FifoFlags;
import io.ratatosk.policies.tinylfu.TinyLfuFlags;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The shared key index changes nothing: each miniature hits exactly as its policy alone in a cache of that size. */
class MiniatureSetTest {
    private static final int CAPACITY = 300;

    @Test
    void eachMiniatureHitsAsItsPolicyAloneDoes() {
        MiniatureSet set = new MiniatureSet(BestOfPolicy.EXPERTS, CAPACITY, BestOfPolicy.miniatureSettings(FlagValues.NONE, CAPACITY, CAPACITY));
        int experts = BestOfPolicy.EXPERTS.size();
        PolicyDriver[] alone = new PolicyDriver[experts];
        // The same settings the set's miniatures get: w-tinylfu-adaptive's simulations at 256 entries, s3-fifo's
        // move to main after one hit.
        Map<Flag, String> flags = Map.of(TinyLfuFlags.SHADOW_ENTRIES, String.valueOf(BestOfPolicy.sampledEntries(CAPACITY)),
            S3FifoFlags.MOVE_THRESHOLD, String.valueOf(BestOfPolicy.EXPERT_S3FIFO_MOVE_THRESHOLD));
        for (int i = 0; i < experts; i++) {
            PolicyEntry entry = BestOfPolicy.EXPERTS.get(i);
            Map<String, String> own = new HashMap<>();
            entry.flags().stream().filter(f -> flags.containsKey(f.flag())).forEach(f -> own.put(f.flag().name(), flags.get(f.flag())));
            alone[i] = PolicyDriver.of(CAPACITY, entry.name(), own);
        }
        try {
            SplittableRandom random = new SplittableRandom(11);
            for (int r = 0; r < 60_000; r++) {
                // A loop, a hot set and one-hit pages, so the experts hold different keys and rows are shared and freed.
                long page = r % 3 == 0 ? r % 450 : r % 3 == 1 ? random.nextInt(200) : 10_000 + r;
                set.access(PageKey.of(0, page)); // the key PolicyReplay gives page p
                for (PolicyDriver driver : alone) {
                    driver.request(page);
                }
            }
            for (int i = 0; i < experts; i++) {
                assertEquals(alone[i].hits(), set.hits(i), BestOfPolicy.EXPERTS.get(i).name() + "'s miniature against the policy alone");
                assertEquals(set.hits(i), set.totalHits(i), "no period was reset, so its hits are its total");
            }
        } finally {
            for (PolicyDriver driver : alone) {
                driver.close();
            }
        }
    }
}
