package io.ratatosk.policies.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.util.ArrayList;
import java.util.List;

/**
 * A test policy that evicts frames round robin and records every call, checking the lock and binding
 * each one sees: what a driver of the policy SPI (the replay driver, the simulator) must call, and how.
 */
public class RecordingPolicy implements EvictionPolicy {
    public final FrameTable frames;
    public final List<String> calls = new ArrayList<>();
    public final List<Sweep> sweeps = new ArrayList<>();
    public int housekeeping;
    public boolean checked;
    private int next;

    public RecordingPolicy(FrameTable frames) {
        this.frames = frames;
    }

    @Override
    public String name() {
        return "recording";
    }

    @Override
    public void onHit(int frame) {
        calls.add("hit " + frame);
    }

    @Override
    public void onFault(int frame, long pageKey) {
        assertTrue(frames.isExclusivelyLocked(frame), "fault outside the exclusive lock");
        assertEquals(pageKey, frames.binding(frame), "fault before binding");
        calls.add("fault " + frame + " " + PageKey.pageId(pageKey));
    }

    @Override
    public void onEvicted(int frame, long pageKey) {
        assertTrue(frames.isExclusivelyLocked(frame), "eviction outside the exclusive lock");
        assertEquals(PageKey.UNBOUND, frames.binding(frame), "evicted frame still bound");
        calls.add("evicted " + frame + " " + PageKey.pageId(pageKey));
    }

    @Override
    public int nextVictim(Sweep sweep) {
        sweeps.add(sweep);
        assertTrue(frames.isEvictable(next), "frame " + next + " named as a victim while not evictable");
        int victim = next;
        next = (next + 1) % frames.frameCount();
        return victim;
    }

    @Override
    public void housekeeping() {
        housekeeping++;
    }

    @Override
    public void checkInvariants() {
        checked = true;
    }
}
