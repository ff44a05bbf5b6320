package io.ratatosk.policies.clockpro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.PolicyRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pages an unmap or truncate drops without the cold hand choosing them, under a hand or beside it. */
class ClockProDropTest {
    @Test
    void aHotPageDroppedUnderTheHotHandEndsTheTestPeriodsTheHandThenPassesBeforeTheNextFault() {
        for (String policy : List.of(ClockProPolicy.NAME, ClockProPlusPolicy.NAME)) {
            try (FrameTable frames = new FrameTable(8)) {
                ClockProClock clock = (ClockProClock) PolicyRegistry.create(policy, frames,
                    PolicyRegistry.parse(Map.of("pagecache.clockpro.adaptive", "false")));
                for (int frame = 0; frame < 8; frame++) { // pages 0-5 come in hot, 6 and 7 cold in their test period
                    ClockFrames.bind(frames, clock, frame, PageKey.of(0, frame));
                }
                Sweep sweep = Sweep.cooperative(1);
                int victim = clock.nextVictim(sweep); // 6, the oldest cold page: its ghost stays in its place
                long ghostKey = ClockFrames.unbind(frames, clock, victim);
                ClockFrames.bind(frames, clock, victim, PageKey.of(0, 8));
                clock.onHit(frameOf(frames, 7));
                // 7, referenced in its test period, is promoted: the hot hand demotes 0 and moves on to 1. Clock, oldest
                // first: 1-5 hot (the hot hand on 1), ghost 6, ghost 8, 0 cold, 7 hot, 9 cold in test
                victim = clock.nextVictim(sweep);
                ClockFrames.unbind(frames, clock, victim);
                ClockFrames.bind(frames, clock, victim, PageKey.of(0, 9));
                assertTrue(clock.hasGhost(ghostKey), policy);
                assertEquals(6, clock.hotCount(), policy);
                // An unmap drops hot pages 1-5 oldest first, each under the hot hand: it passes the ghosts to 7.
                for (int page = 1; page <= 5; page++) {
                    ClockFrames.unbind(frames, clock, frameOf(frames, page));
                }
                assertFalse(clock.hasGhost(ghostKey), policy + ": the hot hand passed 6's ghost, ending its test period");
                clock.checkInvariants();
                int free = frameOf(frames, -1);
                ClockFrames.bind(frames, clock, free, ghostKey);
                assertEquals("cold, in test", ClockProBits.toString(frames.policyWord(free)),
                    policy + ": page 6, asked for again after its test period, is a new page");
                clock.checkInvariants();
            }
        }
    }

    @Test
    void aPagePromotedWhenNoPageIsHotTakesTheHotHandAtOnceEvenIfTheVictimNamedThenIsNotEvicted() {
        for (String policy : List.of(ClockProPolicy.NAME, ClockProPlusPolicy.NAME)) {
            try (FrameTable frames = new FrameTable(4)) {
                ClockProClock clock = (ClockProClock) PolicyRegistry.create(policy, frames,
                    PolicyRegistry.parse(Map.of("pagecache.clockpro.adaptive", "false")));
                for (int frame = 0; frame < 4; frame++) { // 0 and 1 come in hot, 2 and 3 cold in their test period
                    ClockFrames.bind(frames, clock, frame, PageKey.of(0, frame));
                }
                Sweep sweep = Sweep.cooperative(1);
                int victim = clock.nextVictim(sweep); // 2: its ghost stays in its place
                long ghostKey = ClockFrames.unbind(frames, clock, victim);
                ClockFrames.bind(frames, clock, victim, PageKey.of(0, 4));
                // An unmap drops both hot pages: the hot hand rests nowhere. Clock, oldest first: ghost 2, 3 and 4 cold in test
                ClockFrames.unbind(frames, clock, frameOf(frames, 0));
                ClockFrames.unbind(frames, clock, frameOf(frames, 1));
                clock.onHit(frameOf(frames, 3));
                // The cold hand promotes 3, referenced in its test period, and names 4; the evictor finds 4 pinned
                // meanwhile and evicts nothing. 3 is the only hot page, the newest: every test period before it is over.
                sweep.begin();
                assertEquals(frameOf(frames, 4), clock.nextVictim(sweep), policy);
                assertEquals(1, clock.hotCount(), policy);
                assertFalse(clock.hasGhost(ghostKey), policy + ": the hot hand, going to 3, passed 2's ghost");
                clock.checkInvariants();
                int free = frameOf(frames, -1);
                ClockFrames.bind(frames, clock, free, ghostKey);
                assertEquals("cold, in test", ClockProBits.toString(frames.policyWord(free)),
                    policy + ": page 2, asked for again after its test period, is a new page");
                clock.checkInvariants();
            }
        }
    }

    /** The frame holding page {@code page} of file 0, or an unbound one for -1. */
    private static int frameOf(FrameTable frames, long page) {
        long key = page < 0 ? PageKey.UNBOUND : PageKey.of(0, page);
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            if (frames.binding(frame) == key) {
                return frame;
            }
        }
        throw new AssertionError("no frame holds " + PageKey.toString(key));
    }
}
