package io.ratatosk.policies.bestof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A policy of best-of's own (a miniature's, or the outgoing expert's at a switch) that names as its victim a frame
 * outside its frame table, a bug, is refused naming the policy and the frame before best-of touches the frame: a
 * miniature read and cleared that frame's binding, native memory outside its table, and a switch read the binding
 * (or, for a negative index, threw an ArrayIndexOutOfBoundsException naming nothing).
 */
class VictimOutsideTheTableTest {
    /** 60 frames: a frame one past the last still falls in the last word of a switch's bit sets. */
    private static final int FRAMES = 60;

    @Test
    void aMiniatureNamingAFrameOutsideItsTableIsRefusedNamingIt() {
        PolicyEntry offByOne = new PolicyEntry("off-by-one", "names the frame one past its table's last", List.of(),
            (frames, values) -> new NamingVictim("off-by-one", frames.frameCount()));
        MiniatureSet set = new MiniatureSet(List.of(offByOne), FRAMES, FlagValues.NONE);
        for (int page = 0; page < FRAMES; page++) {
            set.access(PageKey.of(0, page));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> set.access(PageKey.of(0, FRAMES)));
        assertEquals(refusal("the miniature of off-by-one", FRAMES), e.getMessage());
    }

    @Test
    void anOutgoingExpertNamingAFrameOutsideTheTableIsRefusedNamingIt() {
        try (FrameTable frames = new FrameTable(FRAMES)) {
            long[] known = new long[(FRAMES + 63) >>> 6];
            for (int frame = 0; frame < FRAMES; frame++) {
                frames.setBinding(frame, PageKey.of(0, frame));
                known[frame >>> 6] |= 1L << frame;
            }
            for (int bad : new int[] {FRAMES, -2}) {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> EvictionOrder.of(new NamingVictim("off-by-one", bad), frames, known, FRAMES), "victim " + bad);
                assertEquals(refusal("the outgoing expert off-by-one", bad), e.getMessage());
            }
        }
    }

    private static String refusal(String policy, int victim) {
        return BestOfPolicy.NAME + ": " + policy + " named frame " + victim + " as its victim, which is no frame of its"
            + " table (0 to " + (FRAMES - 1) + "): a bug in the policy; nothing was evicted";
    }

    /** Names one frame whenever asked, and ignores every event. */
    private record NamingVictim(String name, int victim) implements EvictionPolicy {
        @Override
        public void onHit(int frame) {
        }

        @Override
        public void onFault(int frame, long pageKey) {
        }

        @Override
        public void onEvicted(int frame, long pageKey) {
        }

        @Override
        public int nextVictim(Sweep sweep) {
            return victim;
        }
    }
}
