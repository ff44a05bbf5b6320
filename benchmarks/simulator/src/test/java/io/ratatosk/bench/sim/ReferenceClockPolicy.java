package io.ratatosk.bench.sim;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;

/**
 * A textbook one-arm usage-count clock written for the tests only, from the anchors' README: a hit
 * raises usage up to a maximum, a fault starts at the fault usage, the arm (from frame 0) decrements
 * and evicts a frame whose usage before the decrement is at most the threshold. With (4, 1, 1) and
 * (7, 1, 1) it is MUNINN4 and MUNINN7, with (1, 0, 0) CLOCK. It pins the simulator's SPI driver to
 * the anchors independently of cache-policies.
 */
final class ReferenceClockPolicy implements EvictionPolicy {
    private final String name;
    private final FrameTable frames;
    private final int maxUsage;
    private final int faultUsage;
    private final int evictThreshold;
    private long arm;

    ReferenceClockPolicy(String name, FrameTable frames, int maxUsage, int faultUsage, int evictThreshold) {
        this.name = name;
        this.frames = frames;
        this.maxUsage = maxUsage;
        this.faultUsage = faultUsage;
        this.evictThreshold = evictThreshold;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void onHit(int frame) {
        int u = frames.usage(frame);
        if (u < maxUsage) {
            frames.setUsage(frame, u + 1);
        }
    }

    @Override
    public void onFault(int frame, long pageKey) {
        frames.setUsage(frame, faultUsage);
    }

    @Override
    public void onEvicted(int frame, long pageKey) {
        frames.setUsage(frame, 0);
    }

    @Override
    public int nextVictim(Sweep sweep) {
        int n = frames.frameCount();
        // Usage counts reach 0 within maxUsage + 1 passes, so this bound is never reached by a healthy clock.
        for (long step = 0; step < (long) n * (maxUsage + 2); step++) {
            int frame = (int) Math.floorMod(arm++, (long) n);
            int u = frames.usage(frame);
            if (u > 0) {
                frames.setUsage(frame, u - 1);
            }
            if (u <= evictThreshold && frames.isEvictable(frame)) {
                return frame;
            }
        }
        return NO_VICTIM;
    }
}
