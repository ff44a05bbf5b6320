package io.ratatosk.policies;

import static io.ratatosk.core.EvictionPolicy.NO_VICTIM;
import static io.ratatosk.policies.FrameFixture.fault;
import static io.ratatosk.policies.FrameFixture.faultAll;
import static io.ratatosk.policies.FrameFixture.hit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MuninnPolicyTest {
    private static final long SEED = 42;
    private final FrameTable frames = new FrameTable(64);
    private final MuninnPolicy policy = new MuninnPolicy(frames, MuninnPolicy.DEFAULT_MAX_USAGE);

    @AfterEach
    void closeFrames() {
        frames.close();
    }

    @Test
    void faultGivesUsageOneAndHitsCountToFour() {
        fault(frames, policy, 0);
        assertEquals(1, frames.usage(0));
        hit(policy, 0, 10);
        assertEquals(4, frames.usage(0));
        assertEquals("muninn", policy.name());
    }

    @Test
    void cooperativeEpisodeStartsAtTheSweepsRandomFrameAndKeepsItsOwnArm() {
        faultAll(frames, policy);
        Sweep expected = Sweep.cooperative(SEED);
        int firstStart = expected.randomFrame(frames.frameCount());
        int secondStart = expected.randomFrame(frames.frameCount());
        assertNotEquals(firstStart, secondStart, "pick a seed whose two starts differ");

        Sweep sweep = Sweep.cooperative(SEED);
        sweep.begin();
        assertEquals(firstStart, policy.nextVictim(sweep));
        assertEquals((firstStart + 1) % frames.frameCount(), policy.nextVictim(sweep),
            "the same episode sweeps on from its own position");
        sweep.begin();
        assertEquals(secondStart, policy.nextVictim(sweep), "a new episode starts at a new random frame");
    }

    @Test
    void backgroundSweepsShareThePolicysPersistentArm() {
        faultAll(frames, policy);
        assertEquals(0, policy.nextVictim(Sweep.background()));
        assertEquals(1, policy.nextVictim(Sweep.background()));
    }

    @Test
    void cooperativeEvictionLeavesTheBackgroundArmWhereItWas() {
        faultAll(frames, policy);
        Sweep background = Sweep.background();
        assertEquals(0, policy.nextVictim(background));
        Sweep cooperative = Sweep.cooperative(SEED);
        for (int i = 0; i < 10; i++) {
            policy.nextVictim(cooperative);
        }
        frames.setUsage(1, 1);
        assertEquals(1, policy.nextVictim(background));
    }

    @Test
    void fruitlessCooperativePassDecrementsEveryFrameAndTheEpisodeResumesAtItsStart() {
        faultAll(frames, policy);
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            frames.setUsage(frame, 2);
        }
        Sweep sweep = Sweep.cooperative(SEED);
        int start = Sweep.cooperative(SEED).randomFrame(frames.frameCount());
        assertEquals(NO_VICTIM, policy.nextVictim(sweep), "usage 2 is above the threshold");
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            assertEquals(1, frames.usage(frame), "one pass decrements frame " + frame + " once");
        }
        assertEquals(start, policy.nextVictim(sweep));
    }
}
