package io.ratatosk.policies.deferredlru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import org.junit.jupiter.api.Test;

/** Pages an unmap or truncate drops while a purge's candidates are still being handed out. */
class DeferredLruDropTest {
    @Test
    void aCandidateDroppedAndReusedForANewPageIsNotHandedOutAsTheOldestPage() {
        try (FrameTable frames = new FrameTable(8)) {
            DeferredLruPolicy policy = new DeferredLruPolicy(frames, 8, 4);
            for (int frame = 0; frame < 8; frame++) { // LRU order, oldest first: frames 0..7
                bind(frames, policy, frame, PageKey.of(0, frame));
            }
            Sweep sweep = Sweep.background();
            assertEquals(0, policy.nextVictim(sweep), "the purge collects frames 0-3 and hands out 0");
            unbind(frames, policy, 0);
            bind(frames, policy, 0, PageKey.of(0, 8));
            // A truncate drops page 1 (still a pending candidate), and its frame takes the newest page.
            unbind(frames, policy, 1);
            bind(frames, policy, 1, PageKey.of(0, 9));
            assertEquals(1, policy.lruOrder()[0], "frame 1 holds the newest page now");
            assertEquals(2, policy.nextVictim(sweep), "the oldest page is in frame 2, not the newest in frame 1");
            policy.checkInvariants();
        }
    }

    private static void bind(FrameTable frames, DeferredLruPolicy policy, int frame, long key) {
        assertTrue(frames.tryExclusiveLock(frame));
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
        frames.unlockExclusive(frame);
    }

    private static void unbind(FrameTable frames, DeferredLruPolicy policy, int frame) {
        assertTrue(frames.tryExclusiveLock(frame));
        long key = frames.binding(frame);
        frames.setBinding(frame, PageKey.UNBOUND);
        policy.onEvicted(frame, key);
        frames.unlockExclusive(frame);
    }
}
