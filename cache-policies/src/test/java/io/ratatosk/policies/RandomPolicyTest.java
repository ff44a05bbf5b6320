package io.ratatosk.policies;

import static io.ratatosk.core.EvictionPolicy.NO_VICTIM;
import static io.ratatosk.policies.FrameFixture.faultAll;
import static io.ratatosk.policies.FrameFixture.hit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RandomPolicyTest {
    private static final long SEED = 7;
    private final FrameTable frames = new FrameTable(8);
    private final RandomPolicy policy = new RandomPolicy(frames);

    @AfterEach
    void closeFrames() {
        frames.close();
    }

    @Test
    void evictsTheSweepsRandomFrameWhateverItsUsage() {
        faultAll(frames, policy);
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            frames.setUsage(frame, 7);
            hit(policy, frame, 3);
        }
        Sweep sweep = Sweep.cooperative(SEED);
        Sweep expected = Sweep.cooperative(SEED);
        for (int i = 0; i < 100; i++) {
            assertEquals(expected.randomFrame(frames.frameCount()), policy.nextVictim(sweep));
        }
        assertEquals(7, frames.usage(0), "hits and faults leave the policy word alone");
    }

    @Test
    void neverEvictsALockedFrame() {
        faultAll(frames, policy);
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            if (frame != 5) {
                frames.tryWriteLock(frame);
            }
        }
        Sweep sweep = Sweep.cooperative(SEED);
        int found = 0;
        for (int i = 0; i < 1000; i++) {
            int victim = policy.nextVictim(sweep);
            assertTrue(victim == 5 || victim == NO_VICTIM, "victim " + victim);
            found += victim == 5 ? 1 : 0;
        }
        assertTrue(found > 0, "the one unlocked frame is found now and then");
    }

    @Test
    void noVictimWhenEveryFrameIsLockedOrUnbound() {
        faultAll(frames, policy);
        for (int frame = 1; frame < frames.frameCount(); frame++) {
            frames.tryWriteLock(frame);
        }
        frames.setBinding(0, 0L);
        assertEquals(NO_VICTIM, policy.nextVictim(Sweep.cooperative(SEED)));
    }
}
