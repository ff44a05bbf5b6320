package io.ratatosk.policies.deferredlru;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.core.config.FlagValues;
import io.ratatosk.policies.PolicyEntry;
import io.ratatosk.policies.PolicyEntry.ReadFlag;
import java.util.List;
import java.util.Objects;

/**
 * DeferredLRU on page frames: an LRU list whose order is updated in batches. Where an exact LRU
 * moves a page to the head on every hit (one contended lock per hit), a hit here only pushes the
 * frame onto a lock-free Recent list; once Recent holds the pull threshold of frames, one thread
 * moves them all to the head at once. Frames in Recent are spared by eviction until then, so the
 * policy is LRU with a second chance for the recently hit, and exactly LRU at a pull threshold of 1.
 *
 * <p>Eviction is the thesis's PURGEOLD: under the consolidation lock, a walk from the LRU tail
 * collects up to the purge count of frames that are neither in Recent, pinned, locked nor right
 * after the head; {@code nextVictim} hands them out one by one (a pull invalidates them), and the
 * page cache's evictor refills its free list from them. The list is unlinked only under the lock
 * (at eviction); faults splice frames in after the head with one CAS. State: three int arrays over
 * the frames (prev, next, recentNext) and a tagged Recent head, and the last purge's candidates with
 * which of them are still to be handed out (an int and a boolean per frame); nothing is allocated
 * after startup.
 * Source: Kroilov (2020), chapter 4, algorithms 6 and 9-14, section 5.2.
 */
public final class DeferredLruPolicy implements EvictionPolicy {
    public static final String NAME = "deferred-lru";
    public static final double DEFAULT_PULL_THRESHOLD = 0.9;
    public static final double DEFAULT_PURGE_COUNT = 0.01;
    public static final PolicyEntry ENTRY = new PolicyEntry(NAME,
        "Kroilov's DeferredLRU (2020) on page frames: an LRU list reordered in batches instead of on every hit.",
        List.of(ReadFlag.of(DeferredLruFlags.PULL_THRESHOLD), ReadFlag.of(DeferredLruFlags.PURGE_COUNT)),
        DeferredLruPolicy::create);

    private final FrameTable frames;
    private final DeferredLruList list;
    // Guarded by the list's consolidation lock: frames the last purge collected, handed out in order, and which of
    // them are still to be handed out. A frame dropped meanwhile (an unmap or truncate evicts it unasked) is pending
    // no more: a page faulted into it is the newest, and fit() alone would hand it out as if it were the oldest.
    private final int[] candidates;
    private final boolean[] pending;
    private int candidateCount;
    private int nextCandidate;

    /**
     * @param pullThreshold frames in Recent that trigger a pull, in [1, frames]
     * @param purgeCount    eviction candidates one walk collects, in [1, frames]
     */
    public DeferredLruPolicy(FrameTable frames, int pullThreshold, int purgeCount) {
        this.frames = Objects.requireNonNull(frames, "frames");
        int frameCount = frames.frameCount();
        if (pullThreshold < 1 || pullThreshold > frameCount) {
            throw new IllegalArgumentException(DeferredLruFlags.PULL_THRESHOLD + " must come to [1, " + frameCount + "] frames: "
                + pullThreshold);
        }
        if (purgeCount < 1 || purgeCount > frameCount) {
            throw new IllegalArgumentException(DeferredLruFlags.PURGE_COUNT + " must come to [1, " + frameCount + "] frames: " + purgeCount);
        }
        this.list = new DeferredLruList(frameCount, pullThreshold, this::forgetCandidates);
        this.candidates = new int[purgeCount];
        this.pending = new boolean[frameCount];
    }

    /** With the {@code pagecache.deferred_lru.*} flags, at their defaults where unset. */
    public static DeferredLruPolicy create(FrameTable frames, FlagValues settings) {
        int frameCount = frames.frameCount();
        return new DeferredLruPolicy(frames,
            settings.getFrameCount(DeferredLruFlags.PULL_THRESHOLD, frameCount, share(DEFAULT_PULL_THRESHOLD, frameCount)),
            settings.getFrameCount(DeferredLruFlags.PURGE_COUNT, frameCount, share(DEFAULT_PURGE_COUNT, frameCount)));
    }

    private static int share(double fraction, int frames) {
        return (int) Math.max(1, Math.min(frames, Math.round(fraction * frames)));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Pushes the frame onto Recent unless it is there; the push that fills Recent pulls. */
    @Override
    public void onHit(int frame) {
        list.touch(frame);
    }

    /** Marked "already recent" while it is spliced in after the head, then unmarked (algorithm 11). */
    @Override
    public void onFault(int frame, long pageKey) {
        list.claim(frame);
        list.linkClaimed(frame);
    }

    /** The evicted frame leaves the LRU list (and Recent, through a pull, if a hit put it there). */
    @Override
    public void onEvicted(int frame, long pageKey) {
        list.lock();
        try {
            if (list.isRecent(frame)) {
                list.pullRecent();
            }
            list.unlink(frame);
            pending[frame] = false;
        } finally {
            list.unlock();
        }
    }

    /**
     * The next candidate of the last purge that is still fit to go; when they are used up, a new
     * purge from the tail. If that finds nothing, Recent is pulled (its frames become candidates
     * again) and the walk repeated; a cache whose only evictable frame is the one after the head
     * gives that one up last. NO_VICTIM if every frame is pinned.
     */
    @Override
    public int nextVictim(Sweep sweep) {
        list.lock();
        try {
            int victim = nextCandidate();
            if (victim != NO_VICTIM) {
                return victim;
            }
            if (refill() == 0) {
                list.pullRecent();
                if (refill() == 0) {
                    int first = list.first();
                    return first != DeferredLruList.NIL && fit(first) ? first : NO_VICTIM;
                }
            }
            return nextCandidate();
        } finally {
            list.unlock();
        }
    }

    /** Runs a pull a busy consolidation lock made a hit leave behind. */
    @Override
    public void housekeeping() {
        if (list.pullPending()) {
            list.tryConsolidate();
        }
    }

    private int nextCandidate() {
        while (nextCandidate < candidateCount) {
            int frame = candidates[nextCandidate++];
            if (pending[frame]) {
                pending[frame] = false;
                if (fit(frame)) {
                    return frame;
                }
            }
        }
        return NO_VICTIM;
    }

    private int refill() {
        forgetCandidates();
        return list.purge(candidates.length, this::collect);
    }

    private boolean collect(int frame) {
        if (!frames.isEvictable(frame)) {
            return false;
        }
        candidates[candidateCount++] = frame;
        pending[frame] = true;
        return true;
    }

    /** Still bound, not pinned or locked, and not hit since it was collected. */
    private boolean fit(int frame) {
        return list.isLinked(frame) && !list.isRecent(frame) && frames.isEvictable(frame);
    }

    /** A pull moved frames hit since the purge to the head; the purge's candidates are stale. */
    private void forgetCandidates() {
        while (nextCandidate < candidateCount) {
            pending[candidates[nextCandidate++]] = false;
        }
        candidateCount = 0;
        nextCandidate = 0;
    }

    // ---------------------------------------------------------------- introspection, checks

    /** Bound frames from the head (newest) of the LRU list to its tail; on a quiet cache. */
    public int[] lruOrder() {
        return list.order();
    }

    /** Frames in Recent, the last pushed first; on a quiet cache. */
    public int[] recentFrames() {
        return list.recentNodes();
    }

    public long pulls() {
        return list.pulls();
    }

    public int pullThreshold() {
        return list.pullThreshold();
    }

    public int purgeCount() {
        return candidates.length;
    }

    /**
     * The LRU list holds exactly the bound frames, each once and well linked; Recent agrees with
     * its count and with every frame's recentNext; no frame is left marked; pending candidates are
     * frames.
     */
    @Override
    public void checkInvariants() {
        list.lock();
        try {
            list.checkInvariants(NAME, frame -> frames.binding(frame) != PageKey.UNBOUND);
            if (candidateCount > candidates.length || nextCandidate > candidateCount) {
                throw new IllegalStateException(NAME + ": candidate buffer at " + nextCandidate + " of " + candidateCount);
            }
        } finally {
            list.unlock();
        }
    }
}
