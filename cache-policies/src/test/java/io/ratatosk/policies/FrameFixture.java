package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;

/** Drives frames through the SPI the way the page cache does: bind, then tell the policy. */
final class FrameFixture {
    private FrameFixture() {
    }

    static void fault(FrameTable frames, EvictionPolicy policy, int frame) {
        long key = PageKey.of(0, frame);
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
    }

    static void faultAll(FrameTable frames, EvictionPolicy policy) {
        for (int frame = 0; frame < frames.frameCount(); frame++) {
            fault(frames, policy, frame);
        }
    }

    /** Evicts the page in {@code frame} and faults another page into it. */
    static void replace(FrameTable frames, EvictionPolicy policy, int frame) {
        long old = frames.binding(frame);
        frames.setBinding(frame, PageKey.UNBOUND);
        policy.onEvicted(frame, old);
        long key = PageKey.of(0, PageKey.pageId(old) + frames.frameCount());
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
    }

    static void hit(EvictionPolicy policy, int frame, int times) {
        for (int i = 0; i < times; i++) {
            policy.onHit(frame);
        }
    }
}
