package io.ratatosk.policies.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.core.config.FlagValues;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The one replay driver: the page cache's protocol, its counts, and its refusals. */
class PolicyReplayTest {

    @Test
    void fillsFreeFramesInOrderThenEvictsWhatThePolicyNamesAfterItsHousekeeping() {
        RecordingPolicy[] made = new RecordingPolicy[1];
        try (PolicyReplay replay = new PolicyReplay(2, frames -> made[0] = new RecordingPolicy(frames))) {
            for (int page : new int[] {10, 11, 10, 12, 13, 11}) {
                replay.read(page);
            }
            assertEquals(List.of("fault 0 10", "fault 1 11", "hit 0", "evicted 0 10", "fault 0 12",
                "evicted 1 11", "fault 1 13", "evicted 0 12", "fault 0 11"), made[0].calls);
            assertEquals(1, replay.hits());
            assertEquals(5, replay.misses());
            assertEquals(3, replay.evictions());
            assertEquals(3, made[0].housekeeping, "once before every eviction");
            assertEquals(12, replay.lastEvicted());
            assertEquals(0, replay.frameOf(11));
            assertEquals(-1, replay.frameOf(10));
            replay.verify();
        }
    }

    @Test
    void aWrittenPageIsWrittenBackOnceWhenEvictedAndAReadOnlyReplayWritesNothing() {
        try (PolicyReplay replay = new PolicyReplay(2, RecordingPolicy::new)) {
            replay.read(1);
            replay.write(1); // a write hit, under the write lock
            replay.write(2); // a write fault
            assertTrue(replay.frames().isModified(replay.frameOf(1)));
            assertTrue(replay.frames().isModified(replay.frameOf(2)));
            assertTrue(replay.frames().isUnlocked(replay.frameOf(2)), "the write fault let go of its lock");
            replay.read(3); // evicts 1
            assertEquals(1, replay.writeBacks());
            assertFalse(replay.frames().isModified(replay.frameOf(3)), "the frame came back clean");
            replay.read(4); // evicts 2
            assertEquals(2, replay.writeBacks());
        }
        try (PolicyReplay replay = new PolicyReplay(2, RecordingPolicy::new)) {
            for (int i = 0; i < 100; i++) {
                replay.read(i % 7);
            }
            assertEquals(0, replay.writeBacks());
        }
    }

    @Test
    void countsTheSameHitsAsTheStaticReplayForARealPolicy() {
        int[] pages = new int[5000];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = (int) (Math.pow((i * 7919L % 1000) / 1000.0, 3) * 400);
        }
        long hits;
        try (PolicyReplay replay = new PolicyReplay(40, frames -> PolicyRegistry.create("clock-pro", frames,
                FlagValues.NONE))) {
            for (int page : pages) {
                replay.read(page);
            }
            replay.verify();
            hits = replay.hits();
        }
        assertEquals(hits, PolicyReplay.hits(pages, 40,
            frames -> PolicyRegistry.create("clock-pro", frames, FlagValues.NONE)));
        assertTrue(hits > 0 && hits < pages.length, "hits " + hits);
    }

    @Test
    void pagesBeyondTheExpectedCountAreAcceptedAndANegativeOneIsRefused() {
        try (PolicyReplay replay = new PolicyReplay(4, 2, RecordingPolicy::new, Sweep.background())) {
            assertFalse(replay.read(1_000_000));
            assertTrue(replay.read(1_000_000));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> replay.read(-3));
            assertTrue(refused.getMessage().contains("page=-3"), refused.getMessage());
        }
    }

    @Test
    void aPolicyThatNeverNamesAVictimFailsNamingItselfInsteadOfSpinning() {
        try (PolicyReplay replay = new PolicyReplay(2, frames -> new RecordingPolicy(frames) {
            @Override
            public int nextVictim(Sweep sweep) {
                return NO_VICTIM;
            }
        })) {
            replay.read(1);
            replay.read(2);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> replay.read(3));
            assertTrue(e.getMessage().contains("recording found no victim in " + PolicyReplay.MAX_EMPTY_SWEEPS),
                e.getMessage());
        }
    }

    @Test
    void aVictimOutsideTheFramesFailsNamingTheFrame() {
        try (PolicyReplay replay = new PolicyReplay(2, frames -> new RecordingPolicy(frames) {
            @Override
            public int nextVictim(Sweep sweep) {
                return 99;
            }
        })) {
            replay.read(1);
            replay.read(2);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> replay.read(3));
            assertTrue(e.getMessage().contains("returned frame 99 outside 0..1"), e.getMessage());
        }
    }

    @Test
    void verifyFindsABindingChangedBehindTheReplaysBack() {
        try (PolicyReplay replay = new PolicyReplay(2, RecordingPolicy::new)) {
            replay.read(5);
            replay.frames().setBinding(replay.frameOf(5), PageKey.of(0, 6));
            IllegalStateException e = assertThrows(IllegalStateException.class, replay::verify);
            assertTrue(e.getMessage().contains("expected page 5"), e.getMessage());
        }
    }

    @Test
    void aClosedReplayRefusesEveryReferenceAndVerifyInsteadOfUsingTheFreedFrameTable() {
        RecordingPolicy[] made = new RecordingPolicy[1];
        PolicyReplay replay = new PolicyReplay(2, frames -> made[0] = new RecordingPolicy(frames));
        replay.read(1);
        replay.close();
        int calls = made[0].calls.size();
        for (Executable use : List.<Executable>of(
                () -> replay.read(1), () -> replay.read(2), () -> replay.write(1), replay::verify)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, use);
            assertEquals("this replay of recording is closed: its frame table is freed", e.getMessage());
        }
        assertEquals(calls, made[0].calls.size(), "the policy was not called");
        replay.close();
    }

    @Test
    void aFrameCountBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new PolicyReplay(0, RecordingPolicy::new));
        assertTrue(e.getMessage().contains("frameCount=0"), e.getMessage());
    }
}
