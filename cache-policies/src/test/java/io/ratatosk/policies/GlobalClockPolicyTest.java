package io.ratatosk.policies;

import static io.ratatosk.core.EvictionPolicy.NO_VICTIM;
import static io.ratatosk.policies.FrameFixture.fault;
import static io.ratatosk.policies.FrameFixture.faultAll;
import static io.ratatosk.policies.FrameFixture.hit;
import static io.ratatosk.policies.FrameFixture.replace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.Waits;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GlobalClockPolicyTest {
    private final FrameTable frames = new FrameTable(4);
    private final Sweep sweep = Sweep.background();

    @AfterEach
    void closeFrames() {
        frames.close();
    }

    @Test
    void hitRaisesUsageByOneUpToMaxUsage() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 4, 1, 1);
        fault(frames, policy, 0);
        policy.onHit(0);
        assertEquals(2, frames.usage(0));
        hit(policy, 0, 10);
        assertEquals(4, frames.usage(0));
    }

    @Test
    void hitAndFaultKeepThePolicyWordsOtherBits() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 3, 1);
        frames.setPolicyWord(0, 0xA0L);
        fault(frames, policy, 0);
        policy.onHit(0);
        assertEquals(0xA4L, frames.policyWord(0));
    }

    @Test
    void faultSetsFaultUsage() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 5, 1);
        frames.setUsage(0, 2);
        fault(frames, policy, 0);
        assertEquals(5, frames.usage(0));
    }

    @ParameterizedTest(name = "threshold {0}")
    @ValueSource(ints = {0, 1, 3})
    void frameIsCandidateWhenUsageBeforeDecrementIsAtMostThreshold(int threshold) {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, threshold + 1, threshold);
        faultAll(frames, policy);
        frames.setUsage(2, threshold);
        assertEquals(2, policy.nextVictim(sweep), "frames 0 and 1 are above the threshold");
        assertEquals(threshold, frames.usage(0), "passed frames are decremented");
        assertEquals(0, policy.nextVictim(sweep), "frame 3 is above the threshold, frame 0 now at it");
        assertEquals(threshold, frames.usage(3));
    }

    @Test
    void armStartsAtFrameZeroAndMovesPastEachVictim() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 1, 1);
        faultAll(frames, policy);
        assertEquals(0, policy.nextVictim(sweep));
        replace(frames, policy, 0);
        assertEquals(1, policy.nextVictim(sweep));
        assertEquals(2, policy.nextVictim(sweep));
    }

    @Test
    void anotherSweepContinuesWhereTheSharedArmStopped() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 7, 7);
        faultAll(frames, policy);
        Sweep cooperative = Sweep.cooperative(1);
        assertEquals(0, policy.nextVictim(sweep));
        assertEquals(1, policy.nextVictim(sweep));
        assertEquals(2, policy.nextVictim(cooperative));
        assertEquals(3, policy.nextVictim(sweep));
        assertEquals(0, policy.nextVictim(cooperative));
    }

    @Test
    void twoThreadsAdvanceOneSharedArm() throws Exception {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 7, 7);
        faultAll(frames, policy);
        int callsPerThread = 20_000;
        Callable<int[]> evictor = () -> {
            Sweep own = Sweep.cooperative();
            int[] victims = new int[frames.frameCount()];
            for (int i = 0; i < callsPerThread; i++) {
                victims[policy.nextVictim(own)]++;
            }
            return victims;
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<int[]> first = pool.submit(evictor);
            Future<int[]> second = pool.submit(evictor);
            int[] a = first.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS); // a livelocked arm: fail, not hang
            int[] b = second.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            for (int frame = 0; frame < frames.frameCount(); frame++) {
                assertEquals(2 * callsPerThread / frames.frameCount(), a[frame] + b[frame],
                    "each call takes exactly one step of the one arm, frame " + frame);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, policy.nextVictim(sweep), "the arm went round a whole number of times");
    }

    @Test
    void clockSkipsLockedFramesButStillDecrementsThem() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 1, 1);
        faultAll(frames, policy);
        frames.tryWriteLock(0);
        frames.tryWriteLock(1);
        assertEquals(2, policy.nextVictim(sweep));
        assertEquals(0, frames.usage(0));
        assertEquals(0, frames.usage(1));
    }

    @Test
    void clockSkipsUnboundFramesWithoutDecrementingThem() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 1, 1);
        frames.setUsage(0, 3);
        fault(frames, policy, 1);
        fault(frames, policy, 2);
        assertEquals(1, policy.nextVictim(sweep));
        assertEquals(3, frames.usage(0));
    }

    @Test
    void noVictimAfterOnePassWhenEveryFrameIsWriteLocked() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 7, 3, 1);
        faultAll(frames, policy);
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            frames.tryWriteLock(frame);
        }
        assertEquals(NO_VICTIM, policy.nextVictim(sweep));
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            assertEquals(2, frames.usage(frame), "one pass visits every frame once, frame " + frame);
        }
    }

    @Test
    void faultUsageAboveMaxUsageIsRejectedNamingBothFlags() {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> new GlobalClockPolicy(frames, 4, 5, 1));
        assertEquals("pagecache.clock.fault_usage=5 must be <= pagecache.clock.max_usage=4", e.getMessage());
    }

    @Test
    void maxUsageOutsideTheUsageBitsIsRejected() {
        assertEquals("pagecache.clock.max_usage=8 must be in [1, 7]",
            assertThrows(IllegalArgumentException.class, () -> new GlobalClockPolicy(frames, 8, 1, 1)).getMessage());
        assertEquals("pagecache.clock.max_usage=0 must be in [1, 7]",
            assertThrows(IllegalArgumentException.class, () -> new GlobalClockPolicy(frames, 0, 0, 0)).getMessage());
    }

    @Test
    void negativeOrTooHighEvictThresholdIsRejected() {
        assertEquals("pagecache.clock.evict_threshold=-1 must be >= 0",
            assertThrows(IllegalArgumentException.class, () -> new GlobalClockPolicy(frames, 4, 1, -1)).getMessage());
        assertEquals("pagecache.clock.evict_threshold=5 must be <= pagecache.clock.max_usage=4",
            assertThrows(IllegalArgumentException.class, () -> new GlobalClockPolicy(frames, 4, 1, 5)).getMessage());
    }

    @Test
    void invariantCheckNamesAFrameWithUsageAboveMax() {
        GlobalClockPolicy policy = new GlobalClockPolicy(frames, 4, 1, 1);
        faultAll(frames, policy);
        policy.checkInvariants();
        frames.setUsage(3, 6);
        IllegalStateException e = assertThrows(IllegalStateException.class, policy::checkInvariants);
        assertEquals("global-clock: frame 3 (file 0 page 3) has usage 6 above max usage 4", e.getMessage());
    }
}
