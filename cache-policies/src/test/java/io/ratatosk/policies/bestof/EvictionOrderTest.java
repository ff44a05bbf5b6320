package io.ratatosk.policies.bestof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyDriver;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.replay.PolicyReplay;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each expert names its frames in the order it would evict them if the cache emptied, frames it cannot evict last. */
class EvictionOrderTest {
    private static final int FRAMES = 64;

    static List<String> experts() {
        return BestOfPolicy.EXPERTS.stream().map(PolicyEntry::name).toList();
    }

    /** Skewed requests over five times the frames: hot pages, cold ones, ghosts, every expert's queues in use. */
    private static PolicyDriver warmed(String expert, long seed) {
        PolicyDriver driver = PolicyDriver.of(FRAMES, expert, Map.of());
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 4000; i++) {
            int page = random.nextInt(4) == 0 ? random.nextInt(FRAMES * 5) : random.nextInt(FRAMES / 2);
            driver.request(page);
        }
        return driver;
    }

    private static long[] allFrames() {
        long[] known = new long[(FRAMES + 63) >>> 6];
        for (int frame = 0; frame < FRAMES; frame++) {
            known[frame >>> 6] |= 1L << frame;
        }
        return known;
    }

    /** The frames in the order the policy evicts them when every page is evicted for real, one after the other. */
    private static int[] evictingEveryPage(EvictionPolicy policy, FrameTable frames) {
        Sweep sweep = Sweep.background();
        sweep.begin();
        List<Integer> order = new ArrayList<>();
        while (order.size() < FRAMES) {
            int victim = EvictionPolicy.NO_VICTIM;
            for (int pass = 0; victim == EvictionPolicy.NO_VICTIM && pass < PolicyReplay.MAX_EMPTY_SWEEPS; pass++) {
                victim = policy.nextVictim(sweep); // a clock's pass may only lower the counts, as in the page cache
            }
            assertTrue(victim != EvictionPolicy.NO_VICTIM, "found a victim while pages are bound");
            long key = frames.binding(victim);
            frames.setBinding(victim, PageKey.UNBOUND);
            policy.onEvicted(victim, key);
            order.add(victim);
        }
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    @ParameterizedTest
    @MethodSource("experts")
    void namesTheFramesInTheOrderTheExpertEvictsThem(String expert) {
        for (long seed = 1; seed <= 5; seed++) {
            int[] named;
            int[] evicted;
            try (PolicyDriver driver = warmed(expert, seed)) {
                named = EvictionOrder.of(driver.policy, driver.frames, allFrames(), FRAMES);
                for (int frame = 0; frame < FRAMES; frame++) {
                    assertTrue(driver.frames.binding(frame) != PageKey.UNBOUND, "every frame stays bound");
                }
            }
            try (PolicyDriver driver = warmed(expert, seed)) {
                evicted = evictingEveryPage(driver.policy, driver.frames);
            }
            assertEquals(Arrays.toString(evicted), Arrays.toString(named), expert + ", seed " + seed);
        }
    }

    @ParameterizedTest
    @MethodSource("experts")
    void framesItCannotEvictComeLastInFrameOrderAndUnknownOnesNotAtAll(String expert) {
        try (PolicyDriver driver = warmed(expert, 7)) {
            long[] known = allFrames();
            known[0] &= ~(1L << 5); // not one best-of told the expert of: named by no one
            int[] pinned = {40, 3, 17};
            for (int frame : pinned) {
                assertTrue(driver.frames.tryWriteLock(frame));
            }
            int[] named = EvictionOrder.of(driver.policy, driver.frames, known, FRAMES - 1);
            assertEquals(FRAMES - 1, named.length);
            assertEquals("[3, 17, 40]", Arrays.toString(Arrays.copyOfRange(named, FRAMES - 4, FRAMES - 1)), expert + ": " + Arrays.toString(named));
            assertEquals(IntStream.range(0, FRAMES).filter(f -> f != 5).boxed().toList(),
                Arrays.stream(named).sorted().boxed().toList(), "every known frame once");
            for (int frame : pinned) {
                driver.frames.unlockWrite(frame);
            }
        }
    }
}
