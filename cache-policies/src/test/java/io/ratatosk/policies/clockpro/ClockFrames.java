package io.ratatosk.policies.clockpro;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;

/** Binds and unbinds frames the way the page cache does around a policy's fault and eviction, for the clock tests. */
final class ClockFrames {
    private ClockFrames() {
    }

    static void bind(FrameTable frames, EvictionPolicy clock, int frame, long key) {
        frames.tryExclusiveLock(frame);
        frames.setBinding(frame, key);
        clock.onFault(frame, key);
        frames.unlockExclusive(frame);
    }

    /** Returns the key the frame held. */
    static long unbind(FrameTable frames, EvictionPolicy clock, int frame) {
        frames.tryExclusiveLock(frame);
        long key = frames.binding(frame);
        frames.setBinding(frame, PageKey.UNBOUND);
        clock.onEvicted(frame, key);
        frames.unlockExclusive(frame);
        return key;
    }
}
