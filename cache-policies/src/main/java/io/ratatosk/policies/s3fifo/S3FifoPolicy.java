package io.ratatosk.policies.s3fifo;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.DeferringLock;
import io.ratatosk.policies.FrameQueues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import io.ratatosk.policies.PolicySizes;
import io.ratatosk.policies.RecentReferences;
import io.ratatosk.policies.clockpro.GhostIndex;
import java.util.List;
import java.util.Objects;

/**
 * S3-FIFO: three FIFO queues. New pages enter a small FIFO (10% of the frames); one that was hit
 * while there moves to the main FIFO when it reaches the head, one that was not is evicted and
 * remembered in a ghost FIFO. A page that faults while remembered goes straight to the main FIFO, and
 * its ghost is forgotten.
 * The main FIFO is a clock with a 2-bit frequency: its head goes round again, one count lower,
 * while its count is above zero. Quick demotion is the point: most new pages are never used again
 * and leave after a short stay in the small FIFO. Source: J. Yang, Y. Zhang, Z. Qiu, Y. Yue,
 * R. Vinayak, "FIFO queues are all you need for cache eviction", SOSP 2023.
 *
 * <p>Here the queues are {@link FrameQueues} over the frames and the frequency is the low two bits of
 * the policy word. The ghost FIFO holds exact page keys (a {@link GhostIndex}, its slots in eviction order in
 * a {@link FrameQueues}, so that a ghost that is hit leaves from the middle), not the paper's hashed fingerprints,
 * so no collision lends a page a ghost.
 *
 * <p>With {@code adaptive_ghosts} (off by default, in best-of's s3-fifo expert too) the ghost FIFO's length follows
 * the workload, as ARC's target follows its ghost hits. A ghost's work is to send a page straight to the main FIFO,
 * where it takes a place from the pages there. When the main FIFO's scan first reaches such a page, the page has
 * either been used since (the place paid) and the ghost FIFO grows by one, or not and it shrinks by one, between a
 * twentieth of {@code ghosts} and {@code ghosts}. Where pages come back often but once (LDBC's graph pages) the ghosts
 * then shorten and keep the main FIFO for pages used again: on the anchors' LDBC trace 67.50 / 80.01 / 92.14 at 5% /
 * 10% / 25% of the store against 66.72 / 78.83 / 92.14 (docs/policies.md, "s3-fifo").
 *
 * <p>Concurrency. A hit raises the frequency with one CAS, not retried: lock-free, allocation-free,
 * muninn's cost. Faults, evictions and the queues run under one lock on the miss path; a fault or an
 * eviction that finds it held leaves its event for the holder and returns ({@link DeferringLock}).
 */
public final class S3FifoPolicy implements EvictionPolicy, RecentReferences {
    public static final String NAME = "s3-fifo";
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "S3-FIFO (Yang et al. 2023): a small FIFO filters pages used once, a main FIFO with a 2-bit frequency, a ghost FIFO of evicted pages.",
        List.of(ReadFlag.of(S3FifoFlags.SMALL), ReadFlag.of(S3FifoFlags.GHOSTS), ReadFlag.of(S3FifoFlags.MOVE_THRESHOLD),
            ReadFlag.of(S3FifoFlags.ADAPTIVE_GHOSTS)),
        S3FifoPolicy::create, (frames, settings) -> create(frames, settings, true));

    /** Policy-word bits holding the frequency, 0..3. */
    public static final long FREQUENCY = 3;
    /**
     * A page a ghost sent to the main FIFO that the main FIFO's scan has not reached yet ({@code adaptive_ghosts}); a
     * bit no other policy's word uses, as best-of's experts need (docs/policies.md, "best-of", "Concurrency").
     */
    static final long FROM_GHOST = 1L << 11;
    static final int SMALL = 0;
    static final int MAIN = 1;
    private static final int NONE = FrameQueues.NONE;

    private final FrameTable frames;
    private final int frameCount;
    private final int smallTarget;
    private final int moveThreshold;
    private final FrameQueues queues;
    private final GhostIndex ghosts;
    /** The ghosts' slots in eviction order, oldest first: one FIFO over the slots, so a ghost can leave from the middle. */
    private final FrameQueues ghostOrder;
    private final boolean adaptiveGhosts;
    /** The fewest ghosts an adaptive ghost FIFO keeps room for: a twentieth of the capacity, at least 1. */
    private final int minGhosts;
    /**
     * Faults and evictions that find it held leave their event for its holder ({@link DeferringLock}); none where its
     * owner's lock guards every call ({@link PolicyEntry#guardedFactory()}).
     */
    private final DeferringLock lock;
    // Guarded by lock.
    /** Ghosts kept: the capacity, or with adaptive ghosts what the main FIFO's use of their pages allows. */
    private int ghostLimit;

    S3FifoPolicy(FrameTable frames, int smallTarget, int ghostCapacity, int moveThreshold) {
        this(frames, smallTarget, ghostCapacity, moveThreshold, false, false);
    }

    private S3FifoPolicy(FrameTable frames, int smallTarget, int ghostCapacity, int moveThreshold, boolean adaptiveGhosts,
                         boolean guardedByOwner) {
        this.lock = DeferringLock.of(guardedByOwner, this::faulted, this::evicted);
        this.frames = Objects.requireNonNull(frames, "frames");
        this.frameCount = frames.frameCount();
        this.smallTarget = Math.max(1, Math.min(frameCount, smallTarget));
        this.moveThreshold = moveThreshold;
        this.queues = new FrameQueues(frameCount, 2);
        this.ghosts = new GhostIndex(ghostCapacity);
        this.ghostOrder = new FrameQueues(ghosts.slots(), 1);
        this.adaptiveGhosts = adaptiveGhosts;
        this.minGhosts = Math.max(1, ghostCapacity / 20);
        this.ghostLimit = ghostCapacity;
    }

    /** With the {@code pagecache.s3fifo.*} flags, at their defaults where unset. */
    public static S3FifoPolicy create(FrameTable frames, FlagValues settings) {
        return create(frames, settings, false);
    }

    private static S3FifoPolicy create(FrameTable frames, FlagValues settings, boolean guardedByOwner) {
        int count = frames.frameCount();
        int small = settings.getFrameCount(S3FifoFlags.SMALL, count, Math.max(1, count / 10));
        double ghostsPerFrame = settings.getDouble(S3FifoFlags.GHOSTS);
        long ghosts = Math.min(PolicySizes.MAX_GHOSTS, PolicySizes.ghostCapacity(count, ghostsPerFrame));
        return new S3FifoPolicy(frames, small, (int) ghosts, settings.getInt(S3FifoFlags.MOVE_THRESHOLD),
            settings.getBoolean(S3FifoFlags.ADAPTIVE_GHOSTS), guardedByOwner);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** A word at the highest frequency: {@link #onHit} leaves it. */
    @Override
    public HitFilter hitFilter() {
        return new HitFilter(FREQUENCY, FREQUENCY);
    }

    /** A frequency above zero: hit since its fault or since the main FIFO's scan last lowered it. */
    @Override
    public boolean recentlyReferenced(int frame) {
        return (frames.policyWord(frame) & FREQUENCY) != 0;
    }

    /** Frequency + 1, at most 3; one CAS, a lost race is not retried. */
    @Override
    public void onHit(int frame) {
        long word = frames.policyWord(frame);
        if ((word & FREQUENCY) != FREQUENCY) {
            frames.casPolicyWord(frame, word, word + 1);
        }
    }

    /** A remembered page goes to the main FIFO, and its ghost is forgotten; any other to the small one. Frequency 0. */
    @Override
    public void onFault(int frame, long pageKey) {
        lock.fault(frame, pageKey);
    }

    private void faulted(int frame, long pageKey) {
        queues.remove(frame);
        frames.setPolicyWord(frame, 0);
        int ghost = ghosts.slotOf(pageKey);
        if (ghost != GhostIndex.NONE) {
            // As the paper's and its authors' code: the ghost did its work. Kept, it would hold a place in the
            // ghost FIFO that a page evicted later needs; a loop slightly larger than the cache then keeps
            // nothing (LIRS's loop@1000: 10.8% with it kept, 89.64% forgotten, Caffeine's simulator's 89.62%).
            forget(ghost);
        }
        queues.addTail(ghost != GhostIndex.NONE ? MAIN : SMALL, frame);
        if (adaptiveGhosts && ghost != GhostIndex.NONE) {
            frames.setPolicyWord(frame, FROM_GHOST);
        }
    }

    /** A page leaving the small FIFO is remembered; the oldest ghost goes when there are more than the ghost FIFO keeps. */
    @Override
    public void onEvicted(int frame, long pageKey) {
        lock.evicted(frame, pageKey);
    }

    private void evicted(int frame, long pageKey) {
        if (queues.queueOf(frame) == SMALL) {
            remember(pageKey);
        }
        queues.remove(frame);
        frames.setPolicyWord(frame, 0);
    }

    /**
     * From the small FIFO while it holds its share (or the main FIFO is empty): its head moves to the
     * main FIFO if it was hit enough, else it is the victim. From the main FIFO otherwise: a head with a
     * frequency goes round one count lower, one without is the victim. Pinned pages go round unchanged.
     */
    @Override
    public int nextVictim(Sweep sweep) {
        lock.lock();
        try {
            // Pinned heads passed over in a row, per queue: a queue whose every frame was passed is skipped
            // for the other (the small queue full of pinned pages must not hide the main queue's victims).
            int pinnedSmall = 0;
            int pinnedMain = 0;
            for (long step = 0, limit = victimSearchSteps(frameCount); step < limit; step++) {
                int small = queues.size(SMALL);
                int main = queues.size(MAIN);
                boolean smallExhausted = pinnedSmall >= small;
                boolean mainExhausted = pinnedMain >= main;
                if (smallExhausted && mainExhausted) {
                    return NO_VICTIM;
                }
                boolean fromSmall = !smallExhausted && (small >= smallTarget || mainExhausted);
                int queue = fromSmall ? SMALL : MAIN;
                int frame = queues.head(queue);
                long word = frames.policyWord(frame);
                int frequency = (int) (word & FREQUENCY);
                if (fromSmall && frequency >= moveThreshold) {
                    setBits(frame, FREQUENCY, 0);
                    queues.moveToTail(MAIN, frame);
                } else if (!fromSmall && frequency > 0) {
                    if ((word & FROM_GHOST) != 0) {
                        judgeGhost(true);
                    }
                    setBits(frame, FREQUENCY | FROM_GHOST, frequency - 1);
                    queues.moveToTail(MAIN, frame);
                } else if (!frames.isEvictable(frame)) {
                    queues.moveToTail(queue, frame);
                    if (fromSmall) {
                        pinnedSmall++;
                    } else {
                        pinnedMain++;
                    }
                } else {
                    if (!fromSmall && (word & FROM_GHOST) != 0) {
                        judgeGhost(false);
                        setBits(frame, FROM_GHOST, 0);
                    }
                    // Past the victim, as a clock hand: asked again without an eviction, it names another.
                    queues.moveToTail(queue, frame);
                    return frame;
                }
            }
            return NO_VICTIM;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The steps {@link #nextVictim} takes at most over {@code frameCount} frames before it gives up: five rounds and a
     * few. In a long: as an int it overflowed from 429,496,728 frames on (3.2 TiB of 8 KiB pages) to a negative bound,
     * and the search took no step, so such a cache never found a victim.
     */
    static long victimSearchSteps(int frameCount) {
        return 5L * frameCount + 8;
    }

    /** A new ghost at the end of the FIFO, unless it has one; the oldest go while there are more than {@link #ghostLimit}. */
    private void remember(long pageKey) {
        int slot = ghosts.slotOfOrAdd(pageKey);
        if (slot >= 0) {
            return; // remembered already
        }
        ghostOrder.addTail(0, ~slot);
        trimGhosts();
    }

    /**
     * The main FIFO's scan reached a page a ghost sent there ({@link #FROM_GHOST}, which the caller clears): the ghost
     * FIFO grows by one if the page was used since, and shrinks by one if not (its oldest ghost goes now, if it is
     * full). Only with adaptive ghosts, whose faults alone set the bit.
     */
    private void judgeGhost(boolean used) {
        ghostLimit = used ? Math.min(ghosts.capacity(), ghostLimit + 1) : Math.max(minGhosts, ghostLimit - 1);
        trimGhosts();
    }

    /** The oldest ghosts go while there are more than {@link #ghostLimit}. */
    private void trimGhosts() {
        while (ghosts.size() > ghostLimit) {
            forget(ghostOrder.head(0));
        }
    }

    /** Ghosts kept at most now: the capacity, or less with adaptive ghosts (for tests). */
    public int ghostLimit() {
        lock.lock();
        try {
            return ghostLimit;
        } finally {
            lock.unlock();
        }
    }

    private void forget(int slot) {
        ghostOrder.remove(slot);
        ghosts.remove(slot);
    }

    /** Sets the policy word's {@code mask} bits to {@code bits}; a hit racing this may be lost, as a hit racing a hit may. */
    private void setBits(int frame, long mask, long bits) {
        long word;
        do {
            word = frames.policyWord(frame);
        } while (!frames.casPolicyWord(frame, word, (word & ~mask) | bits));
    }

    /** Whether {@code frame} is in the small FIFO (for tests). */
    public boolean isInSmallFifo(int frame) {
        lock.lock();
        try {
            return queues.queueOf(frame) == SMALL;
        } finally {
            lock.unlock();
        }
    }

    /** Frames in the small and main FIFOs. */
    public int[] queueSizes() {
        lock.lock();
        try {
            return new int[] {queues.size(SMALL), queues.size(MAIN)};
        } finally {
            lock.unlock();
        }
    }

    public boolean hasGhost(long pageKey) {
        lock.lock();
        try {
            return ghosts.slotOf(pageKey) != GhostIndex.NONE;
        } finally {
            lock.unlock();
        }
    }

    /** Every bound frame is in one queue, no unbound one is; the queues are well linked; the ghosts fit. */
    @Override
    public void checkInvariants() {
        lock.lock();
        try {
            queues.checkInvariants(NAME);
            for (int frame = 0; frame < frameCount; frame++) {
                boolean bound = frames.binding(frame) != PageKey.UNBOUND;
                if (bound != (queues.queueOf(frame) != NONE)) {
                    throw new IllegalStateException(NAME + ": frame " + frame + (bound ? " is bound but in no queue"
                        : " is unbound but in queue " + queues.queueOf(frame)));
                }
            }
            ghosts.checkInvariants(NAME);
            ghostOrder.checkInvariants(NAME + " ghosts");
            for (int slot = 0; slot < ghosts.slots(); slot++) {
                if ((ghostOrder.queueOf(slot) != NONE) != (ghosts.keyAt(slot) != PageKey.UNBOUND)) {
                    throw new IllegalStateException(NAME + ": ghost slot " + slot + (ghostOrder.queueOf(slot) != NONE
                        ? " is in the ghost FIFO but holds no ghost" : " holds a ghost the ghost FIFO lost"));
                }
            }
            if (ghostOrder.size(0) != ghosts.size() || ghosts.size() > ghostLimit) {
                throw new IllegalStateException(NAME + ": " + ghostOrder.size(0) + " ghosts listed, " + ghosts.size() + " indexed, "
                    + ghostLimit + " kept at most");
            }
            if (ghostLimit < minGhosts || ghostLimit > ghosts.capacity() || !adaptiveGhosts && ghostLimit != ghosts.capacity()) {
                throw new IllegalStateException(NAME + ": " + ghostLimit + " ghosts kept at most, outside [" + minGhosts + ", "
                    + ghosts.capacity() + "]" + (adaptiveGhosts ? "" : " or not the capacity without adaptive ghosts"));
            }
        } finally {
            lock.unlock();
        }
    }
}
