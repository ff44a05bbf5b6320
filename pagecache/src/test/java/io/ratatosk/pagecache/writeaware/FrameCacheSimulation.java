package io.ratatosk.pagecache.writeaware;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.EvictionPolicies;
import io.ratatosk.policies.PolicySettings;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * A single-threaded page cache over frame metadata only, driving a policy (optionally wrapped in
 * {@link WriteAwareEviction}) through the same lock and modified-bit protocol as the page cache: a
 * write takes the frame's write lock (which marks it modified) around the hit, a write fault turns
 * its exclusive lock into a write lock, and an eviction counts a write-back when the frame is
 * modified. Counts misses and write-backs (writes).
 */
final class FrameCacheSimulation implements AutoCloseable {
    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final Sweep sweep = Sweep.cooperative(42);
    private final Map<Long, Integer> resident = new HashMap<>();
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private long misses;
    private long writes;

    FrameCacheSimulation(int frameCount, String policyName, boolean writeAware) {
        this.frames = new FrameTable(frameCount);
        EvictionPolicy plain = EvictionPolicies.create(policyName, frames, PolicySettings.defaults());
        this.policy = writeAware ? new WriteAwareEviction(plain, frames, 4, 1, 1) : plain;
        for (int f = 0; f < frameCount; f++) {
            free.add(f);
        }
    }

    void reference(long pageId, boolean write) {
        long key = PageKey.of(0, pageId);
        Integer hit = resident.get(key);
        if (hit != null) {
            int frame = hit;
            if (write) {
                check(frames.tryWriteLock(frame), "write lock");
                policy.onHit(frame);
                frames.unlockWrite(frame);
            } else {
                policy.onHit(frame);
            }
            return;
        }
        misses++;
        int frame = free.isEmpty() ? evict() : lockFree(free.poll());
        frames.clearModifiedExclusively(frame);
        frames.setBinding(frame, key);
        policy.onFault(frame, key);
        resident.put(key, frame);
        if (write) {
            frames.exclusiveToWriteLock(frame);
            frames.unlockWrite(frame);
        } else {
            frames.unlockExclusive(frame);
        }
    }

    private int lockFree(int frame) {
        check(frames.tryExclusiveLock(frame), "exclusive lock of a free frame");
        return frame;
    }

    /** Evicts through the policy; returns the frame, exclusively locked and unbound. */
    private int evict() {
        for (int attempt = 0; ; attempt++) {
            check(attempt < 1_000_000, "a victim within a million attempts");
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM || !frames.tryExclusiveLock(victim)) {
                continue;
            }
            long key = frames.binding(victim);
            if (frames.isModified(victim)) {
                writes++;
                frames.clearModifiedExclusively(victim);
            }
            frames.setBinding(victim, PageKey.UNBOUND);
            policy.onEvicted(victim, key);
            resident.remove(key);
            return victim;
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("simulation broke the frame protocol: expected " + what);
        }
    }

    long misses() {
        return misses;
    }

    /** Dirty evictions: the writes to the file. */
    long writes() {
        return writes;
    }

    EvictionPolicy policy() {
        return policy;
    }

    @Override
    public void close() {
        policy.checkInvariants();
        frames.close();
    }
}
