package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * A worker's operations through linked cursors ({@code openLinkedCursor}): a record read over two pages in one retry
 * loop of the parent, and two pages written by a write cursor and its link. {@link Worker} draws them; they draw from
 * its random source, in the order they always did.
 */
final class LinkedCursorOperations {
    private final Worker worker;
    private final MisuseChecks misuse;
    private final Scenario sc;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    LinkedCursorOperations(Worker worker, MisuseChecks misuse) {
        this.worker = worker;
        this.misuse = misuse;
        this.sc = worker.sc;
        this.rnd = worker.rnd;
        this.trace = worker.trace;
    }

    /**
     * A record over two pages: a read cursor and a cursor linked to it on another page (or past the end), read in
     * one {@code shouldRetry()} loop of the parent, the link kept open across the loop or opened and closed inside
     * it (its pin is validated by the parent all the same); both pages are judged against the model. Then the link
     * is closed first, or with its parent; either way it refuses every call after.
     */
    void linkedRead() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        long first = rnd.nextInt(f.pages);
        long second = rnd.nextInt(f.pages + 8);
        boolean linkInLoop = rnd.nextBoolean();
        boolean readAhead = rnd.nextInt(4) == 0; // the parent's only: a link reads nothing ahead
        trace.append(ref).append(readAhead ? " read-ahead" : "").append(" io(").append(first).append(") link(").append(second)
            .append(linkInLoop ? ") in the loop " : ") ");
        PageCursor parent = ref.pf().io(first, PagedFile.PF_SHARED_READ_LOCK | (readAhead ? PagedFile.PF_READ_AHEAD : 0));
        PageCursor link = null;
        try {
            int slotA = f.slotOf(first);
            int slotB = f.slotOf(second);
            int cutsBefore = f.cutsFinished();
            long maxAcked = f.maxAckedPageId();
            FileModel.Seen seenA = f.seen(slotA, cutsBefore);
            FileModel.Seen seenB = slotB >= 0 ? f.seen(slotB, cutsBefore) : null;
            boolean closedBefore = ref.gen().closed;
            boolean onFirst = worker.pinned(ref, parent.next());
            trace.append("next()=").append(onFirst).append(' ');
            if (closedBefore) {
                throw worker.fail("read cursor next() on " + ref + " returned " + onFirst + " although the cache's close() had"
                    + " returned before the call, instead of throwing IllegalStateException", null);
            }
            if (!onFirst) {
                if (first <= maxAcked && !f.cutSince(cutsBefore)) {
                    throw worker.fail("read cursor next(" + first + ") on " + ref + " returned false (past the end), but page "
                        + maxAcked + " was acknowledged", null);
                }
                return;
            }
            long[] a = new long[PageImage.words(f.pageSize)];
            long[] b = new long[a.length];
            boolean onSecond = false;
            if (!linkInLoop) {
                link = parent.openLinkedCursor(second);
                onSecond = worker.pinned(ref, link.next());
            }
            do {
                PageImage.readPinned(parent, a);
                if (linkInLoop) {
                    try (PageCursor l = parent.openLinkedCursor(second)) {
                        onSecond = worker.pinned(ref, l.next());
                        if (onSecond) {
                            PageImage.readPinned(l, b);
                        }
                    }
                } else if (onSecond) {
                    PageImage.readPinned(link, b);
                }
            } while (parent.shouldRetry());
            trace.append("link next()=").append(onSecond).append(' ');
            // An open link's bounds flag is its own: asked first, it says whether the link's page was cut; the parent's
            // then says whether its own was, or (the link opened in the loop, whose close passed its flag up) either
            boolean linkCut = link != null && link.checkAndClearBoundsFlag();
            boolean parentFlag = parent.checkAndClearBoundsFlag();
            boolean cutUnder = linkCut || parentFlag;
            if (cutUnder && !f.cutSince(cutsBefore)) {
                throw worker.fail("bounds flag raised by in-page reads of " + f.name + " pages " + first + " and " + second
                    + " through a cursor and its link", null);
            }
            if (!onSecond && second <= maxAcked && !f.cutSince(cutsBefore)) {
                throw worker.fail("linked read cursor next(" + second + ") on " + ref + " returned false (past the end), but page "
                    + maxAcked + " was acknowledged", null);
            }
            if (cutUnder) {
                // a truncate cut the parent's page or the link's under the record: void, and the parent says so. The page
                // cut reads nothing (zeros out of bounds); the other, read in bounds, is judged below as it always is
                boolean parentCut = link != null ? parentFlag : allZero(a) || !onSecond;
                boolean secondCut = link != null ? linkCut : !parentCut;
                if (parentCut && secondCut) {
                    worker.expectCutUnder(parent, f, first + " and " + second, a, b);
                } else {
                    worker.expectCutUnder(parent, f, String.valueOf(parentCut ? first : second), parentCut ? a : b);
                }
            }
            judgeLinkedRead(f, first, a, slotA, seenA, "read cursor");
            if (onSecond) {
                judgeLinkedRead(f, second, b, slotB, seenB, "linked read cursor");
            }
            sc.linkedRecords.incrementAndGet();
            if (link != null && rnd.nextBoolean()) {
                trace.append("link closed first ");
                worker.closeCursor(link);
            }
            worker.closeCursor(parent);
            if (link != null) {
                misuse.expectRefusedAfterClose(link, "a linked read cursor after its parent closed");
            }
        } finally {
            if (link != null) {
                worker.closeCursor(link);
            }
            worker.closeCursor(parent);
        }
    }

    private static boolean allZero(long[] words) {
        for (long w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    private void judgeLinkedRead(FileModel f, long id, long[] words, int slot, FileModel.Seen seen, String what) {
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw worker.fail(what + ": " + f.name + " page " + id + " " + e.getMessage() + " after the parent's shouldRetry()"
                + " returned false" + (slot >= 0 ? "; " + f.describe(slot) : ""), null);
        }
        trace.append('v').append(version).append(' ');
        String wrong = slot < 0 ? version == 0 ? null : "holds version " + version + ", but no thread writes it"
            : f.judge(slot, version, seen);
        if (wrong != null) {
            throw worker.fail(what + ": " + (slot >= 0 ? f.describe(slot) : f.name + " page " + id) + " " + wrong, null);
        }
    }

    /**
     * A write cursor and a cursor linked to it, each holding one of this thread's pages and writing its next
     * version; the link closes first (the parent then writes its page once more) or with its parent. Each write
     * is acknowledged once the cursor that made it closed; the link refuses every call after.
     */
    void linkedWrite() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        long first = worker.ownPage(f);
        long second = worker.ownPage(f);
        trace.append(ref).append(" io(").append(first).append(") link(").append(second).append(") ");
        PageCursor parent = ref.pf().io(first, PagedFile.PF_SHARED_WRITE_LOCK);
        PageCursor link = null;
        PendingWrite onParent = new PendingWrite(f);
        PendingWrite onLink = new PendingWrite(f);
        try {
            boolean closedBefore = ref.gen().closed;
            if (!worker.pinned(ref, parent.next())) {
                throw worker.fail("write cursor next() to " + first + " on " + ref + " returned false", null);
            }
            if (closedBefore) {
                throw worker.fail("write cursor next(" + first + ") on " + ref + " succeeded although the cache's close() had"
                    + " returned before the call: a mapping outlived its cache", null);
            }
            worker.checkPosition(parent, first);
            worker.checkMappedWhilePinned(ref, first);
            worker.writeIfOwn(parent, f, first, onParent);
            link = parent.openLinkedCursor(second);
            if (!worker.pinned(ref, link.next())) {
                throw worker.fail("linked write cursor next() to " + second + " on " + ref + " returned false", null);
            }
            worker.checkPosition(link, second);
            worker.checkMappedWhilePinned(ref, second);
            worker.writeIfOwn(link, f, second, onLink);
            sc.linkedRecords.incrementAndGet();
            if (rnd.nextBoolean()) {
                trace.append("link closed first ");
                worker.closeCursor(link);
                onLink.ack();
                worker.writeIfOwn(parent, f, first, onParent); // still pinned by the parent
            }
            worker.closeCursor(parent);
            onParent.ack();
            onLink.ack();
            misuse.expectRefusedAfterClose(link, "a linked write cursor after its parent closed");
        } finally {
            if (link != null) {
                worker.closeCursor(link);
            }
            worker.closeCursor(parent);
            onParent.ack();
            onLink.ack();
        }
    }
}
