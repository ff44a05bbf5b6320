package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker's checks of what a cursor exception promises ({@code setCursorException}, {@code checkAndClearCursorException},
 * {@code clearCursorException}), on pages of a shared file while the other threads write, evict and cut them: a complaint
 * made in every round of a read loop is reported after it; one made only in a round that a {@code shouldRetry()}
 * returning true ended is not (it spoke of a torn read); a second complaint keeps the first; {@code next()} keeps it and
 * {@code clearCursorException()} forgets it; a parent reports (and clears) its links' complaints, also one a closing link
 * passed up, its own first; a write cursor's {@code shouldRetry()}, always false, keeps it; once reported, nothing is
 * left. Where a truncate cut a read cursor's page under it, the cursor's complaint is that (its page truncated away).
 */
final class CursorExceptionChecks {
    private static final String TRUNCATED = "truncated away";

    private final Worker worker;
    private final Scenario sc;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    CursorExceptionChecks(Worker worker, SplittableRandom rnd) {
        this.worker = worker;
        this.sc = worker.sc;
        this.rnd = rnd;
        this.trace = worker.trace;
    }

    void cursorExceptions() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        long id = rnd.nextInt(f.pages + 8);
        switch (rnd.nextInt(5)) {
            case 0 -> readLoop(ref, id, true);
            case 1 -> readLoop(ref, id, false);
            case 2 -> clearedAndKeptAcrossNext(ref, id);
            case 3 -> throughLink(ref, id, rnd.nextInt(f.pages + 8));
            default -> onWriteCursor(ref, worker.ownPage(f));
        }
        sc.cursorExceptionChecks.incrementAndGet();
    }

    /**
     * A read loop that complains in every round ({@code everyRound}), or only in the first: the complaint is reported
     * after it where it held for the last round, and not where a retry came after it; a cut page's cursor reports that.
     */
    private void readLoop(Ref ref, long id, boolean everyRound) throws IOException {
        FileModel f = ref.file();
        String complaint = "record on page " + id + " of " + f.name + " makes no sense";
        trace.append(everyRound ? "complain every round " : "complain in the first round ").append(ref).append(" io(").append(id)
            .append(") ");
        int cutsBefore = f.cutsFinished();
        try (PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK)) {
            boolean on = c.next();
            long[] words = new long[PageImage.words(f.pageSize)];
            int rounds = 0;
            do {
                PageImage.readPinned(c, words);
                if (everyRound || rounds == 0) {
                    c.setCursorException(complaint);
                    c.setCursorException("a second complaint"); // the first one stands
                }
                if (rounds++ == 0) {
                    LockSupport.parkNanos(100_000); // a little longer on the page: a writer or an eviction now makes it retry
                }
            } while (c.shouldRetry());
            boolean cutUnder = on && c.getCurrentPageId() < 0;
            trace.append("next()=").append(on).append(" rounds ").append(rounds).append(cutUnder ? " cut under " : " ");
            if (cutUnder && !f.cutSince(cutsBefore)) {
                throw worker.fail("a read cursor on page " + id + " of " + ref + " was left on no page by its shouldRetry(), but no"
                    + " truncate of the file ran", null);
            }
            String expected = cutUnder ? TRUNCATED : everyRound || rounds == 1 ? complaint : null;
            expectReported(c, expected, (everyRound ? "a complaint made in every round of a read loop" : rounds == 1
                ? "a complaint made in the only round of a read loop" : "a complaint made in the first of " + rounds + " rounds,"
                + " which shouldRetry() returning true cleared") + (cutUnder ? ", whose page a truncate cut under it" : ""));
            expectReported(c, null, "a cursor exception already reported");
        }
    }

    /** {@code clearCursorException()} forgets a complaint (one with no message too); {@code next()} keeps it. */
    private void clearedAndKeptAcrossNext(Ref ref, long id) throws IOException {
        trace.append("cleared, kept across next() ").append(ref).append(" io(").append(id).append(") ");
        try (PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK)) {
            c.next();
            c.setCursorException(null);
            c.clearCursorException();
            expectReported(c, null, "a complaint that clearCursorException() forgot");
            c.setCursorException(null);
            expectReported(c, "", "a complaint with no message");
            String complaint = "record on page " + id + " points past its page";
            c.setCursorException(complaint);
            trace.append("next()=").append(c.next()).append(' ');
            expectReported(c, complaint, "a complaint made before next()");
        }
    }

    /**
     * A parent and its link: the parent reports its own complaint first and clears the link's too, or reports the
     * link's (passed up where the link closed first); a complaint the link makes in every round of the parent's read
     * loop is reported by the parent after it, or the cut of either page; one a link opened and closed in the loop
     * passed up in its first round only, where the parent's {@code shouldRetry()} returned false after it (a retry
     * clears it: the link's read was torn), or the cut of the parent's page.
     */
    private void throughLink(Ref ref, long id, long linkId) throws IOException {
        FileModel f = ref.file();
        int kind = rnd.nextInt(5);
        trace.append("through a link ").append(ref).append(" io(").append(id).append(") link(").append(linkId).append(") kind ")
            .append(kind).append(' ');
        String own = "record on page " + id + " makes no sense";
        String linked = "its rest on page " + linkId + " makes no sense";
        int cutsBefore = f.cutsFinished();
        try (PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK)) {
            boolean on = c.next();
            PageCursor link = c.openLinkedCursor(linkId);
            boolean linkOn = link.next();
            switch (kind) {
                case 0 -> {
                    c.setCursorException(own);
                    link.setCursorException(linked);
                    expectReported(c, own, "a parent's complaint, its link's made after it");
                    expectReported(link, null, "a link's complaint its parent reported and cleared");
                }
                case 1 -> {
                    link.setCursorException(linked);
                    link.close();
                    expectReported(c, linked, "a complaint a link passed up to its parent as it closed");
                }
                case 2 -> {
                    link.setCursorException(linked);
                    c.clearCursorException();
                    expectReported(link, null, "a link's complaint its parent's clearCursorException() forgot");
                }
                case 3 -> {
                    link.close();
                    linkedInLoop(c, on, ref, id, linkId, linked, cutsBefore);
                }
                default -> {
                    long[] words = new long[PageImage.words(f.pageSize)];
                    do {
                        PageImage.readPinned(c, words);
                        PageImage.readPinned(link, words);
                        link.setCursorException(linked);
                    } while (c.shouldRetry());
                    boolean cutUnder = on && c.getCurrentPageId() < 0 || linkOn && link.getCurrentPageId() < 0;
                    if (cutUnder && !f.cutSince(cutsBefore)) {
                        throw worker.fail("a read cursor on page " + id + " of " + ref + " or its link on page " + linkId + " was left"
                            + " on no page by the parent's shouldRetry(), but no truncate of the file ran", null);
                    }
                    expectReported(c, cutUnder ? TRUNCATED : linked, "a link's complaint made in every round of its parent's read"
                        + " loop" + (cutUnder ? ", one of whose pages a truncate cut under it" : ""));
                }
            }
            expectReported(c, null, "a parent whose cursor exceptions were all reported or cleared");
        }
    }

    /** The parent's read loop opens a link in each round, which complains in the first round only and closes. */
    private void linkedInLoop(PageCursor c, boolean on, Ref ref, long id, long linkId, String linked, int cutsBefore)
        throws IOException {
        FileModel f = ref.file();
        long[] words = new long[PageImage.words(f.pageSize)];
        int rounds = 0;
        do {
            PageImage.readPinned(c, words);
            try (PageCursor link = c.openLinkedCursor(linkId)) {
                if (link.next()) {
                    PageImage.readPinned(link, words);
                }
                if (rounds == 0) {
                    link.setCursorException(linked);
                    LockSupport.parkNanos(100_000); // a little longer on the pages: a writer or an eviction makes it retry
                }
            }
            rounds++;
        } while (c.shouldRetry());
        boolean cutUnder = on && c.getCurrentPageId() < 0;
        trace.append("rounds ").append(rounds).append(cutUnder ? " cut under " : " ");
        if (cutUnder && !f.cutSince(cutsBefore)) {
            throw worker.fail("a read cursor on page " + id + " of " + ref + " was left on no page by its shouldRetry(), but no"
                + " truncate of the file ran", null);
        }
        if (!on && rounds > 1) {
            // A parent on no page (past the end) keeps the complaint a link passed up, though the retry said the link's read
            // tore: shouldRetry() says a cursor on no page keeps its exception, setCursorException() that a retry clears a
            // complaint of a torn read. Until the two agree, either is right; only the complaint itself may be reported.
            expectReportedOrNothing(c, linked, "a complaint a link opened in the first of " + rounds + " rounds of its"
                + " parent's read loop passed up as it closed, the parent on no page");
            return;
        }
        expectReported(c, cutUnder ? TRUNCATED : rounds == 1 ? linked : null, rounds == 1
            ? "a complaint a link opened in the only round of its parent's read loop passed up as it closed"
            + (on ? "" : ", the parent on no page")
            : "a complaint a link opened in the first of " + rounds + " rounds of its parent's read loop passed up as it closed,"
            + " which the parent's shouldRetry() returning true cleared" + (cutUnder ? ", the parent's page cut under it" : ""));
    }

    /** A write cursor's {@code shouldRetry()} returns false and clears nothing. */
    private void onWriteCursor(Ref ref, long id) throws IOException {
        trace.append("on a write cursor ").append(ref).append(" io(").append(id).append(") ");
        try (PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK)) {
            c.next();
            String complaint = "record on page " + id + " makes no sense";
            c.setCursorException(complaint);
            if (c.shouldRetry()) {
                throw worker.fail("shouldRetry() of a write cursor on page " + id + " of " + ref + " returned true", null);
            }
            expectReported(c, complaint, "a write cursor's complaint after its shouldRetry()");
        }
    }

    /** As {@link #expectReported}, where reporting nothing is right too. */
    private void expectReportedOrNothing(PageCursor c, String expected, String what) {
        try {
            c.checkAndClearCursorException();
        } catch (CursorException e) {
            if (!expected.equals(e.getMessage())) {
                throw worker.fail(what + ": checkAndClearCursorException() threw \"" + e.getMessage() + "\", but it must throw \""
                    + expected + "\" or nothing", null);
            }
            trace.append("reported \"").append(e.getMessage()).append("\" ");
            return;
        }
        trace.append("reported nothing ");
    }

    /**
     * {@code checkAndClearCursorException()} of {@code c} must throw a CursorException whose message is (or, for
     * {@link #TRUNCATED}, contains) {@code expected}; any message for an empty one; nothing for null.
     */
    private void expectReported(PageCursor c, String expected, String what) {
        String message = null;
        boolean thrown = false;
        try {
            c.checkAndClearCursorException();
        } catch (CursorException e) {
            thrown = true;
            message = String.valueOf(e.getMessage());
        }
        boolean right = expected == null ? !thrown : thrown && (expected.isEmpty() || (TRUNCATED.equals(expected)
            ? message.contains(TRUNCATED) : message.equals(expected)));
        if (!right) {
            throw worker.fail(what + ": checkAndClearCursorException() " + (thrown ? "threw \"" + message + "\"" : "threw nothing")
                + ", but it must " + (expected == null ? "throw nothing" : "throw \"" + (expected.isEmpty() ? "(any message)"
                : expected) + "\""), null);
        }
        trace.append("reported ").append(thrown ? "\"" + message + "\" " : "nothing ");
    }
}
