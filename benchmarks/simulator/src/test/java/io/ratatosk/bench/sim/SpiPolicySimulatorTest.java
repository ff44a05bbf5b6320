package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.policies.replay.RecordingPolicy;
import io.ratatosk.core.Sweep;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SPI driver calls a policy the way a one-thread page cache does. */
class SpiPolicySimulatorTest {

    @Test
    void fillsFramesInOrderThenEvictsUnbindsAndFaultsUnderTheLock() {
        List<RecordingPolicy> made = new ArrayList<>();
        SpiPolicySimulator sim = new SpiPolicySimulator("recording", frames -> {
            RecordingPolicy p = new RecordingPolicy(frames);
            made.add(p);
            return p;
        });
        // dense keys: a=0 b=1 c=2 d=3
        long hits = sim.replay(Trace.of("t", 10, 11, 10, 12, 13, 11), 2, PolicySimulator.Progress.NONE);
        RecordingPolicy p = made.get(0);
        assertEquals(1, hits);
        assertEquals(List.of("fault 0 0", "fault 1 1", "hit 0",
            "evicted 0 0", "fault 0 2",
            "evicted 1 1", "fault 1 3",
            "evicted 0 2", "fault 0 1"), p.calls);
        assertTrue(p.checked, "checkInvariants runs at the end");
        assertTrue(p.sweeps.stream().allMatch(Sweep::isBackground), "the simulator evicts as the background evictor");
        assertEquals(3, p.sweeps.size());
        assertSame(p.sweeps.get(0), p.sweeps.get(2), "one sweep for the whole run");
    }

    @Test
    void runsHousekeepingBeforeEveryEvictionEpisodeAsThePageCacheWithoutEvictorDoes() {
        List<RecordingPolicy> made = new ArrayList<>();
        SpiPolicySimulator sim = new SpiPolicySimulator("recording", frames -> {
            RecordingPolicy p = new RecordingPolicy(frames);
            made.add(p);
            return p;
        });
        long[] keys = {1, 2, 3, 4, 1, 5, 6, 2, 7};
        sim.replay(Trace.of("t", keys), 4, PolicySimulator.Progress.NONE);
        assertEquals(4, made.get(0).housekeeping, "misses 5, 6, 2 and 7 evict");
    }

    @Test
    void aPolicyThatNeverFindsAVictimFailsNamingItselfInsteadOfSpinning() {
        SpiPolicySimulator sim = new SpiPolicySimulator("stuck", frames -> new RecordingPolicy(frames) {
            @Override
            public int nextVictim(Sweep sweep) {
                return NO_VICTIM;
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> sim.replay(Trace.of("t", 1, 2, 3), 2, PolicySimulator.Progress.NONE));
        assertTrue(e.getMessage().contains("stuck"), e.getMessage());
    }

    @Test
    void aVictimOutsideTheFramesFailsNamingThePolicy() {
        SpiPolicySimulator sim = new SpiPolicySimulator("wild", frames -> new RecordingPolicy(frames) {
            @Override
            public int nextVictim(Sweep sweep) {
                return 99;
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> sim.replay(Trace.of("t", 1, 2, 3), 2, PolicySimulator.Progress.NONE));
        assertTrue(e.getMessage().contains("wild") && e.getMessage().contains("99"), e.getMessage());
    }

    @Test
    void reportsEveryRequestAsProgress() {
        long[] total = new long[1];
        SpiPolicySimulator sim = new SpiPolicySimulator("recording", RecordingPolicy::new);
        long[] keys = new long[200_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i % 1000;
        }
        sim.replay(Trace.of("t", keys), 100, n -> total[0] += n);
        assertEquals(keys.length, total[0]);
    }
}
