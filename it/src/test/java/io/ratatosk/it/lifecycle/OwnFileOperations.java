package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.util.SplittableRandom;

/**
 * A worker's operations on its own file, which no other thread maps, so that the model knows its length exactly: a
 * truncate to a page in its middle under read and linked write cursors, the file's end, an unmap under its cursors.
 * {@link Worker} draws them; they draw from its random source, in the order they always did.
 */
final class OwnFileOperations {
    private final Worker worker;
    private final Scenario sc;
    private final int t;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    OwnFileOperations(Worker worker) {
        this.worker = worker;
        this.sc = worker.sc;
        this.t = worker.t;
        this.rnd = worker.rnd;
        this.trace = worker.trace;
    }

    /** A mapping of this thread's own file, with its last page id checked against the model's bounds. */
    private Ref ownFile() throws IOException {
        FileModel f = sc.privateFiles.get(t);
        Ref ref = worker.ensureRef(f, false);
        checkLastPage(ref, "");
        return ref;
    }

    private void checkLastPage(Ref ref, String after) {
        FileModel f = ref.file();
        long last = ref.pf().getLastPageId();
        if (last < f.lastPageLow() || last > f.lastPageHigh()) {
            if (!worker.alive(ref.pf())) {
                throw new IllegalStateException("unmapped meanwhile"); // a cache close: judged as such
            }
            throw worker.fail("getLastPageId() of " + ref + after + " is " + last + ", where this thread's writes and truncates"
                + " leave it in [" + f.lastPageLow() + ", " + f.lastPageHigh() + "]", null);
        }
        // no other thread moves this file's end: fileSize() is exactly that of the last page id
        long size = ref.pf().fileSize();
        if (size != (last + 1) * f.pageSize) {
            throw worker.fail("fileSize() of " + ref + after + " is " + size + ", but its last page id is " + last + " (pages of "
                + f.pageSize + " bytes)", null);
        }
    }

    /** Writes the next version of {@code id} through a write cursor of its own ({@code PF_NO_GROW} where asked). */
    private boolean writeOwnPage(Ref ref, long id, boolean noGrow) throws IOException {
        FileModel f = ref.file();
        PendingWrite pending = new PendingWrite(f);
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK | (noGrow ? PagedFile.PF_NO_GROW : 0));
        boolean moved = false;
        try {
            trace.append(noGrow ? "NO_GROW " : "").append("write ").append(id).append(' ');
            moved = c.next();
            if (moved) {
                worker.checkPosition(c, id);
                worker.writeIfOwn(c, f, id, pending);
            } else {
                trace.append("=false ");
            }
            return moved;
        } finally {
            if (!noGrow) {
                f.grew(id, moved);
            }
            worker.closeCursor(c);
            pending.ack();
        }
    }

    /**
     * Writes some pages of this thread's own file, then truncates it to a page in its middle (or past its end, or to
     * nothing): the pages from the cut on read as past the end, those before it as they were, and the last page id
     * is the cut's. A cut that failed (an injected failure of the swapper's truncate) changed nothing: the end is where
     * it was and every page holds what it held, the cut pages too (a reader on one finds it again after its
     * {@code shouldRetry()}). A truncate that cut and then failed (writing the new last page, or reading the file's
     * length) leaves the model unsure of those pages.
     */
    void ownFileTruncate() throws IOException {
        Ref ref = ownFile();
        FileModel f = ref.file();
        for (int n = rnd.nextInt(4); n > 0; n--) {
            writeOwnPage(ref, rnd.nextInt(f.pages), false);
        }
        long cut = rnd.nextInt(f.pages + 1);
        if (cut < f.pages && rnd.nextInt(4) == 0) {
            truncateUnderOwnWriteLink(ref, cut);
            return;
        }
        // now and then a read cursor is on a page while the truncate runs: read cursors hold nothing back
        long readId = cut > 0 && rnd.nextBoolean() ? rnd.nextInt((int) cut) : rnd.nextInt(f.pages); // a page kept, half the time
        PageCursor reader = rnd.nextBoolean() ? ref.pf().io(readId, PagedFile.PF_SHARED_READ_LOCK) : null;
        try {
            boolean readerOn = reader != null && reader.next();
            long ackedBefore = readerOn ? f.acked(f.slotOf(readId)) : 0;
            long[] words = new long[PageImage.words(f.pageSize)];
            if (readerOn) {
                PageImage.readPinned(reader, words);
                trace.append("reading ").append(readId).append(' ');
            }
            // and now and then its link reads another page (the parent's shouldRetry() and cursor exception speak for it)
            long linkId = cut < f.pages && rnd.nextBoolean() ? cut + rnd.nextInt((int) (f.pages - cut)) : rnd.nextInt(f.pages);
            PageCursor link = readerOn && rnd.nextBoolean() ? reader.openLinkedCursor(linkId) : null;
            boolean linkOn = link != null && link.next();
            long linkAckedBefore = linkOn ? f.acked(f.slotOf(linkId)) : 0;
            long[] linkWords = new long[words.length];
            if (linkOn) {
                PageImage.readPinned(link, linkWords);
                trace.append("and through a link ").append(linkId).append(' ');
            }
            long lastBefore = ref.pf().getLastPageId();
            trace.append("truncate(").append(cut).append(") ");
            boolean certain = false;
            boolean cutFailed = false;
            f.cutBegins(); // counted, so that a disk check of another thread's cache close excuses it until it is booked
            try {
                ref.pf().truncate(cut);
                certain = true;
                sc.ownTruncates.incrementAndGet();
            } catch (IOException | Error e) {
                if (!FaultInjector.failedAt(e, FaultInjector.TRUNCATE)) {
                    throw e;
                }
                cutFailed = true;
                trace.append("cut failed: ").append(e).append(' ');
            } finally {
                if (!cutFailed) {
                    f.truncated(cut, certain);
                } else {
                    f.cutChangedNothing();
                }
            }
            long cutMade = cut;
            if (cutFailed) {
                // The swapper's cut failed (an IOException naming the file, or the Error as it is): nothing changed, the
                // cache promises, so the end is where it was and every page keeps what it held, a dirty one too
                long lastAfter = ref.pf().getLastPageId();
                if (lastAfter != lastBefore) {
                    throw worker.fail("truncate(" + cut + ") of " + ref + " failed cutting the file, which changes nothing in"
                        + " the cache, but moved its last page id from " + lastBefore + " to " + lastAfter, null);
                }
                cutMade = Long.MAX_VALUE;
                sc.ownCutsFailed.incrementAndGet();
            }
            checkLastPage(ref, " after truncate(" + cut + ")" + (cutFailed ? ", whose cut failed" : ""));
            if (certain && cut <= lastBefore) {
                checkSizeOnDisk(ref, cut);
            }
            if (readerOn) {
                readAcrossTruncate(reader, ref, readId, cutMade, words, ackedBefore,
                    linkOn ? new LinkedRead(link, linkId, linkWords, linkAckedBefore) : null);
            }
        } finally {
            if (reader != null) {
                worker.closeCursor(reader);
            }
        }
        long last = ref.pf().getLastPageId();
        try (PageCursor c = ref.pf().io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                long id = rnd.nextInt(f.pages);
                boolean on = c.next(id);
                trace.append("next(").append(id).append(")=").append(on).append(' ');
                if (on != id <= last) {
                    throw worker.fail("read cursor next(" + id + ") on " + ref + " returned " + on + " after truncate(" + cut
                        + "), which left the last page id " + last, null);
                }
                if (on) {
                    worker.verifyUnderReadCursor(c, f, id, false);
                }
            }
        }
    }

    /**
     * A truncate below the last page that returned normally cut the file on disk: the pages past the cut left it, and are
     * never written again (PagedFile.truncate), so the file is at most {@code cut} pages long. (Exactly that long only once
     * the new last page is on disk: a hole is written at once, a dirty page by the next flush.) No other thread maps this
     * file, so nothing moves its end meanwhile.
     */
    private void checkSizeOnDisk(Ref ref, long cut) throws IOException {
        FileModel f = ref.file();
        long size = Files.size(sc.spellings.real(f.name));
        if (size > cut * f.pageSize) {
            throw worker.fail("truncate(" + cut + ") of " + ref + ", below its last page, returned normally, but the file on disk"
                + " is " + size + " bytes, past " + cut + " pages of " + f.pageSize, null);
        }
    }

    /**
     * A truncate of this thread's own file to {@code cut} pages while a linked write cursor of this thread holds a page
     * at or past the cut (its parent on none): refused with IllegalStateException, and nothing changed: the file is as
     * long as it was, and the held page, written again after the refusal, keeps its versions.
     */
    private void truncateUnderOwnWriteLink(Ref ref, long cut) throws IOException {
        FileModel f = ref.file();
        long held = cut + rnd.nextInt((int) (f.pages - cut));
        trace.append("hold ").append(held).append(" through a link, truncate(").append(cut).append(") ");
        PendingWrite pending = new PendingWrite(f);
        PageCursor parent = ref.pf().io(0, PagedFile.PF_SHARED_WRITE_LOCK);
        try {
            PageCursor link = parent.openLinkedCursor(held);
            boolean moved = false;
            try {
                moved = link.next();
            } finally {
                f.grew(held, moved);
            }
            if (!moved) {
                throw worker.fail("linked write cursor next() to " + held + " on " + ref + " returned false", null);
            }
            worker.writeIfOwn(link, f, held, pending);
            long lastBefore = ref.pf().getLastPageId();
            f.cutBegins();
            try {
                ref.pf().truncate(cut);
                f.truncated(cut, true);
                throw worker.fail("truncate(" + cut + ") of " + ref + " returned normally while this thread's linked write cursor"
                    + " held page " + held, null);
            } catch (IllegalStateException e) {
                f.cutChangedNothing();
                if (!worker.alive(ref.pf())) {
                    throw e; // the cache closed meanwhile: judged as such
                }
                trace.append("refused ");
            }
            long lastAfter = ref.pf().getLastPageId();
            if (lastAfter != lastBefore) {
                throw worker.fail("truncate(" + cut + ") of " + ref + " was refused for a held page, but moved the last page id from "
                    + lastBefore + " to " + lastAfter, null);
            }
            worker.writeIfOwn(link, f, held, pending); // checks the page kept the version just written, and writes the next
        } finally {
            worker.closeCursor(parent); // closes the link too
            pending.ack();
        }
    }

    /**
     * The end of a read that was under way on page {@code id} while this thread's truncate to {@code cut} pages ran.
     * A page cut off: {@code shouldRetry()} returns true and leaves the cursor on no page (its reads out of bounds),
     * and {@code checkAndClearCursorException()} says the page was truncated away. A page kept: the read, repeated
     * as long as {@code shouldRetry()} asks, finds the version it held; also where the cut took only the other page of
     * a linked read, whose retry repeats both.
     */
    private void readAcrossTruncate(PageCursor reader, Ref ref, long id, long cut, long[] words, long ackedBefore,
                                    LinkedRead linked) throws IOException {
        FileModel f = ref.file();
        boolean linkCut = linked != null && linked.id() >= cut;
        if (id < cut && !linkCut) {
            while (reader.shouldRetry()) {
                PageImage.readPinned(reader, words);
                if (linked != null) {
                    PageImage.readPinned(linked.cursor(), linked.words());
                }
            }
            judgeAcrossTruncate(f, id, words, ackedBefore, cut);
            if (linked != null) {
                judgeAcrossTruncate(f, linked.id(), linked.words(), linked.ackedBefore(), cut);
            }
            return;
        }
        long cutId = id >= cut ? id : linked.id();
        if (!reader.shouldRetry()) {
            throw worker.fail("shouldRetry() of a read cursor on page " + id + (linked != null ? " with a link on page " + linked.id()
                : "") + " of " + ref + " returned false after truncate(" + cut + ") cut page " + cutId + " off: the read"
                + " through it is void", null);
        }
        // The read repeated as the retry asks, whole: the cut cursor reads nothing (every word), the other one its page
        do {
            PageImage.readPinned(reader, words);
            if (linked != null) {
                PageImage.readPinned(linked.cursor(), linked.words());
            }
        } while (reader.shouldRetry());
        // an open link's bounds flag is its own, asked first; the parent's then speaks for its own page only
        boolean linkFlag = linked != null && linked.cursor().checkAndClearBoundsFlag();
        boolean parentFlag = reader.checkAndClearBoundsFlag();
        expectCutOrKept(ref, id, cut, words, ackedBefore, id >= cut, parentFlag, "read cursor");
        if (linked != null) {
            expectCutOrKept(ref, linked.id(), cut, linked.words(), linked.ackedBefore(), linkCut, linkFlag, "linked read cursor");
        }
        try {
            reader.checkAndClearCursorException();
        } catch (CursorException e) {
            trace.append("cut under the reader: ").append(e.getMessage()).append(' ');
            (linked != null && id < cut ? sc.linkedReadsCutUnder : sc.readsCutUnder).incrementAndGet();
            return;
        }
        throw worker.fail("a read cursor on page " + cutId + " of " + ref + ", which truncate(" + cut + ") cut off, has no cursor"
            + " exception to say so after " + (id >= cut ? "its" : "its parent's") + " shouldRetry()", null);
    }

    /**
     * After the retry loop of a read across this thread's truncate to {@code cut} pages: page {@code id}, read through a
     * cursor whose own bounds flag was {@code outOfBounds}, was cut ({@code cutOff}: left on no page, every word read as
     * zero out of bounds) or kept (read in bounds, the version it held).
     */
    private void expectCutOrKept(Ref ref, long id, long cut, long[] words, long ackedBefore, boolean cutOff, boolean outOfBounds,
                                 String what) {
        if (!cutOff) {
            if (outOfBounds) {
                throw worker.fail(what + " on page " + id + " of " + ref + ", which truncate(" + cut + ") kept, read out of bounds"
                    + " after the retry that the cut of its other page asked for", null);
            }
            judgeAcrossTruncate(ref.file(), id, words, ackedBefore, cut);
            return;
        }
        for (int i = 0; i < words.length; i++) {
            if (words[i] != 0) {
                throw worker.fail(what + " left on page " + id + " of " + ref + ", which truncate(" + cut + ") cut off, read word "
                    + i + " = " + Long.toHexString(words[i]) + " after its shouldRetry(): a cursor on no page reads nothing", null);
            }
        }
        if (!outOfBounds) {
            throw worker.fail(what + " left on page " + id + " of " + ref + ", which truncate(" + cut + ") cut off, read it in"
                + " bounds (all zeros) after its shouldRetry(): it should be on no page, its reads out of bounds", null);
        }
    }

    private void judgeAcrossTruncate(FileModel f, long id, long[] words, long ackedBefore, long cut) {
        long version = PageImage.versionOf(words, f.tag, id);
        String wrong = f.judge(f.slotOf(id), version, f.seenExactly(f.slotOf(id), ackedBefore));
        if (wrong != null) {
            throw worker.fail("read cursor across truncate(" + cut + "): " + f.describe(f.slotOf(id)) + " " + wrong, null);
        }
    }

    /** A linked read cursor on page {@code id}, what it read, and the version acknowledged before it read. */
    private record LinkedRead(PageCursor cursor, long id, long[] words, long ackedBefore) {
    }

    /**
     * At the end of this thread's own file: a read past it and a {@code PF_NO_GROW} write past it return false and
     * leave the file as long as it was; a write past it grows the file to that page, and reads find it.
     */
    void ownFileEnd() throws IOException {
        Ref ref = ownFile();
        FileModel f = ref.file();
        long last = ref.pf().getLastPageId();
        long past = last + 1 + rnd.nextInt(3);
        // PF_NO_GROW and read-ahead mean nothing more for a read past the end: it grows nothing and reads nothing ahead
        int readFlags = PagedFile.PF_SHARED_READ_LOCK | (rnd.nextBoolean() ? PagedFile.PF_NO_GROW : 0)
            | (rnd.nextInt(4) == 0 ? PagedFile.PF_READ_AHEAD : 0);
        trace.append("last ").append(last).append(" read flags ").append(readFlags).append(' ');
        try (PageCursor c = ref.pf().io(last < 0 ? 0 : last, readFlags)) {
            if (last >= 0 && !c.next()) {
                throw worker.fail("read cursor next() to the last page " + last + " of " + ref + " returned false", null);
            }
            if (c.next(past)) {
                throw worker.fail("read cursor next(" + past + ") on " + ref + " returned true past the last page " + last, null);
            }
        }
        checkLastPage(ref, " after a read past its end");
        // a touch from past the end faults nothing in, and a truncate to more pages than a file can have cuts nothing
        int touched = ref.pf().touch(past, 1 + rnd.nextInt(4));
        if (touched != 0) {
            throw worker.fail("touch(" + past + ", ...) on " + ref + " faulted " + touched + " pages in past the last page " + last, null);
        }
        if (rnd.nextInt(4) == 0) {
            long huge = rnd.nextBoolean() ? Long.MAX_VALUE : ref.pf().maxPageId() + 1;
            trace.append("truncate(").append(huge).append(") ");
            ref.pf().truncate(huge);
        }
        checkLastPage(ref, " after a touch past its end and a truncate to more pages than it has");
        if (past < f.pages) {
            if (writeOwnPage(ref, past, true)) {
                throw worker.fail("PF_NO_GROW write cursor next() to " + past + " on " + ref + " returned true past the last page "
                    + last, null);
            }
            checkLastPage(ref, " after a PF_NO_GROW write cursor's move past its end");
            try (PageCursor w = ref.pf().io(0, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW);
                 PageCursor link = w.openLinkedCursor(past)) {
                if (link.next()) {
                    throw worker.fail("the linked cursor of a PF_NO_GROW write cursor moved to " + past + " on " + ref
                        + ", past the last page " + last + ": a link takes its parent's PF_NO_GROW", null);
                }
            }
            checkLastPage(ref, " after a PF_NO_GROW write cursor's link moved past its end");
            if (!writeOwnPage(ref, past, false)) {
                throw worker.fail("write cursor next() to " + past + " on " + ref + " returned false: a write grows the file", null);
            }
            checkLastPage(ref, " after a write cursor grew it to page " + past);
            try (PageCursor c = ref.pf().io(past, PagedFile.PF_SHARED_READ_LOCK)) {
                if (!c.next()) {
                    throw worker.fail("read cursor next() to " + past + " on " + ref + " returned false after a write grew the file"
                        + " to it", null);
                }
                worker.verifyUnderReadCursor(c, f, past, false);
            }
        }
        sc.ownEndChecks.incrementAndGet();
    }

    /**
     * This thread's own file, held by this thread alone, unmapped while a read cursor is pinned on a page (with a link
     * on another, now and then) and a write cursor is open on none: the close unmaps it (it is the only reference),
     * reads through the pinned cursor do not crash, and every call that needs the mapping throws
     * IllegalStateException. Mapped again, the file holds what was written, exactly.
     */
    void ownFileUnmapUnderCursors() throws IOException {
        Ref ref = ownFile();
        FileModel f = ref.file();
        for (Ref other : worker.refsOf(f, ref.gen())) {
            if (other != ref) {
                worker.release(other);
            }
        }
        long id = rnd.nextInt(f.pages);
        writeOwnPage(ref, id, false);
        PagedFile pf = ref.pf();
        PageCursor reader = pf.io(id, PagedFile.PF_SHARED_READ_LOCK);
        PageCursor writer = null;
        try {
            if (!reader.next()) {
                throw worker.fail("read cursor next() to " + id + " on " + ref + " returned false just after the page was written", null);
            }
            worker.verifyUnderReadCursor(reader, f, id, false);
            long linkedId = rnd.nextInt(f.pages);
            PageCursor link = rnd.nextBoolean() ? reader.openLinkedCursor(linkedId) : null;
            if (link != null) {
                trace.append("link(").append(linkedId).append(")=").append(link.next()).append(' ');
            }
            writer = pf.io(rnd.nextInt(f.pages), PagedFile.PF_SHARED_WRITE_LOCK);
            worker.refs.remove(ref);
            trace.append("close ").append(ref).append(' ');
            FaultInjector.Forces forces = worker.forcesOf(ref);
            boolean stuck = forces != null && forces.forceFailed() && forces.closedBy() == null;
            String forceFailure = null;
            try {
                pf.close();
                if (stuck && forces.closedBy() == Thread.currentThread()) {
                    throw worker.fail("PagedFile.close() of " + ref + ", its only reference, unmapped it and returned normally"
                        + " although a force of this mapping had failed before: the failure sticks to the close", null);
                }
            } catch (AssertionError e) {
                throw e; // the model's own verdict
            } catch (IOException | Error e) {
                // An injected Error too, as it is: it once left this operation with the reference dropped, the file perhaps
                // still mapped, and nothing of what the close left checked
                if (!FaultInjector.isInjected(e)) {
                    throw worker.fail("PagedFile.close() of " + ref + " threw " + e + " with no disk fault injected", e);
                }
                String message = String.valueOf(e.getMessage());
                if (message.contains(Worker.EARLIER_FORCE_FAILED) || message.contains(Worker.FORCE_FAILED)) {
                    forceFailure = message;
                }
                trace.append("failed: ").append(e).append(' ');
                worker.stillMappedAfterFailedClose(ref, forces, e);
            }
            if (worker.alive(pf)) {
                if (!sc.faulty()) {
                    throw worker.fail("PagedFile.close() of " + ref + ", its only reference, left it mapped (io() gives cursors)", null);
                }
                if (forceFailure != null) {
                    throw worker.fail("PagedFile.close() of " + ref + ", its only reference, threw a failed force (" + forceFailure
                        + ") but left the file mapped: a close whose force fails unmaps the file all the same", null);
                }
                worker.refs.add(ref); // a failed write kept it mapped: still ours
                return;
            }
            long sum = 0;
            for (int i = 0; i < PageImage.words(f.pageSize); i++) {
                sum += reader.getLong(i * Long.BYTES); // may be stale; must not crash
            }
            trace.append("stale read survived (").append(Long.toHexString(sum)).append(") ");
            PageCursor w = writer;
            expectUnmapped(reader::shouldRetry, "shouldRetry() of a pinned read cursor", ref);
            expectUnmapped(reader::next, "next() of a read cursor", ref);
            expectUnmapped(() -> w.next(), "next() of a write cursor", ref);
            expectUnmapped(() -> w.next(id), "next(" + id + ") of a write cursor", ref);
            expectUnmapped(() -> reader.openLinkedCursor(linkedId), "openLinkedCursor(" + linkedId + ")", ref);
            if (link != null) {
                expectUnmapped(link::next, "next() of a linked cursor", ref);
            }
            expectUnmapped(() -> pf.io(id, PagedFile.PF_SHARED_READ_LOCK), "PagedFile.io()", ref);
            expectUnmapped(() -> {
                pf.flush();
                return "returned";
            }, "PagedFile.flush()", ref);
            expectUnmapped(() -> {
                pf.truncate(0);
                return "returned";
            }, "PagedFile.truncate(0)", ref);
            expectUnmapped(() -> pf.touch(id, 1), "PagedFile.touch(" + id + ", 1)", ref);
            long cached = pf.numberOfCachedPages();
            if (cached != 0) {
                throw worker.fail("numberOfCachedPages() of " + ref + " after its unmap (every page dropped) is " + cached, null);
            }
        } finally {
            if (writer != null) {
                worker.closeCursor(writer);
            }
            worker.closeCursor(reader); // closes the link too
        }
        Ref again = worker.ensureRef(f, false);
        try (PageCursor c = again.pf().io(id, PagedFile.PF_SHARED_READ_LOCK)) {
            if (!c.next()) {
                throw worker.fail("read cursor next() to " + id + " on " + again + " returned false after the file was unmapped and"
                    + " mapped again", null);
            }
            long[] words = new long[PageImage.words(f.pageSize)];
            PageImage.readValidated(c, words, null);
            int slot = f.slotOf(id);
            long version = PageImage.versionOf(words, f.tag, id);
            if (version != f.acked(slot)) {
                throw worker.fail("after an unmap under its cursors and a new map, " + f.describe(slot) + " holds version " + version
                    + " instead of " + f.acked(slot) + " (nothing else writes it)", null);
            }
        }
        sc.ownUnmapsUnderCursors.incrementAndGet();
    }

    /**
     * Flushes this thread's own file (or the whole cache) and reads it from disk while it stays mapped: a flush that returns
     * normally wrote every page modified before it began (PagedFile.flush, PageCache.flushAndForce), the NVM tier's dirty
     * copies too, so every page holds its acknowledged
     * version there, exactly (no other thread writes the file, and nothing of this thread's is in flight). Only at the
     * unmap and the cache's close did the model read the disk before, so a flush that left a page behind for a later
     * eviction or close to write went unseen. Draws nothing of its own.
     */
    void ownFileFlushedOnDisk() throws IOException {
        FileModel f = sc.privateFiles.get(t);
        Ref ref = ownFile();
        // half the time the whole cache's: it flushes every mapped file as a flush of each would
        boolean all = worker.rnd.nextBoolean();
        trace.append(all ? "flushAndForce g" + ref.gen().number + " with " : "flush ").append(ref).append(' ');
        if (all) {
            worker.workOnCache(ref.gen());
            ref.gen().cache.flushAndForce();
        } else {
            ref.pf().flush();
        }
        trace.append("read the disk ");
        String when = "after t" + t + "'s " + (all ? "flushAndForce() with " : "flush of ") + ref + " returned";
        sc.verifyOnDisk(f, when, true);
        // every page up to the last one the cache knows was written (a page a write cursor grew the file to is modified)
        long size = Files.size(sc.spellings.real(f.name));
        if (size != ref.pf().fileSize()) {
            throw worker.fail("on disk " + when + ", the file is " + size + " bytes, but fileSize() says " + ref.pf().fileSize(), null);
        }
        sc.ownFlushesOnDisk.incrementAndGet();
    }

    private void expectUnmapped(Worker.Call call, String what, Ref ref) {
        worker.expectIllegalState(call, what + " on " + ref + " after its unmap");
    }
}
