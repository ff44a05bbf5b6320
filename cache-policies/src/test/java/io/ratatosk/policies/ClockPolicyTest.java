package io.ratatosk.policies;

import static io.ratatosk.policies.FrameFixture.fault;
import static io.ratatosk.policies.FrameFixture.faultAll;
import static io.ratatosk.policies.FrameFixture.hit;
import static io.ratatosk.policies.FrameFixture.replace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClockPolicyTest {
    private final FrameTable frames = new FrameTable(4);
    private final ClockPolicy policy = new ClockPolicy(frames);
    private final Sweep sweep = Sweep.background();

    @AfterEach
    void closeFrames() {
        frames.close();
    }

    @Test
    void faultClearsTheReferenceBitAndHitsSetItOnce() {
        fault(frames, policy, 0);
        assertEquals(0, frames.usage(0));
        hit(policy, 0, 3);
        assertEquals(1, frames.usage(0));
        assertEquals("clock", policy.name());
    }

    @Test
    void referencedFramesGetASecondChanceInArmOrder() {
        faultAll(frames, policy);
        policy.onHit(1);
        policy.onHit(2);
        int victim = policy.nextVictim(sweep);
        assertEquals(0, victim, "frame 0 was never referenced");
        replace(frames, policy, victim);
        victim = policy.nextVictim(sweep);
        assertEquals(3, victim, "frames 1 and 2 lose their bit and are spared once");
        replace(frames, policy, victim);
        assertEquals(0, policy.nextVictim(sweep));
        assertEquals(1, policy.nextVictim(sweep), "frame 1 had its second chance");
        assertEquals(0, frames.usage(2));
    }
}
