package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * A worker's copies through {@code PageCursor.copyTo}, judged byte for byte: from a page of this thread's (in the
 * target's file, another shared file of another page size, or its own file) to one of its pages of a shared file, or
 * within that one page (overlapping ranges copied as if through a buffer), at offsets near the pages' ends and now and
 * then past them or negative, so that the copy is clamped to what both pages hold, or copies nothing and raises the
 * source's bounds flag. The source is read in the same retry loop that copies it, and judged against the model as any
 * read is; the target must then hold those bytes where they were copied and the image it had everywhere else, and
 * gets its image back before its write cursor lets go, so the model holds as before. Only this thread's pages take
 * part: a thread retrying a read of a page another thread's write cursor holds, while that thread retries a read of
 * the page this one holds, would wait for good.
 */
final class CopyOperations {
    private final Worker worker;
    private final Scenario sc;
    private final int t;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    CopyOperations(Worker worker, SplittableRandom rnd) {
        this.worker = worker;
        this.sc = worker.sc;
        this.t = worker.t;
        this.rnd = rnd;
        this.trace = worker.trace;
    }

    void copyTo() throws IOException {
        FileModel to = worker.randomFile();
        FileModel from = rnd.nextInt(4) == 0 ? sc.privateFiles.get(t) : worker.randomFile();
        Ref target = worker.ensureRef(to, false);
        Ref source = from == to ? target : worker.ensureRef(from, false);
        try {
            if (rnd.nextInt(5) == 0) {
                copyIntoNoPage(target, source);
            } else {
                copy(target, source);
            }
        } catch (IllegalStateException e) {
            worker.workOn(source.mayBeClosed() ? source : target); // whichever a close may have unmapped explains it
            throw e;
        }
    }

    private void copy(Ref target, Ref source) throws IOException {
        FileModel to = target.file();
        FileModel from = source.file();
        long targetId = worker.ownPage(to);
        long sourceId = from == to ? worker.ownPage(from) : from.privateOwner >= 0 ? rnd.nextInt(from.pages + 2) : worker.ownPage(from);
        boolean withinPage = sourceId == targetId && from == to;
        int sourceOffset = offset(from.pageSize);
        int targetOffset = offset(to.pageSize);
        int length = switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> -1 - rnd.nextInt(8);
            case 2, 3 -> 1 + rnd.nextInt(64);
            default -> rnd.nextInt(2 * ScenarioConfig.CACHE_PAGE_SIZE);
        };
        trace.append("copyTo from ").append(withinPage ? "the same page" : source + " page " + sourceId).append(" at ")
            .append(sourceOffset).append(" to ").append(target).append(" page ").append(targetId).append(" at ").append(targetOffset)
            .append(", ").append(length).append(" bytes ");
        PageCursor tc = target.pf().io(targetId, PagedFile.PF_SHARED_WRITE_LOCK);
        PendingWrite pending = new PendingWrite(to);
        try {
            if (!tc.next()) {
                throw worker.fail("write cursor next() to " + targetId + " on " + target + " returned false", null);
            }
            worker.checkPosition(tc, targetId);
            worker.checkMappedWhilePinned(target, targetId);
            worker.writeIfOwn(tc, to, targetId, pending); // judges the page, then writes its next version
            long version = to.started(to.slotOf(targetId));
            long[] before = new long[PageImage.words(to.pageSize)];
            PageImage.readPinned(tc, before);
            try {
                if (withinPage) {
                    copyWithinPage(tc, to, targetId, before, sourceOffset, targetOffset, length);
                } else {
                    copyFrom(source, sourceId, tc, to, targetId, before, sourceOffset, targetOffset, length);
                }
            } finally {
                // its image back before the cursor lets go, also where the source's retry failed after a round copied
                PageImage.write(tc, to.tag, targetId, version, PageImage.Access.of(version));
            }
            sc.copies.incrementAndGet();
        } finally {
            worker.closeCursor(tc);
            pending.ack();
        }
    }

    /** How {@link #copyIntoNoPage} leaves its target cursor before the copy. */
    private enum TargetState { UNMOVED, LEFT_ITS_PAGE, CLOSED, READ_CURSOR }

    /**
     * A copy into a cursor that cannot take it: a write cursor before its first {@code next()}, or after a
     * {@code PF_NO_GROW next()} past the file's end returned false (where it held one of this thread's pages and wrote it
     * just before: the frame let go of, its address still at hand), must copy nothing and raise the source's bounds flag
     * as for a target of no bytes, and the page it left must hold what it wrote there, byte for byte; a closed write
     * cursor must throw IllegalStateException, a read cursor IllegalArgumentException.
     */
    private void copyIntoNoPage(Ref target, Ref source) throws IOException {
        FileModel to = target.file();
        FileModel from = source.file();
        TargetState state = TargetState.values()[rnd.nextInt(TargetState.values().length)];
        long targetId = worker.ownPage(to);
        long sourceId = from.privateOwner >= 0 ? rnd.nextInt(from.pages + 2) : worker.ownPage(from);
        int sourceOffset = offset(from.pageSize);
        int targetOffset = offset(to.pageSize);
        int length = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(ScenarioConfig.CACHE_PAGE_SIZE);
        trace.append("copyTo from ").append(source).append(" page ").append(sourceId).append(" at ").append(sourceOffset)
            .append(" into ").append(target).append(' ').append(state).append(" (io(").append(targetId).append(")) at ")
            .append(targetOffset).append(", ").append(length).append(" bytes ");
        boolean readTarget = state == TargetState.READ_CURSOR;
        PageCursor tc = target.pf().io(targetId, readTarget ? PagedFile.PF_SHARED_READ_LOCK
            : PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW);
        PendingWrite pending = new PendingWrite(to);
        try {
            long[] left = null; // what the target cursor wrote to the page it left
            int cutsBefore = to.cutsFinished();
            if (state != TargetState.UNMOVED && tc.next()) { // PF_NO_GROW: false for a page past the file's end
                trace.append("next()=true ");
                worker.checkPosition(tc, targetId);
                if (!readTarget) {
                    worker.checkMappedWhilePinned(target, targetId);
                    worker.writeIfOwn(tc, to, targetId, pending);
                    left = new long[PageImage.words(to.pageSize)];
                    PageImage.readPinned(tc, left);
                }
            }
            if (state == TargetState.LEFT_ITS_PAGE && left != null) {
                long past = target.pf().getLastPageId() + 1;
                if (past > target.pf().maxPageId() || tc.next(past)) {
                    trace.append("no page past the end to move to ");
                    return; // the file reaches its last page id, or another thread grew it past there meanwhile
                }
                trace.append("next(").append(past).append(")=false ");
            } else if (state == TargetState.CLOSED) {
                worker.closeCursor(tc);
                pending.ack();
            }
            try (PageCursor src = source.pf().io(sourceId, PagedFile.PF_SHARED_READ_LOCK)) {
                trace.append("source next()=").append(src.next()).append(' ');
                String call = "copyTo(" + sourceOffset + ", target, " + targetOffset + ", " + length + ") from " + source
                    + " page " + sourceId + " into " + target + "'s cursor of page " + targetId + " " + state;
                if (state == TargetState.CLOSED) {
                    worker.expectIllegalState(() -> src.copyTo(sourceOffset, tc, targetOffset, length), call);
                } else if (readTarget) {
                    expectRefusedForReadTarget(src, tc, sourceOffset, targetOffset, length, call);
                } else {
                    int copied;
                    do {
                        copied = src.copyTo(sourceOffset, tc, targetOffset, length);
                    } while (src.shouldRetry());
                    boolean sourceOn = src.getCurrentPageId() >= 0; // not where a truncate cut the page under the loop
                    boolean flag = src.checkAndClearBoundsFlag();
                    src.clearCursorException(); // such a cut says so: nothing read here to judge
                    String wrong = wrongCopy(sourceOn, copied, flag, from.pageSize, 0, sourceOffset, targetOffset, length);
                    if (wrong != null) {
                        throw worker.fail(call + ", a cursor on no page, " + wrong, null);
                    }
                }
            }
            if (left != null && state == TargetState.LEFT_ITS_PAGE && tc.next(targetId) && !to.cutSince(cutsBefore)) {
                expectTarget(tc, to, targetId, PageImage.bytes(left), "a copy into its write cursor, which had left it");
            }
            sc.copiesIntoNoPage.incrementAndGet();
        } finally {
            worker.closeCursor(tc);
            pending.ack();
        }
    }

    /** A read cursor cannot take a copy: IllegalArgumentException, nothing copied. */
    private void expectRefusedForReadTarget(PageCursor src, PageCursor readTarget, int sourceOffset, int targetOffset, int length,
                                            String call) {
        int copied;
        try {
            copied = src.copyTo(sourceOffset, readTarget, targetOffset, length);
        } catch (IllegalArgumentException expected) {
            return;
        }
        throw worker.fail(call + " returned " + copied + " instead of throwing IllegalArgumentException: the target is a read"
            + " cursor", null);
    }

    /** Mostly in the page, often within 64 bytes of its end; now and then at or past it, or negative. */
    private int offset(int pageSize) {
        int r = rnd.nextInt(16);
        if (r == 0) {
            return pageSize + rnd.nextInt(3);
        }
        if (r == 1) {
            return -1 - rnd.nextInt(8);
        }
        return r < 8 ? pageSize - 1 - rnd.nextInt(64) : rnd.nextInt(pageSize);
    }

    private void copyWithinPage(PageCursor c, FileModel f, long id, long[] before, int sourceOffset, int targetOffset,
                                int length) {
        int copied = c.copyTo(sourceOffset, c, targetOffset, length);
        boolean flag = c.checkAndClearBoundsFlag();
        byte[] expected = PageImage.bytes(before);
        int n = expectCopied(copied, flag, f.pageSize, f.pageSize, sourceOffset, targetOffset, length, "within " + f.name
            + " page " + id);
        if (n > 0) {
            System.arraycopy(expected, sourceOffset, expected, targetOffset, n); // as if through a buffer, as copyTo promises
        }
        expectTarget(c, f, id, expected, "a copy within the page");
    }

    private void copyFrom(Ref source, long sourceId, PageCursor tc, FileModel to, long targetId, long[] before, int sourceOffset,
                          int targetOffset, int length) throws IOException {
        FileModel from = source.file();
        int slot = from.slotOf(sourceId);
        int cutsBefore = from.cutsFinished();
        long maxAcked = from.maxAckedPageId();
        FileModel.Seen seen = slot >= 0 ? from.seen(slot, cutsBefore) : null;
        long[] words = new long[PageImage.words(from.pageSize)];
        int copied;
        try (PageCursor src = source.pf().io(sourceId, PagedFile.PF_SHARED_READ_LOCK)) {
            boolean on = src.next();
            trace.append("source next()=").append(on).append(' ');
            if (!on && sourceId <= maxAcked && !from.cutSince(cutsBefore)) {
                throw worker.fail("read cursor next() to " + sourceId + " on " + source + " returned false (past the end), but page "
                    + maxAcked + " was acknowledged", null);
            }
            do {
                PageImage.readPinned(src, words);
                copied = src.copyTo(sourceOffset, tc, targetOffset, length);
            } while (src.shouldRetry());
            if (on && src.getCurrentPageId() < 0) {
                // a truncate cut the source page under the copy: the last round copied nothing from no page
                if (!from.cutSince(cutsBefore)) {
                    throw worker.fail("a read cursor on page " + sourceId + " of " + source + " was left on no page by its"
                        + " shouldRetry(), but no truncate of the file ran", null);
                }
                if (copied != 0) {
                    throw worker.fail("copyTo from a read cursor left on no page by a truncate of " + from.name + " copied " + copied
                        + " bytes", null);
                }
                src.checkAndClearBoundsFlag();
                worker.expectCutUnder(src, from, String.valueOf(sourceId), words);
                return;
            }
            boolean flag = src.checkAndClearBoundsFlag();
            String wrong = wrongCopy(on, copied, flag, from.pageSize, to.pageSize, sourceOffset, targetOffset, length);
            if (wrong != null) {
                throw worker.fail("copyTo(" + sourceOffset + ", target, " + targetOffset + ", " + length + ") from " + from.name
                    + " page " + sourceId + (on ? "" : " (its next() returned false: on no page)") + " to " + to.name + " page "
                    + targetId + " " + wrong, null);
            }
            if (on) {
                judgeSource(from, sourceId, slot, words, seen);
            }
            byte[] expected = PageImage.bytes(before);
            if (copied > 0) { // as many as the verdict asks for
                System.arraycopy(PageImage.bytes(words), sourceOffset, expected, targetOffset, copied);
            }
            expectTarget(tc, to, targetId, expected, "a copy from " + from.name + " page " + sourceId);
        }
    }

    /** What copyTo promises of its count and the source's bounds flag, both cursors on a page ({@link #wrongCopy}); returns the count. */
    private int expectCopied(int copied, boolean flag, int sourceLimit, int targetLimit, int sourceOffset, int targetOffset,
                             int length, String what) {
        String wrong = wrongCopy(true, copied, flag, sourceLimit, targetLimit, sourceOffset, targetOffset, length);
        if (wrong != null) {
            throw worker.fail("copyTo(" + sourceOffset + ", target, " + targetOffset + ", " + length + ") " + what + " " + wrong,
                null);
        }
        return copied;
    }

    /**
     * Null where {@code copied} and the source's bounds {@code flag} are what copyTo promises, else what is wrong: the
     * length clamped to what both pages hold from the offsets; nothing, and the flag, for a negative argument or a range
     * that starts outside its page (past it for a length of 0). A source on no page ({@code sourceOn} false) holds no bytes,
     * as for its reads: it copies nothing and raises the flag, but for a copy of no bytes from its offset 0.
     */
    static String wrongCopy(boolean sourceOn, int copied, boolean flag, int sourcePageSize, int targetLimit, int sourceOffset,
                            int targetOffset, int length) {
        int sourceLimit = sourceOn ? sourcePageSize : 0;
        int n;
        boolean outside;
        if (sourceOffset < 0 || targetOffset < 0 || length < 0) {
            n = 0;
            outside = true;
        } else {
            n = Math.max(0, Math.min(length, Math.min(sourceLimit - sourceOffset, targetLimit - targetOffset)));
            outside = n == 0 && (length > 0 || sourceOffset > sourceLimit || targetOffset > targetLimit);
        }
        if (copied != n || flag != outside) {
            return "(pages of " + sourceLimit + " and " + targetLimit + " bytes) copied " + copied + " bytes and "
                + (flag ? "raised" : "left") + " the bounds flag; it must copy " + n + " and " + (outside ? "raise" : "leave") + " it";
        }
        return null;
    }

    private void judgeSource(FileModel f, long id, int slot, long[] words, FileModel.Seen seen) {
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw worker.fail("copyTo's source: " + f.name + " page " + id + " " + e.getMessage() + " after shouldRetry() returned"
                + " false" + (slot >= 0 ? "; " + f.describe(slot) : ""), null);
        }
        trace.append("source v").append(version).append(' ');
        String wrong = slot < 0 ? version == 0 ? null : "holds version " + version + ", but no thread writes it"
            : f.judge(slot, version, seen);
        if (wrong != null) {
            throw worker.fail("copyTo's source: " + (slot >= 0 ? f.describe(slot) : f.name + " page " + id) + " " + wrong, null);
        }
    }

    /** The target page, held by this thread's write cursor, must hold {@code expected} byte for byte. */
    private void expectTarget(PageCursor c, FileModel f, long id, byte[] expected, String what) {
        long[] after = new long[PageImage.words(f.pageSize)];
        PageImage.readPinned(c, after);
        byte[] actual = PageImage.bytes(after);
        for (int i = 0; i < expected.length; i++) {
            if (actual[i] != expected[i]) {
                throw worker.fail("after " + what + ", " + f.name + " page " + id + " holds byte " + actual[i] + " at offset " + i
                    + " instead of " + expected[i], null);
            }
        }
    }
}
