package io.ratatosk.policies.clockpro;

import static io.ratatosk.policies.clockpro.ClockProBits.DEMOTED;
import static io.ratatosk.policies.clockpro.ClockProBits.HOT;
import static io.ratatosk.policies.clockpro.ClockProBits.IN_TEST;
import static io.ratatosk.policies.clockpro.ClockProBits.REFERENCED;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import io.ratatosk.policies.DeferringLock;
import io.ratatosk.policies.RecentReferences;
import java.util.Arrays;
import java.util.Objects;

/**
 * The CLOCK-Pro machinery {@link ClockProPolicy} and {@link ClockProPlusPolicy} share: one clock of
 * resident pages and ghosts in recency order, three hands, hot and cold pages, test periods. The two
 * differ only in how the cold target adapts, which they supply through the {@code on...} hooks.
 *
 * <p>The clock is the paper's circular list over fixed {@code int} arrays. Its nodes are the frames
 * (node f is frame f) and the ghost slots (node frames + s is slot s of the {@link GhostIndex}). The
 * list head is the newest node and its predecessor the oldest; hands move from old to new. A page
 * moved to the head keeps its frame; only its node moves. A page evicted in its test period hands
 * its place on the clock to a ghost node, so ghosts keep their recency among the resident pages.
 * A frame's state is in its policy word ({@link ClockProBits}).
 *
 * <p>Why a list and not the frame array itself: with ghosts kept at the frame they were evicted
 * from, a hot-hand pass over the few cold frames removes every ghost at once, and a spared hot page
 * meets the hand again after one round of the frames instead of one round of the whole clock
 * (docs/policies.md tells what that cost in hit ratio).
 *
 * <p>Concurrency. A hit sets the reference bit with a CAS and nothing else, so the hit path is as
 * cheap as muninn's. Everything else (hands, faults, evictions, ghosts) runs under one lock, on the
 * miss path only: a cold-hand step may promote a page, run the hot hand, move nodes, and change the
 * counts and the cold target, which must all move together. Under the lock, policy words change by
 * CAS loops, so a hit racing a hand never loses its reference bit. A fault or an eviction that finds
 * the lock held leaves its event for the holder and returns ({@link DeferringLock}); only the victim
 * choice waits for the lock.
 */
abstract sealed class ClockProClock implements EvictionPolicy, RecentReferences permits ClockProPolicy, ClockProPlusPolicy {
    private static final int NIL = -1;

    final FrameTable frames;
    final int frameCount;
    private final String name;
    private final boolean adaptive;
    /** {@code pagecache.clockpro.authors_correlation}: every hit reaches {@link #onHit}, as in the authors' code. */
    private final boolean authorsCorrelation;
    private final int coldMin;
    private final int coldMax;
    private final GhostIndex ghosts;
    private final int[] prev;
    private final int[] next;
    /**
     * Faults and evictions that find it held leave their event for its holder ({@link DeferringLock}); none where its
     * owner's lock guards every call ({@link io.ratatosk.policies.PolicyEntry#guardedFactory()}).
     */
    private final DeferringLock lock;
    /** The frame of the latest fault until another page's reference bit is set; racy by design, read by every hit that sets one. */
    private int correlatedFrame = NIL;

    // Guarded by lock.
    private int listHead = NIL;
    private int handHot = NIL;
    private int handCold = NIL;
    private int handTest = NIL;
    private int coldTarget;
    private int resident;
    private int hotCount;
    private int residentInTest;
    private int demotedCount;
    private boolean evictedOnce;

    ClockProClock(String name, FrameTable frames, ClockProSizing sizing, boolean guardedByOwner) {
        this.lock = DeferringLock.of(guardedByOwner, this::faulted, this::evicted);
        this.name = Objects.requireNonNull(name, "name");
        this.frames = Objects.requireNonNull(frames, "frames");
        this.frameCount = frames.frameCount();
        this.adaptive = sizing.adaptive();
        this.authorsCorrelation = sizing.authorsCorrelation();
        this.coldMin = sizing.coldMin();
        this.coldMax = sizing.coldMax();
        this.coldTarget = coldMin;
        this.ghosts = new GhostIndex(sizing.ghostCapacity());
        int nodes = frameCount + ghosts.slots();
        this.prev = new int[nodes];
        this.next = new int[nodes];
        Arrays.fill(prev, NIL);
        Arrays.fill(next, NIL);
    }

    @Override
    public final String name() {
        return name;
    }

    // ---------------------------------------------------------------- SPI

    /**
     * Sets the reference bit; retries only while a hand changes the word at the same moment. A hit
     * on the page the latest fault brought in, before any other page's reference bit is set, is a
     * correlated reference (the same page asked for twice in a row) and does not count, as in the
     * authors' reference code: otherwise every page read twice in a row would look reused.
     *
     * <p>A hit on a page whose bit is already set changes nothing, not even the correlated frame: the
     * authors' code ends the correlation at any other page's hit, this one at another page's first hit
     * since a hand cleared its bit. So the word alone tells such a hit ({@link #hitFilter()}), the page
     * cache's hit path skips the call, and the common hit of a hot working set writes nothing shared.
     * {@code pagecache.clockpro.authors_correlation=true} restores the authors' rule, and every hit
     * reaches this method (the hit ratios it moves are in docs/policies.md).
     */
    @Override
    public final void onHit(int frame) {
        long word = frames.policyWord(frame);
        if ((word & REFERENCED) != 0 && !authorsCorrelation) {
            return;
        }
        int correlated = correlatedFrame;
        if (correlated != NIL) {
            if (correlated == frame) {
                return;
            }
            correlatedFrame = NIL;
        }
        while ((word & REFERENCED) == 0 && !frames.casPolicyWord(frame, word, word | REFERENCED)) {
            word = frames.policyWord(frame);
        }
    }

    /** The reference bit, which a hand clears as it passes. */
    @Override
    public final boolean recentlyReferenced(int frame) {
        return (frames.policyWord(frame) & REFERENCED) != 0;
    }

    /** A referenced page, unless the authors' correlation rule is asked for: {@link #onHit} leaves everything as it is. */
    @Override
    public final HitFilter hitFilter() {
        return authorsCorrelation ? HitFilter.passingEveryHit() : new HitFilter(REFERENCED, REFERENCED);
    }

    /**
     * While the cache first fills, pages come in hot until only the cold minimum of frames is free,
     * then cold in their test period. After that a page comes in cold in its test period, or, if it
     * has a ghost, hot when the hot hand can make room for it (cold in test otherwise).
     */
    @Override
    public final void onFault(int frame, long pageKey) {
        lock.fault(frame, pageKey);
    }

    private void faulted(int frame, long pageKey) {
        int slot = ghosts.slotOf(pageKey);
        int ghost = slot == GhostIndex.NONE ? NIL : frameCount + slot;
        int free = frameCount - resident;
        long state = IN_TEST;
        if (!evictedOnce && free > coldMin) {
            state = HOT;
        } else if (ghost != NIL && (evictedOnce || free == 0)) {
            adjustColdTarget(onGhostRefault(ghosts.size(), demotedCount));
            if (canPromote(ghost)) {
                state = HOT;
            }
        }
        if (ghost != NIL && ghosts.keyAt(slot) == pageKey && prev[ghost] != NIL) {
            removeGhost(ghost);
        }
        frames.setPolicyWord(frame, state);
        resident++;
        count(state, 1);
        insertAtHead(frame);
        organizeHands();
        correlatedFrame = frame;
    }

    /**
     * A page evicted in its test period leaves a ghost in its place on the clock; too many ghosts
     * run the test hand. Any other page simply leaves the clock.
     */
    @Override
    public final void onEvicted(int frame, long pageKey) {
        lock.evicted(frame, pageKey);
    }

    private void evicted(int frame, long pageKey) {
        long word = frames.policyWord(frame);
        evictedOnce = true;
        if (prev[frame] == NIL) {
            frames.setPolicyWord(frame, 0);
            return;
        }
        resident--;
        count(word, -1);
        frames.setPolicyWord(frame, 0);
        int stale = ghosts.slotOf(pageKey);
        if (stale != GhostIndex.NONE) {
            // The page cache unbinds a page before it tells us, so another thread may fault the
            // page in again in between: its ghost from an earlier eviction is news no longer.
            removeGhost(frameCount + stale);
        }
        if ((word & (HOT | IN_TEST)) == IN_TEST) {
            int ghost = frameCount + ghosts.add(pageKey);
            replace(frame, ghost);
            if (handCold == ghost) {
                handCold = prev[ghost];
            }
            while (ghosts.overCapacity()) {
                runHandTest();
            }
        } else {
            unlink(frame);
        }
        // An unmap or truncate drops pages the cold hand never chose, a hot one under the hot hand too: unlink left the
        // hand on the page's neighbour, a ghost or a cold page in its test period perhaps, and the next fault, reading
        // that ghost before it moved the hands, came in hot on a test period the hand should have ended. With no hot
        // page left the hot hand rests nowhere: left on a neighbour, a victim choice meeting pinned pages ran it round
        // the clock, ending every test period and dropping every ghost, with no hot page to stop it.
        organizeHands();
    }

    /**
     * Runs the cold hand until it stands on an unreferenced cold page that can be evicted, and
     * returns it (the hand moves past it; the eviction is recorded in {@link #onEvicted}). A round
     * ends when every resident cold page has been passed as pinned in a row, or after twice round
     * the frames; if the cold pages it met were pinned (or there were none), the hot hand demotes
     * one page regardless of the hot target, so that a later call finds a cold page.
     *
     * <p>When frames are free (a background evictor keeps some; the simulator only evicts from a
     * full cache), the pages the cache filled with while it was empty could leave no resident page
     * cold: first the hot hand demotes until the cold target's worth of the resident pages is cold.
     */
    @Override
    public final int nextVictim(Sweep sweep) {
        lock.lock();
        try {
            if (resident < frameCount) {
                while (resident - hotCount < Math.min(coldTarget, resident) && runHandHot(NIL)) {
                    // demoted one
                }
            }
            boolean pinnedSeen = false;
            int pinnedInARow = 0;
            nextHandCold();
            for (long step = 0, limit = coldHandSteps(frameCount); step < limit && handCold != NIL && pinnedInARow < resident - hotCount;
                 step++) {
                int frame = handCold;
                long word = frames.policyWord(frame);
                if ((word & REFERENCED) != 0) {
                    coldPageReferenced(frame, word);
                    pinnedInARow = 0;
                } else {
                    handCold = prev[frame];
                    if (frames.isEvictable(frame)) {
                        nextHandCold();
                        return frame;
                    }
                    pinnedSeen = true;
                    pinnedInARow++;
                }
                nextHandCold();
            }
            if (pinnedSeen || handCold == NIL) {
                runHandHot(NIL);
                nextHandCold();
            }
            return NO_VICTIM;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- hands

    /**
     * The cold hand finds a referenced cold page. In its test period it is promoted to hot if the hot
     * hand can make room, or else starts its test period again; out of it, it starts a new test
     * period. Either way it moves to the list head without its reference bit.
     */
    private void coldPageReferenced(int frame, long word) {
        if ((word & IN_TEST) != 0) {
            adjustColdTarget(onTestPageReferenced());
            // The access is now accounted for: if the hot hand reaches the page and ends its test
            // period before it is promoted, the period counts as unused.
            changeState(frame, word & ~REFERENCED, false);
            // The bit is clear since the line above: one set while the hot hand made room is a new hit, kept.
            moveToHead(frame, canPromote(frame) ? HOT : IN_TEST, true);
        } else {
            if ((word & DEMOTED) != 0) {
                adjustColdTarget(onDemotedReferenced(ghosts.size(), demotedCount));
            }
            moveToHead(frame, IN_TEST, false);
        }
        // The page may be the only one in its test period now (the hot hand may have ended the others' in canPromote):
        // the test hand must rest on it, or the ghost it leaves when evicted is one that no test hand removes. And it
        // may be the only hot page, promoted while the hot hand rested nowhere (an unmap dropped the others): the hand
        // goes to it now, not at the next fault, which would look its page's ghost up before the hand ended its period.
        nextHandHot();
    }

    /**
     * Runs the hot hand until the hot pages are below their target (frames less the cold target) so
     * that {@code candidate} (a resident page or a ghost in its test period) may become hot. False if
     * the hand reached the candidate first, ending its test period, or found nothing to demote.
     */
    private boolean canPromote(int candidate) {
        while (hotCount >= frameCount - coldTarget) {
            if (prev[candidate] == NIL || !isInTest(candidate)) {
                return false;
            }
            if (!runHandHot(candidate)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Moves the hot hand towards {@code trigger} (or, given {@link #NIL}, at most twice round the
     * clock) until it demotes one unreferenced hot page. Referenced hot pages lose the bit and move
     * to the head; cold pages it passes end their test period (ghosts leave the clock).
     */
    private boolean runHandHot(int trigger) {
        long limit = hotHandSteps(frameCount, ghosts.slots());
        boolean demoted = false;
        for (long step = 0; step < limit && handHot != NIL && handHot != trigger; step++) {
            int node = handHot;
            long word = isGhost(node) ? 0 : frames.policyWord(node);
            if (!isGhost(node) && (word & HOT) != 0) {
                if ((word & REFERENCED) != 0) {
                    moveToHead(node, HOT, false);
                } else {
                    // A hit since the hand looked keeps its bit: the page is demoted, the hit not lost.
                    moveToHead(node, tracksDemotion() ? DEMOTED : 0, true);
                    demoted = true;
                    break;
                }
            } else {
                if ((word & (DEMOTED | REFERENCED)) == (DEMOTED | REFERENCED)) {
                    adjustColdTarget(onDemotedReferenced(ghosts.size(), demotedCount));
                    changeState(node, word & ~(DEMOTED | REFERENCED), true); // the reference bit stays
                }
                handHot = prev[node];
                terminateTestPeriod(node);
            }
        }
        nextHandHot();
        return demoted;
    }

    /**
     * The steps the cold hand takes at most in one {@link #nextVictim}: twice round the frames. In a long, as
     * {@link #hotHandSteps} is: as an int it overflowed from 2^30 frames on, and the hand took no step.
     */
    static long coldHandSteps(int frameCount) {
        return 2L * frameCount;
    }

    /**
     * The steps one run of the hot hand takes at most: twice round the clock, every frame and ghost slot. In a long:
     * as an int it overflowed to a negative bound once frames and ghost slots reached 2^30 (clock-pro-plus's default
     * one ghost per frame at 2^29 frames, 4 TiB of 8 KiB pages), and the hand never moved: no page was demoted, none
     * promoted, and with every page hot no victim was ever found.
     */
    static long hotHandSteps(int frameCount, int ghostSlots) {
        return 2L * ((long) frameCount + ghostSlots);
    }

    /** Ends the test period under the test hand and moves it on; evicted() runs it until the ghosts fit, so it must find a node. */
    private void runHandTest() {
        if (handTest == NIL) {
            nextHandTest(); // a hand left unset would end nothing, and evicted() would loop for ever holding the lock
        }
        if (handTest != NIL) {
            int node = handTest;
            terminateTestPeriod(node);
            nextHandTest();
        }
    }

    /** A test period ends: a resident page stays cold out of test, a ghost leaves the clock. */
    private void terminateTestPeriod(int node) {
        if (!isInTest(node)) {
            return;
        }
        boolean referenced = false;
        if (isGhost(node)) {
            removeGhost(node);
        } else {
            long word = frames.policyWord(node);
            referenced = (word & REFERENCED) != 0;
            changeState(node, word & ~(IN_TEST | REFERENCED), true); // the reference bit stays
        }
        adjustColdTarget(onTestPeriodEnded(referenced));
    }

    /** The cold hand rests on the resident cold page with the largest recency. */
    private void nextHandCold() {
        if (resident - hotCount > 0) {
            if (handCold == NIL) {
                handCold = prev[listHead];
            }
            while (!isResidentCold(handCold)) {
                handCold = prev[handCold];
            }
        } else {
            handCold = NIL;
        }
    }

    /**
     * The hot hand rests on the hot page with the largest recency, ending test periods it passes; the test hand then
     * moves on from a period the hot hand ended (to nowhere, where it ended the last one, as when it demoted the last
     * hot page).
     */
    private void nextHandHot() {
        if (hotCount > 0) {
            if (handHot == NIL) {
                handHot = prev[listHead];
            }
            while (!isHot(handHot)) {
                int node = handHot;
                handHot = prev[node];
                terminateTestPeriod(node);
            }
        } else {
            handHot = NIL;
        }
        nextHandTest();
    }

    /** The test hand rests on the page in its test period with the largest recency. */
    private void nextHandTest() {
        if (residentInTest + ghosts.size() > 0) {
            if (handTest == NIL) {
                handTest = handHot == NIL ? prev[listHead] : handHot;
            }
            while (!isInTest(handTest)) {
                handTest = prev[handTest];
            }
        } else {
            handTest = NIL;
        }
    }

    private void organizeHands() {
        nextHandCold();
        nextHandHot();
        nextHandTest();
    }

    // ---------------------------------------------------------------- nodes and states

    private boolean isGhost(int node) {
        return node >= frameCount;
    }

    private boolean isHot(int node) {
        return !isGhost(node) && (frames.policyWord(node) & HOT) != 0;
    }

    private boolean isResidentCold(int node) {
        return !isGhost(node) && (frames.policyWord(node) & HOT) == 0;
    }

    private boolean isInTest(int node) {
        return isGhost(node) || (frames.policyWord(node) & IN_TEST) != 0;
    }

    /**
     * Moves a resident page to the list head in {@code state}. A hand that saw the reference bit set clears it
     * ({@code keepReference} false: a hit meanwhile found it set and did nothing); one that saw it clear keeps a bit a
     * hit sets meanwhile, which the hand never saw.
     */
    private void moveToHead(int frame, long state, boolean keepReference) {
        unlink(frame);
        changeState(frame, state, keepReference);
        insertAtHead(frame);
    }

    /** Sets a resident page's state bits, keeping (or dropping) a reference bit a hit sets meanwhile. */
    private void changeState(int frame, long state, boolean keepReference) {
        long word;
        do {
            word = frames.policyWord(frame);
        } while (!frames.casPolicyWord(frame, word, state | (keepReference ? word & REFERENCED : 0)));
        count(word, -1);
        count(state, 1);
    }

    /** Adds {@code sign} to the counts the state bits of {@code word} fall in. */
    private void count(long word, int sign) {
        if ((word & HOT) != 0) {
            hotCount += sign;
        } else if ((word & IN_TEST) != 0) {
            residentInTest += sign;
        }
        if ((word & DEMOTED) != 0) {
            demotedCount += sign;
        }
    }

    private void removeGhost(int node) {
        unlink(node);
        ghosts.remove(node - frameCount);
    }

    private void insertAtHead(int node) {
        if (listHead == NIL) {
            prev[node] = node;
            next[node] = node;
        } else {
            int tail = prev[listHead];
            next[node] = listHead;
            prev[node] = tail;
            next[tail] = node;
            prev[listHead] = node;
        }
        listHead = node;
    }

    /** Takes {@code node} off the clock; a hand on it moves to its predecessor. */
    private void unlink(int node) {
        int before = prev[node];
        int after = next[node];
        boolean alone = before == node;
        if (listHead == node) {
            listHead = alone ? NIL : after;
        }
        if (handCold == node) {
            handCold = alone ? NIL : before;
        }
        if (handHot == node) {
            handHot = alone ? NIL : before;
        }
        if (handTest == node) {
            handTest = alone ? NIL : before;
        }
        if (!alone) {
            next[before] = after;
            prev[after] = before;
        }
        prev[node] = NIL;
        next[node] = NIL;
    }

    /** Puts {@code replacement} in {@code node}'s place on the clock, hands included. */
    private void replace(int node, int replacement) {
        int before = prev[node];
        int after = next[node];
        if (before == node) {
            prev[replacement] = replacement;
            next[replacement] = replacement;
        } else {
            prev[replacement] = before;
            next[replacement] = after;
            next[before] = replacement;
            prev[after] = replacement;
        }
        listHead = listHead == node ? replacement : listHead;
        handCold = handCold == node ? replacement : handCold;
        handHot = handHot == node ? replacement : handHot;
        handTest = handTest == node ? replacement : handTest;
        prev[node] = NIL;
        next[node] = NIL;
    }

    private void adjustColdTarget(int delta) {
        if (adaptive && delta != 0) {
            coldTarget = Math.max(coldMin, Math.min(coldMax, coldTarget + delta));
        }
    }

    // ---------------------------------------------------------------- adaptation, per policy

    /** Change of the cold target when the cold hand finds a page referenced in its test period. */
    abstract int onTestPageReferenced();

    /** Change of the cold target when a page faults while it has a ghost. */
    abstract int onGhostRefault(int ghostCount, int demotedCount);

    /** Change of the cold target when a test period ends because a hand passed it. */
    abstract int onTestPeriodEnded(boolean referenced);

    /** Change of the cold target when a hand finds a demoted page referenced. */
    abstract int onDemotedReferenced(int ghostCount, int demotedCount);

    /** Whether the hot hand marks the pages it demotes (clock-pro-plus). */
    abstract boolean tracksDemotion();

    // ---------------------------------------------------------------- introspection, checks

    /** The cold target: resident cold pages the policy aims at. */
    public final int coldTarget() {
        lock.lock();
        try {
            return coldTarget;
        } finally {
            lock.unlock();
        }
    }

    public final int hotCount() {
        lock.lock();
        try {
            return hotCount;
        } finally {
            lock.unlock();
        }
    }

    public final int ghostCount() {
        lock.lock();
        try {
            return ghosts.size();
        } finally {
            lock.unlock();
        }
    }

    /** Number of cold pages carrying clock-pro-plus's demoted mark. */
    public final int demotedCount() {
        lock.lock();
        try {
            return demotedCount;
        } finally {
            lock.unlock();
        }
    }

    public final boolean hasGhost(long pageKey) {
        lock.lock();
        try {
            return ghosts.slotOf(pageKey) != GhostIndex.NONE;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The clock is one well-linked circle holding exactly the bound frames and the ghosts; the counts
     * agree with the nodes' states; hot pages are never in test or demoted; the cold target is within
     * its bounds and the hot pages leave the cold minimum; each hand rests on a node of its kind,
     * with no page in test older than the hot hand. (The cold hand may have left a page behind that
     * was pinned when it passed, or named but not evicted: it finds it again on its next round.)
     */
    @Override
    public final void checkInvariants() {
        lock.lock();
        try {
            int linkedFrames = 0;
            int linkedGhosts = 0;
            int hot = 0;
            int inTest = 0;
            int demoted = 0;
            if (listHead != NIL) {
                int node = listHead;
                int steps = 0;
                do {
                    check(prev[next[node]] == node, "node " + node + " and its successor disagree");
                    check(++steps <= prev.length, "the clock does not close");
                    if (isGhost(node)) {
                        linkedGhosts++;
                        check(ghosts.keyAt(node - frameCount) != PageKey.UNBOUND, "ghost node " + node + " is free");
                    } else {
                        linkedFrames++;
                        long word = frames.policyWord(node);
                        check(frames.binding(node) != PageKey.UNBOUND, "unbound frame " + node + " is on the clock");
                        hot += (word & HOT) != 0 ? 1 : 0;
                        inTest += (word & IN_TEST) != 0 ? 1 : 0;
                        demoted += (word & DEMOTED) != 0 ? 1 : 0;
                        check((word & HOT) == 0 || (word & (IN_TEST | DEMOTED)) == 0,
                            "hot frame " + node + " is " + ClockProBits.toString(word));
                        check((word & DEMOTED) == 0 || (tracksDemotion() && (word & IN_TEST) == 0),
                            "frame " + node + " is " + ClockProBits.toString(word));
                    }
                    node = next[node];
                } while (node != listHead);
            }
            int bound = 0;
            for (int frame = 0; frame < frameCount; frame++) {
                bound += frames.binding(frame) != PageKey.UNBOUND ? 1 : 0;
            }
            check(linkedFrames == resident && bound == resident,
                resident + " resident pages counted, " + linkedFrames + " on the clock, " + bound + " frames bound");
            check(linkedGhosts == ghosts.size(), ghosts.size() + " ghosts counted, " + linkedGhosts + " on the clock");
            check(hot == hotCount, "hot count " + hotCount + ", hot frames " + hot);
            check(inTest == residentInTest, "resident pages in test: " + residentInTest + " counted, " + inTest + " found");
            check(demoted == demotedCount, "demoted count " + demotedCount + ", demoted frames " + demoted);
            check(coldTarget >= coldMin && coldTarget <= Math.max(coldMin, coldMax),
                "cold target " + coldTarget + " outside [" + coldMin + ", " + coldMax + "]");
            check(hotCount <= Math.max(0, frameCount - coldMin),
                hotCount + " hot pages leave less than the cold minimum " + coldMin + " of " + frameCount + " frames");
            checkHand("hot", handHot, hotCount > 0, this::isHot);
            checkHand("cold", handCold, resident - hotCount > 0, this::isResidentCold);
            checkHand("test", handTest, residentInTest + ghosts.size() > 0, this::isInTest);
            if (handHot != NIL) {
                for (int node = prev[listHead]; node != handHot; node = prev[node]) {
                    check(!isInTest(node), "node " + node + ", older than the hot hand, is in its test period");
                }
            }
            ghosts.checkInvariants(name);
        } finally {
            lock.unlock();
        }
    }

    private void checkHand(String hand, int node, boolean needed, java.util.function.IntPredicate kind) {
        check(needed == (node != NIL), hand + " hand is " + (node == NIL ? "unset" : "at " + node)
            + " although " + (needed ? "there are" : "there are no") + " pages for it");
        check(node == NIL || (prev[node] != NIL && kind.test(node)), hand + " hand rests on node " + node + " of the wrong kind");
    }

    private void check(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalStateException(name + ": " + problem);
        }
    }
}
