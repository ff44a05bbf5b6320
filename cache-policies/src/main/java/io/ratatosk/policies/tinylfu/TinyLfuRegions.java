package io.ratatosk.policies.tinylfu;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.DeferringLock;
import io.ratatosk.policies.FrameQueues;
import io.ratatosk.policies.RecentReferences;
import java.util.Objects;

/**
 * The W-TinyLFU machinery {@link WTinyLfuPolicy} and {@link AdaptiveTinyLfuPolicy} share: an
 * admission window, a main region split into probation and protected, and a {@link FrequencySketch}
 * that decides whether the window's oldest page may enter the main region in place of the main
 * region's victim. The two differ only in how the window's share is set, which they supply through
 * {@link #afterHit} and {@link #windowAfterFault}.
 *
 * <p>Every page faults into the window. When the window holds its target, its oldest page is the
 * candidate: it moves to probation if the sketch counts it used more often than probation's victim
 * (which is then evicted), and is evicted otherwise. A page hit in probation moves to protected;
 * protected beyond its share of the main region demotes its oldest page to probation.
 *
 * <p>In the frame array the regions are {@link FrameQueues}, and LRU order is approximated the way a
 * clock approximates it: a hit only sets the page's reference bit; a referenced page found at the
 * head of its queue loses the bit and goes to the tail of its queue (window, protected) or is promoted
 * (probation to protected). So a hit never moves anything and needs no lock.
 *
 * <p>Concurrency. {@link #onHit} sets the reference bit with one CAS (not retried), adds one
 * to the frame's pending count in its policy word in the same CAS, and lets the policy see the hit
 * ({@link #afterHit}): lock-free and allocation-free. The pending hits reach the sketch when a hand
 * looks at the frame, on the miss path (a frame is always looked at before it can be a candidate
 * or a victim, so admission compares counts that include every hit). Everything else runs under one
 * lock, on the miss path only; a fault or an eviction that finds it held leaves its event for the
 * holder and returns ({@link DeferringLock}). In one thread (the simulator, or the page cache with its evictor off)
 * every count is exact and the policy is deterministic.
 */
public abstract sealed class TinyLfuRegions implements EvictionPolicy, RecentReferences permits WTinyLfuPolicy, AdaptiveTinyLfuPolicy {
    /** Policy-word bit 0: hit since a hand last looked at the page. */
    public static final long REFERENCED = 1;
    /**
     * Where the pending count starts: above the bits the other policies' hits touch (a usage count in
     * bits 0..2, CLOCK-Pro's state in bits 3..5), so that a hit racing best-of's switch between
     * policies never changes a bit another policy counts.
     */
    public static final int PENDING_SHIFT = 6;
    /** Policy-word bits 6..9: hits not yet counted in the sketch, at most 15. */
    public static final long PENDING = 0xfL << PENDING_SHIFT;
    private static final long PENDING_ONE = 1L << PENDING_SHIFT;
    /** Policy-word bit 10: the page's hits are shown to {@link #afterHit} (set at its fault by {@link #faultBits}). */
    static final long SAMPLED = 1L << 10;

    static final int WINDOW = 0;
    static final int PROBATION = 1;
    static final int PROTECTED = 2;
    private static final int NONE = FrameQueues.NONE;
    /** Window pages moved to a main region below its target in one call, so that no miss runs long. */
    private static final int MAX_TRANSFERS = 64;

    final FrameTable frames;
    final int frameCount;
    private final String name;
    private final double protectedShare;
    private final FrequencySketch sketch;
    private final FrameQueues queues;
    /**
     * Guards everything but the policy words, which the hit path changes by CAS; faults and evictions never wait for it.
     * Takes nothing where the owner's lock guards every call ({@link io.ratatosk.policies.PolicyEntry#guardedFactory()}).
     */
    final DeferringLock lock;

    // Guarded by lock.
    private int windowTarget;
    private int protectedTarget;

    TinyLfuRegions(String name, FrameTable frames, TinyLfuSizing sizing, boolean guardedByOwner) {
        this(name, frames, sizing, guardedByOwner, null);
    }

    /** @param sketch the sketch to count in (one an earlier policy over the same frames counted in), or null for a new one */
    TinyLfuRegions(String name, FrameTable frames, TinyLfuSizing sizing, boolean guardedByOwner, FrequencySketch sketch) {
        this.lock = DeferringLock.of(guardedByOwner, this::faulted, this::evicted);
        this.name = Objects.requireNonNull(name, "name");
        this.frames = Objects.requireNonNull(frames, "frames");
        this.frameCount = frames.frameCount();
        this.protectedShare = sizing.protectedShare();
        if (sketch != null && !sketch.sizedFor(frameCount, sizing.sketchPeriod())) {
            throw new IllegalArgumentException(name + ": the sketch handed over was sized for another cache or sample period");
        }
        this.sketch = sketch != null ? sketch : new FrequencySketch(frameCount, sizing.sketchPeriod());
        this.queues = new FrameQueues(frameCount, 3);
        setWindowTarget(sizing.window());
    }

    @Override
    public final String name() {
        return name;
    }

    // ---------------------------------------------------------------- SPI

    /** A saturated word (referenced, pending count full) of an unsampled page: {@link #onHit} leaves it and does nothing else. */
    @Override
    public final HitFilter hitFilter() {
        return new HitFilter(REFERENCED | PENDING | SAMPLED, REFERENCED | PENDING);
    }

    /** The reference bit, which a hand clears as it looks at the page. */
    @Override
    public final boolean recentlyReferenced(int frame) {
        return (frames.policyWord(frame) & REFERENCED) != 0;
    }

    /**
     * Sets the reference bit and counts the hit in the frame's pending count (one CAS, not retried: a
     * lost race loses one count), then shows the hit to the policy's {@link #afterHit}. The sketch
     * itself is only written on the miss path: a hand that looks at the frame moves its pending hits
     * there, so the hit path costs what a usage clock's does.
     */
    @Override
    public final void onHit(int frame) {
        long word = frames.policyWord(frame);
        long next = (word & PENDING) == PENDING ? word | REFERENCED : (word | REFERENCED) + PENDING_ONE;
        if (next != word) {
            // A hot page's word saturates (referenced, pending count full): then a hit writes nothing, so
            // threads hitting the same pages do not pass its cache line between them.
            frames.casPolicyWord(frame, word, next);
        }
        if ((word & SAMPLED) != 0) {
            afterHit(frame);
        }
    }

    /**
     * The page enters the window. While the main region is below its target (a filling cache, or a
     * window that just shrank), the window's overflow moves there without an eviction.
     */
    @Override
    public final void onFault(int frame, long pageKey) {
        lock.fault(frame, pageKey);
    }

    private void faulted(int frame, long pageKey) {
        enter(frame, pageKey, true);
    }

    /**
     * A resident page another policy held, handed over at best-of's switch: it enters as a fault does, but the
     * sketch, which counts requests, does not count it (the requests that brought it in were counted by the policy
     * that held it, or in the sketch handed on). Counted, every resident page would start at one use, as often as a
     * page requested once since the switch: none of those could pass admission before a second request in the
     * window, and a new phase's pages stayed out (ARC's P3 at 381,271 frames: 71.23% counted, 72.89% not, before best-of
     * also counted faults in the sketch; docs/policies.md).
     */
    public final void takeOver(int frame, long pageKey) {
        lock.lock(); // takes nothing under best-of, whose lock guards every call of its experts
        try {
            enter(frame, pageKey, false);
        } finally {
            lock.unlock();
        }
    }

    private void enter(int frame, long pageKey, boolean request) {
        queues.remove(frame);
        long hash = PageKey.hash(pageKey);
        frames.setPolicyWord(frame, faultBits(hash));
        if (request) {
            sketch.countRequest(hash);
        }
        queues.addTail(WINDOW, frame);
        for (int moved = 0; moved < 2 && queues.size(WINDOW) > windowTarget && mainSize() < frameCount - windowTarget; moved++) {
            int oldest = queues.head(WINDOW);
            clearReference(oldest); // its hits go to the sketch; in probation it starts afresh, as in Caffeine
            queues.moveToTail(PROBATION, oldest);
        }
        int window = windowAfterFault(pageKey, hash, windowTarget);
        if (window != windowTarget) {
            setWindowTarget(window);
        }
    }

    @Override
    public final void onEvicted(int frame, long pageKey) {
        lock.evicted(frame, pageKey);
    }

    private void evicted(int frame, long pageKey) {
        sketch.add(PageKey.hash(pageKey), pending(frames.policyWord(frame)));
        queues.remove(frame);
        frames.setPolicyWord(frame, 0);
    }

    /**
     * The window's candidate against the main region's victim when the window is at its target, the
     * main region's victim when the window is below it. Pinned pages are passed over (to the tail of
     * their queue); {@link #NO_VICTIM} when a whole pass found none evictable.
     */
    @Override
    public final int nextVictim(Sweep sweep) {
        lock.lock();
        try {
            int transfers = 0;
            for (long step = 0, limit = victimSearchSteps(frameCount); step < limit; step++) {
                int windowSize = queues.size(WINDOW);
                int mainSize = mainSize();
                boolean fromWindow = windowSize > 0 && (windowSize >= windowTarget || mainSize == 0);
                if (fromWindow) {
                    int candidate = windowCandidate();
                    if (candidate != NONE) {
                        if (mainSize < frameCount - windowTarget && transfers < MAX_TRANSFERS) {
                            queues.moveToTail(PROBATION, candidate);
                            transfers++;
                            continue;
                        }
                        int victim = mainVictim();
                        if (victim == NONE) {
                            return passed(candidate);
                        }
                        if (admits(candidate, victim)) {
                            queues.moveToTail(PROBATION, candidate);
                            return passed(victim);
                        }
                        return passed(candidate);
                    }
                }
                int victim = mainVictim();
                if (victim != NONE) {
                    return passed(victim);
                }
                if (!fromWindow && windowSize > 0) {
                    int candidate = windowCandidate();
                    return candidate != NONE ? passed(candidate) : NO_VICTIM;
                }
                return NO_VICTIM;
            }
            return NO_VICTIM;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- regions

    /**
     * The victim goes to the tail of its queue, as a clock hand moves past the frame it names: if the
     * caller does not evict it after all (it was pinned meanwhile, or a write-aware wrapper skips a dirty
     * page), asking again names another frame. When the eviction happens it leaves its queue anyway.
     */
    private int passed(int frame) {
        queues.moveToTail(queues.queueOf(frame), frame);
        return frame;
    }

    /**
     * The steps {@link #nextVictim} takes at most: once round the frames, and the transfers to a main region below its
     * target. These bounds are longs: as ints they overflowed to negative ones for the largest caches the configuration
     * accepts (the main region's from 715,827,882 pages on, 5.3 TiB of 8 KiB pages; the window's, which may hold every
     * frame, from 2^30), and a search with a negative bound took no step: no victim was ever found there.
     */
    static long victimSearchSteps(int frameCount) {
        return (long) frameCount + MAX_TRANSFERS + 1;
    }

    /** The steps {@link #windowCandidate} takes at most over a window of {@code windowSize} pages: twice round it. */
    static long windowSteps(int windowSize) {
        return 2L * windowSize + 1;
    }

    /** The steps {@link #mainVictim} takes at most over a main region of {@code mainSize} pages: three times round it. */
    static long mainSteps(int mainSize) {
        return 3L * mainSize + 3;
    }

    /** TinyLFU's admission: the candidate must have been used more often than the victim. */
    private boolean admits(int candidate, int victim) {
        return sketch.frequency(PageKey.hash(frames.binding(candidate))) > sketch.frequency(PageKey.hash(frames.binding(victim)));
    }

    /** The window's oldest unreferenced evictable page, referenced ones going round; NONE if all are pinned. */
    private int windowCandidate() {
        int pinned = 0;
        for (long step = 0, limit = windowSteps(queues.size(WINDOW)); step < limit; step++) {
            int frame = queues.head(WINDOW);
            if (frame == NONE) {
                return NONE;
            }
            if (clearReference(frame)) {
                queues.moveToTail(WINDOW, frame);
            } else if (!frames.isEvictable(frame)) {
                queues.moveToTail(WINDOW, frame);
                if (++pinned >= queues.size(WINDOW)) {
                    return NONE;
                }
            } else {
                return frame;
            }
        }
        return NONE;
    }

    /**
     * Probation's oldest unreferenced evictable page. A referenced probation page is promoted to
     * protected instead (protected then demotes its overflow back to probation); an empty probation
     * takes protected's oldest unreferenced page. NONE if every main page is pinned.
     */
    private int mainVictim() {
        int pinned = 0;
        for (long step = 0, limit = mainSteps(mainSize()); step < limit; step++) {
            int frame = queues.head(PROBATION);
            if (frame == NONE) {
                if (!demoteProtected()) {
                    return NONE;
                }
                continue;
            }
            if (clearReference(frame)) {
                queues.moveToTail(PROTECTED, frame);
                while (queues.size(PROTECTED) > protectedTarget && demoteProtected()) {
                    // demoted one
                }
            } else if (!frames.isEvictable(frame)) {
                queues.moveToTail(PROBATION, frame);
                // Every page on probation passed over pinned: protected's oldest comes down to be looked at
                // (before, this gave up while protected still held evictable pages).
                if (++pinned >= queues.size(PROBATION)) {
                    if (!demoteProtected()) {
                        return NONE;
                    }
                    pinned = 0;
                }
            } else {
                return frame;
            }
        }
        return NONE;
    }

    /** Moves protected's oldest unreferenced page to probation (referenced ones go round); false if protected is empty. */
    private boolean demoteProtected() {
        for (int step = 0, limit = queues.size(PROTECTED) + 1; step < limit; step++) {
            int frame = queues.head(PROTECTED);
            if (frame == NONE) {
                return false;
            }
            if (clearReference(frame) && step < limit - 1) {
                queues.moveToTail(PROTECTED, frame);
            } else {
                queues.moveToTail(PROBATION, frame);
                return true;
            }
        }
        return false;
    }

    /**
     * A hand looks at {@code frame}: its pending hits go into the sketch and its reference bit is
     * cleared; true if it was set. A hit racing this may set them again, which is fine.
     */
    private boolean clearReference(int frame) {
        long word = frames.policyWord(frame);
        while ((word & (REFERENCED | PENDING)) != 0) {
            if (frames.casPolicyWord(frame, word, word & ~(REFERENCED | PENDING))) {
                sketch.add(PageKey.hash(frames.binding(frame)), pending(word));
                return (word & REFERENCED) != 0;
            }
            word = frames.policyWord(frame);
        }
        return false;
    }

    private static int pending(long word) {
        return (int) ((word & PENDING) >>> PENDING_SHIFT);
    }

    private int mainSize() {
        return queues.size(PROBATION) + queues.size(PROTECTED);
    }

    final void setWindowTarget(int target) {
        windowTarget = Math.max(1, Math.min(frameCount, target));
        protectedTarget = (int) ((frameCount - windowTarget) * protectedShare);
    }

    // ---------------------------------------------------------------- adaptation, per policy

    /** The policy-word bits a page starts with: {@link #SAMPLED} for a page whose hits {@link #afterHit} sees. */
    abstract long faultBits(long hash);

    /** Sees a hit on a {@link #SAMPLED} page, on the hit path (lock-free, allocation-free, bounded). */
    abstract void afterHit(int frame);

    /** Sees a fault, under the lock, after the page entered the window; returns the window target from now on. */
    abstract int windowAfterFault(long pageKey, long hash, int window);

    // ---------------------------------------------------------------- introspection, checks

    /** Pages the window aims at. */
    public final int windowTarget() {
        lock.lock();
        try {
            return windowTarget;
        } finally {
            lock.unlock();
        }
    }

    /** Resident pages in the window, probation and protected, in that order. */
    public final int[] regionSizes() {
        lock.lock();
        try {
            return new int[] {queues.size(WINDOW), queues.size(PROBATION), queues.size(PROTECTED)};
        } finally {
            lock.unlock();
        }
    }

    /**
     * The sketch this policy counts in, for a later policy over the same frames to go on counting in (best-of's
     * switches). Not thread-safe (see {@link FrequencySketch}): hand it on only once this policy gets no more calls.
     */
    public final FrequencySketch sketch() {
        return sketch;
    }

    /** The sketch's estimate for {@code pageKey}. */
    public final int frequency(long pageKey) {
        lock.lock();
        try {
            return sketch.frequency(PageKey.hash(pageKey));
        } finally {
            lock.unlock();
        }
    }

    /** Every bound frame is in exactly one region and no unbound one is; the queues are well linked. */
    @Override
    public final void checkInvariants() {
        lock.lock();
        try {
            queues.checkInvariants(name);
            for (int frame = 0; frame < frameCount; frame++) {
                boolean bound = frames.binding(frame) != PageKey.UNBOUND;
                if (bound != (queues.queueOf(frame) != NONE)) {
                    throw new IllegalStateException(name + ": frame " + frame + (bound ? " is bound but in no region"
                        : " is unbound but in region " + queues.queueOf(frame)));
                }
            }
            if (windowTarget < 1 || windowTarget > frameCount) {
                throw new IllegalStateException(name + ": window target " + windowTarget + " outside [1, " + frameCount + "]");
            }
        } finally {
            lock.unlock();
        }
    }
}
