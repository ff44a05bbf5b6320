package io.ratatosk.it.lifecycle;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * What each page of one file must hold. The file's pages are slots: slots {@code 0 .. pages-1} are
 * page ids {@code 0 .. pages-1}, the last few are far page ids (sparse, past any cache). A slot is
 * owned by thread {@code slot % threads}: only its owner writes it, so the model knows exactly
 * which versions were started ({@link #started}) and acknowledged ({@link #acked}: its write cursor
 * moved on or closed without an exception). A page read at any time must hold a version between
 * the one acknowledged before the read and the one started after it; an all-zero page only while
 * nothing was acknowledged. Every other page (a hole) must read as zeros.
 *
 * <p>Any thread may cut a shared file to a middle page while the others read and write it ({@link #cutBegins},
 * {@link #cutEnds}). What the model knows of a cut slot: the versions started before the truncate began were cut
 * (their writes had ended: a truncate refuses a page held by a write cursor), and never come back; those started after
 * it returned were written after the cut; of those in between it cannot tell whether their write came before the cut
 * or after it (each came wholly before or wholly after), so their acknowledgements are left out ({@link #ack}).
 * A check that read the model before a cut whose bookkeeping was not yet done ({@link Seen}) takes a page read as
 * zeros, past the end, or cut under its read cursor for what the cut may have made of it.
 */
final class FileModel {
    /** Far page ids: within ext4's 16 TiB at 4k pages, far past every cache, and the last id a page key can address. */
    static final long[] FAR_BASES = {1L << 30, 1L << 40, (1L << 48) - 1};

    final int index;
    final String name;
    final long tag;
    final int pageSize;
    final int pages;
    final int threads;
    final List<Path> spellings;
    private final Function<Path, String> labels;
    private final long[] slotPageIds;
    private final AtomicLongArray started;
    private final AtomicLongArray acked;
    /** The highest page id with an acknowledged write, or -1: the file's last page id can be no lower. */
    private final AtomicLong maxAckedPageId = new AtomicLong(-1);
    /** The one thread that maps and writes this file (a thread's own file), or -1 for a file every thread shares. */
    final int privateOwner;
    /**
     * Per slot, the last version started before a truncate that cut the page off began, 0 if none: the page may never
     * hold that version or an older one again (a cut page that comes back holds zeros, then what is written after).
     */
    private final AtomicLongArray cutFloor;
    /**
     * The file's last page id as far as the model knows, between these two (a thread's own file only, where one
     * thread does everything that moves it): a write cursor's move past the end raises both, a truncate lowers
     * both; an operation that failed half way moves only the bound it may have moved (a failed truncate lowers the
     * floor to the last page acknowledged before its cut: see {@link #truncated}).
     */
    private volatile long lastPageLow = -1;
    private volatile long lastPageHigh = -1;
    /**
     * Per slot, the versions up to this one may or may not have survived a truncate that overlapped their write: an
     * acknowledgement of one of them says nothing of what the page holds, and is left out.
     */
    private final AtomicLongArray uncertainUpTo;
    /** Truncates of this file begun, and those whose bookkeeping is done: see {@link Seen}. */
    private final AtomicInteger cutsBegun = new AtomicInteger();
    private final AtomicInteger cutsFinished = new AtomicInteger();

    FileModel(int index, String name, long tag, int pageSize, int pages, int threads, List<Path> spellings,
              Function<Path, String> labels) {
        this(index, name, tag, pageSize, pages, threads, -1, spellings, labels);
    }

    /** As above; {@code privateOwner} >= 0: a file only that thread uses (see {@link #privateOwner}). */
    FileModel(int index, String name, long tag, int pageSize, int pages, int threads, int privateOwner, List<Path> spellings,
              Function<Path, String> labels) {
        this.index = index;
        this.privateOwner = privateOwner;
        this.name = name;
        this.tag = tag;
        this.pageSize = pageSize;
        this.pages = pages;
        this.threads = threads;
        this.spellings = List.copyOf(spellings);
        this.labels = labels;
        int far = FAR_BASES.length * threads;
        this.slotPageIds = new long[pages + far];
        for (int s = 0; s < pages; s++) {
            slotPageIds[s] = s;
        }
        for (int b = 0; b < FAR_BASES.length; b++) {
            for (int t = 0; t < threads; t++) {
                int slot = pages + b * threads + t;
                // The id of the far slot is on the slot's owner's residue so that ownership reads the same either way.
                long base = FAR_BASES[b] == (1L << 48) - 1 ? FAR_BASES[b] - (threads - 1) : FAR_BASES[b];
                slotPageIds[slot] = base - Math.floorMod(base, threads) + Math.floorMod(slot, threads);
            }
        }
        this.started = new AtomicLongArray(slotPageIds.length);
        this.acked = new AtomicLongArray(slotPageIds.length);
        this.cutFloor = new AtomicLongArray(slotPageIds.length);
        this.uncertainUpTo = new AtomicLongArray(slotPageIds.length);
    }

    int slots() {
        return slotPageIds.length;
    }

    long pageId(int slot) {
        return slotPageIds[slot];
    }

    boolean isFar(int slot) {
        return slot >= pages;
    }

    int owner(int slot) {
        return privateOwner >= 0 ? privateOwner : slot % threads;
    }

    /** The slot of {@code pageId}, or -1 for a page no thread ever writes (a hole). */
    int slotOf(long pageId) {
        if (pageId >= 0 && pageId < pages) {
            return (int) pageId;
        }
        for (int s = pages; s < slotPageIds.length; s++) {
            if (slotPageIds[s] == pageId) {
                return s;
            }
        }
        return -1;
    }

    /** How {@code spelling} reads in reports: short, relative to the scenario's directory. */
    String label(Path spelling) {
        return labels.apply(spelling);
    }

    /** Every spelling's label. */
    List<String> labels() {
        return spellings.stream().map(labels).toList();
    }

    long acked(int slot) {
        return acked.get(slot);
    }

    long started(int slot) {
        return started.get(slot);
    }

    /** The owner begins writing the next version of {@code slot}; returns it. */
    long startWrite(int slot) {
        return started.incrementAndGet(slot);
    }

    /**
     * The owner's write of {@code version} to {@code slot} was acknowledged; left out where a truncate may have cut it
     * (under the lock {@link #cutEnds} takes, so that no acknowledgement of a cut version comes in after its reset).
     */
    synchronized void ack(int slot, long version) {
        if (version <= uncertainUpTo.get(slot)) {
            return;
        }
        acked.accumulateAndGet(slot, version, Math::max);
        maxAckedPageId.accumulateAndGet(pageId(slot), Math::max);
    }

    /**
     * What a check read of the model before it read the page (or its end): the slot's acknowledged version and cut floor,
     * and how many truncates of the file had done their bookkeeping. A truncate begun since (or under way then) may have
     * cut the page without the model saying so yet.
     */
    record Seen(long acked, long cutFloor, int cutsFinished) {
    }

    /** The model of {@code slot} as it is now: read before the page is. */
    Seen seen(int slot) {
        return seen(slot, cutsFinished.get()); // first: a cut that finishes after this left its mark in what is read next
    }

    /** As {@link #seen(int)}, excusing the cuts under way since {@code cutsFinishedBefore} was read (before a cursor's move). */
    Seen seen(int slot, int cutsFinishedBefore) {
        return new Seen(acked.get(slot), cutFloor.get(slot), cutsFinishedBefore);
    }

    /** {@code ackedBefore} of {@code slot} with no cut excused: a thread's own file, which no other thread cuts. */
    Seen seenExactly(int slot, long ackedBefore) {
        return new Seen(ackedBefore, cutFloor.get(slot), Integer.MAX_VALUE);
    }

    /** How many truncates did their bookkeeping so far: read before what {@link #cutSince} is to excuse. */
    int cutsFinished() {
        return cutsFinished.get();
    }

    /** Whether a truncate began since {@code finishedBefore} was read, or was under way then. */
    boolean cutSince(int finishedBefore) {
        return cutsBegun.get() > finishedBefore;
    }

    /** What came of a truncate: the cut made, none (refused, or its cut failed: nothing changed), or not known. */
    enum CutOutcome { MADE, NONE, UNKNOWN }

    /**
     * A truncate of this file begins: returns the versions started so far ({@link #startedNow}), which a cut made by it
     * cuts for certain: each was written under a pin taken before the truncate began, and a truncate that cuts is one
     * that found no write cursor on a page past the cut, so that pin was let go, the version written, before the cut.
     */
    long[] cutBegins() {
        cutsBegun.incrementAndGet();
        return startedNow();
    }

    /** The versions started so far, per slot: read first thing once a truncate returned or failed, for {@link #cutEnds}. */
    long[] startedNow() {
        long[] startedNow = new long[slots()];
        for (int s = 0; s < startedNow.length; s++) {
            startedNow[s] = started(s);
        }
        return startedNow;
    }

    /**
     * The truncate to {@code pageCount} pages that {@link #cutBegins} returned {@code startedBefore} for has returned (or
     * failed), and {@code startedAfter} was read since: each page it may have cut holds zeros, or a version written after
     * the cut. The versions started in between are uncertain from here on (one started after the truncate began may have
     * been written before its cut or after), and an acknowledgement of one is forgotten; one of a version started after
     * the truncate returned stands (the owner wrote it after the cut, and may have acknowledged it before this took the
     * lock). Where the cut was made, the versions started before it began may never come back.
     */
    synchronized void cutEnds(long pageCount, long[] startedBefore, long[] startedAfter, CutOutcome outcome) {
        try {
            if (outcome == CutOutcome.NONE) {
                return;
            }
            long maxAcked = -1;
            for (int s = 0; s < slots(); s++) {
                if (pageId(s) < pageCount) {
                    if (acked(s) > 0) {
                        maxAcked = Math.max(maxAcked, pageId(s));
                    }
                    continue;
                }
                uncertainUpTo.accumulateAndGet(s, startedAfter[s], Math::max);
                if (outcome == CutOutcome.MADE) {
                    cutFloor.accumulateAndGet(s, startedBefore[s], Math::max);
                }
                if (acked(s) <= startedAfter[s]) {
                    acked.set(s, 0);
                } else {
                    maxAcked = Math.max(maxAcked, pageId(s));
                }
            }
            maxAckedPageId.set(maxAcked);
        } finally {
            cutsFinished.incrementAndGet();
        }
    }

    long maxAckedPageId() {
        return maxAckedPageId.get();
    }

    /**
     * A truncate to {@code pageCount} pages of this (private) file returned ({@code certain}), or failed in a way
     * that may or may not have cut: the pages from {@code pageCount} on hold zeros now (or, uncertain, may still hold
     * their last version). Only the owner calls this, with no write of its own in flight.
     */
    void truncated(long pageCount, boolean certain) {
        try {
            truncatedOwnFile(pageCount, certain);
        } finally {
            cutsFinished.incrementAndGet();
        }
    }

    /** A truncate of this (private) file failed cutting it, so it changed nothing: only its bookkeeping is done. */
    void cutChangedNothing() {
        cutsFinished.incrementAndGet();
    }

    private void truncatedOwnFile(long pageCount, boolean certain) {
        long maxAcked = -1;
        for (int s = 0; s < slots(); s++) {
            if (pageId(s) >= pageCount) {
                if (certain) {
                    cutFloor.set(s, started(s));
                }
                acked.set(s, 0);
            } else if (acked(s) > 0) {
                maxAcked = Math.max(maxAcked, pageId(s));
            }
        }
        maxAckedPageId.set(maxAcked);
        if (certain) {
            lastPageHigh = Math.min(lastPageHigh, pageCount - 1);
            lastPageLow = Math.min(lastPageLow, pageCount - 1);
        } else {
            // A cut that failed: it may have cut nothing (the file's cut failed), or cut and failed to write its new
            // last page (past the end on disk), which the next flush or unmap writes and fails while it cannot (see
            // TruncateTest). Only the pages acknowledged before the cut are sure to be there whatever came of it.
            lastPageLow = Math.min(lastPageLow, maxAcked);
        }
    }

    /** A write cursor of the owner moved to {@code pageId} ({@code moved}), or failed trying (it may have grown the file). */
    void grew(long pageId, boolean moved) {
        if (moved) {
            lastPageLow = Math.max(lastPageLow, pageId);
        }
        lastPageHigh = Math.max(lastPageHigh, pageId);
    }

    long lastPageLow() {
        return lastPageLow;
    }

    long lastPageHigh() {
        return lastPageHigh;
    }

    /**
     * Null if {@code version} (read from {@code slot}, with {@code ackedBefore} read before the page was) is
     * possible; else why not.
     */
    String judge(int slot, long version, Seen before) {
        long startedNow = started(slot);
        long ackedBefore = before.acked();
        if (version == 0 && ackedBefore > 0 && !cutSince(before.cutsFinished())) {
            return "reads as never written, but version " + ackedBefore + " was acknowledged (lost write)";
        }
        if (version != 0 && version < ackedBefore) {
            return "holds version " + version + ", but version " + ackedBefore + " was acknowledged (lost write)";
        }
        if (version > startedNow) {
            return "holds version " + version + ", but only " + startedNow + " versions were ever written";
        }
        if (version != 0 && version <= before.cutFloor()) {
            return "holds version " + version + ", but a truncate cut the page off after version " + before.cutFloor()
                + " was written (a cut page came back)";
        }
        return null;
    }

    String describe(int slot) {
        return name + " page " + pageId(slot) + " (slot " + slot + ", owner t" + owner(slot) + ", acked "
            + acked(slot) + ", started " + started(slot) + (cutFloor.get(slot) > 0 ? ", cut after " + cutFloor.get(slot) : "")
            + ")";
    }

    @Override
    public String toString() {
        return name + "[tag " + Long.toHexString(tag) + ", pageSize " + pageSize + ", pages " + pages + ", far ids "
            + Arrays.toString(Arrays.copyOfRange(slotPageIds, pages, slotPageIds.length)) + "]";
    }
}
