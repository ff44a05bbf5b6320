package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.NoEvictableFrameException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread of a scenario: a random sequence of operations drawn from (scenario seed, thread index),
 * each judged against the model and the lifecycle contract as it runs. Data operations (read and write
 * cursors moving with {@code next()}, {@code next(id)}, far and invalid ids) run while other workers
 * map, unmap, flush, and close and reopen the cache. What an operation may end with: success; an
 * IllegalStateException where a close of the cache or of the file explains it; an injected fault in a
 * scenario with a failing disk; for far page ids, IllegalArgumentException or IOException. Anything else
 * fails the run.
 */
final class Worker implements Runnable {
    /** The operations and their weights. */
    enum Op {
        READ(330), WRITE(380), MAP(80), UNMAP(75), FLUSH(35), FLUSH_ALL(12), CLOSE_CACHE(8),
        STALE_READ_ACROSS_CLOSE(4), CLOSE_WITH_OWN_PIN(4), UNMAP_WITH_OWN_PIN(6), TRUNCATE_PAST_EVERY_PAGE(10),
        LINKED_READ(14), LINKED_WRITE(14), CURSOR_MISUSE(5), OWN_FILE_TRUNCATE(6), OWN_FILE_END(6), OWN_FILE_UNMAP_UNDER_CURSORS(4),
        BAD_INPUT(4);

        final int weight;

        Op(int weight) {
            this.weight = weight;
        }
    }

    private static final int TOTAL_WEIGHT;

    static {
        int total = 0;
        for (Op op : Op.values()) {
            total += op.weight;
        }
        TOTAL_WEIGHT = total;
    }

    /** Page ids no page can have: negative, past the 48 bits of a page id, or whose byte offset overflows. */
    private static final long[] INVALID_IDS = {-1, Long.MIN_VALUE, 1L << 48, (1L << 48) + 7, Long.MAX_VALUE, Long.MAX_VALUE / 1024 + 1};
    private static final int MAX_REFS_PER_FILE = 3;
    /** Cursor flags io() refuses: no lock, both locks, a bit no flag has. */
    private static final int[] BAD_FLAGS = {0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_SHARED_WRITE_LOCK,
        PagedFile.PF_NO_GROW, PagedFile.PF_READ_AHEAD, PagedFile.PF_SHARED_READ_LOCK | 1 << 9, PagedFile.PF_SHARED_WRITE_LOCK | 1 << 30};
    /** How a flush, or a close, says that a force of the mapping failed before (FileMapping's words). */
    private static final String EARLIER_FORCE_FAILED = "an earlier force of";
    /** How a flush, or a close, says that its own force failed (FileMapping's words). */
    private static final String FORCE_FAILED = "to storage failed after its dirty pages were written";
    /** The calls {@link #expectRefusedAfterClose} tries on a closed cursor, by the number it draws. */
    private static final String[] CLOSED_CURSOR_CALLS = {"next()", "next(0)", "shouldRetry()", "getLong(0)", "getLong()",
        "putLong(0, -1)", "getBytes(0, 8 bytes)", "putBytes(0, 8 bytes)", "fill(0, 8)", "getCurrentPageId()", "getOffset()",
        "setOffset(8)", "openLinkedCursor(0)", "copyTo(0, itself, 8, 8)", "checkAndClearBoundsFlag()",
        "checkAndClearCursorException()", "setCursorException()", "faultsWaitedFor()", "getCurrentPageSize()"};

    private final Scenario sc;
    private final int t;
    private final SplittableRandom rnd;
    private final OpLog log;
    private final List<Ref> refs = new ArrayList<>();
    private final StringBuilder trace = new StringBuilder();
    private long opNo;

    /** The mapping the current step works on (judges an IllegalStateException), or null. */
    private Ref ctxRef;
    /** With no mapping: the cache the current step works on, and its finished close attempts before the step. */
    private CacheGeneration ctxGen;
    private int ctxFinishedBefore;

    Worker(Scenario sc, int t) {
        this.sc = sc;
        this.t = t;
        this.rnd = new SplittableRandom(RunSettings.mix(sc.config.seed(), t));
        this.log = sc.logs.get(t);
    }

    @Override
    public void run() {
        int ops = sc.config.opsPerThread();
        try {
            for (opNo = 0; opNo < ops && !sc.failures.any(); opNo++) {
                toggleFaults(ops);
                runOne(pick());
            }
            releaseAll();
        } catch (AssertionError e) {
            // recorded already
        } catch (Throwable e) {
            sc.fail("t" + t + " op#" + opNo + ": worker died: " + e, e);
        }
    }

    /** Thread 0 turns the failing disk on for the middle of a faulty scenario, and off for the rest. */
    private void toggleFaults(int ops) {
        if (t != 0 || !sc.faulty()) {
            return;
        }
        if (opNo == ops / 10) {
            sc.injector.enable(sc.config.faultsPerTenThousand());
            log.add("op#" + opNo + " disk starts failing (" + sc.config.faultsPerTenThousand() + "/10000 calls)");
        } else if (opNo == ops * 6 / 10) {
            sc.injector.disable();
            log.add("op#" + opNo + " disk stops failing");
        }
    }

    private Op pick() {
        while (true) {
            int r = rnd.nextInt(TOTAL_WEIGHT);
            for (Op op : Op.values()) {
                r -= op.weight;
                if (r < 0) {
                    if (sc.settings.skips().ops().contains(op)) {
                        break;
                    }
                    return op;
                }
            }
        }
    }

    private void runOne(Op op) {
        trace.setLength(0);
        ctxRef = null;
        ctxGen = null;
        String description = "op#" + opNo + " " + op;
        log.add(description);
        sc.watchdog.begin(t, "t" + t + " " + description);
        try {
            switch (op) {
                case READ -> read();
                case WRITE -> write();
                case MAP -> map(randomFile(), sc.current());
                case UNMAP -> unmap();
                case FLUSH -> flush();
                case FLUSH_ALL -> flushAll();
                case CLOSE_CACHE -> closeCache();
                case STALE_READ_ACROSS_CLOSE -> staleReadAcrossClose();
                case CLOSE_WITH_OWN_PIN -> closeWithOwnPin();
                case UNMAP_WITH_OWN_PIN -> unmapWithOwnPin();
                case TRUNCATE_PAST_EVERY_PAGE -> truncatePastEveryPage();
                case LINKED_READ -> linkedRead();
                case LINKED_WRITE -> linkedWrite();
                case CURSOR_MISUSE -> cursorMisuse();
                case OWN_FILE_TRUNCATE -> ownFileTruncate();
                case OWN_FILE_END -> ownFileEnd();
                case OWN_FILE_UNMAP_UNDER_CURSORS -> ownFileUnmapUnderCursors();
                case BAD_INPUT -> badInput();
            }
            letGoSometimes();
            log.end(trace + "ok");
        } catch (AssertionError e) {
            log.end(trace + "FAILED");
            throw e;
        } catch (Throwable e) {
            String outcome = judge(e);
            log.end(trace + outcome);
        } finally {
            sc.watchdog.end(t);
            sc.ops.incrementAndGet();
        }
    }

    /** Whether {@code e}, which ended an operation, is allowed; returns how it ended, or throws the failure. */
    private String judge(Throwable e) {
        if (FaultInjector.isInjected(e) && sc.faulty()) {
            sc.injectedSurfaced.incrementAndGet();
            if (ctxRef != null) {
                dropIfDead(ctxRef);
            }
            return "injected fault surfaced: " + e;
        }
        if (e instanceof NoEvictableFrameException) {
            throw fail("NoEvictableFrameException with at most " + (2 * sc.config.threads())
                + " pages pinned or faulting at once: frames are left locked", e);
        }
        if (e instanceof IllegalStateException) {
            boolean explained = ctxRef != null ? ctxRef.mayBeClosed() : ctxGen != null && ctxGen.closingSince(ctxFinishedBefore);
            if (!explained) {
                throw fail("IllegalStateException although no close of the cache or file could explain it"
                    + (ctxRef != null ? " (on " + ctxRef + ", which this thread still holds)" : ctxGen != null ? " (on " + ctxGen + ")" : ""), e);
            }
            sc.closedRejections.incrementAndGet();
            if (ctxRef != null) {
                dropIfDead(ctxRef);
            }
            return "refused as closed: " + e.getMessage();
        }
        throw fail("unexpected " + e, e);
    }

    // ---- data operations ----------------------------------------------------------------------

    private void read() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        long start = anyPage(f);
        boolean slow = rnd.nextInt(8) == 0;
        // Read-ahead's worker evicts with a background sweep of its own, beside the evictor: a second background
        // thread writing dirty pages out (two of them once shared the write-behind's scratch run).
        boolean readAhead = rnd.nextInt(4) == 0;
        trace.append(ref).append(slow ? " slow" : "").append(readAhead ? " read-ahead" : "").append(" io(").append(start).append(") ");
        PageCursor c = ref.pf().io(start, PagedFile.PF_SHARED_READ_LOCK | (readAhead ? PagedFile.PF_READ_AHEAD : 0));
        try {
            long expectNext = start;
            int steps = 1 + rnd.nextInt(8);
            for (int i = 0; i < steps; i++) {
                int kind = rnd.nextInt(100);
                if (kind < 3) {
                    invalidId(c, ref);
                    continue;
                }
                if (kind < 8 && !ref.borrowed() && refs.contains(ref) && !sc.settings.skips().borrow()) {
                    // close our reference with the cursor still open, and read on: the file may go away under us
                    trace.append("let go mid-read ");
                    release(ref);
                    ref = ref.asBorrowed();
                    ctxRef = ref;
                    continue;
                }
                boolean sequential = kind < 50 && expectNext >= 0;
                long id = sequential ? expectNext : anyPage(f);
                long maxAcked = f.maxAckedPageId();
                boolean closedBefore = ref.gen().closed;
                boolean ok = sequential ? c.next() : c.next(id);
                trace.append(sequential ? "next()=" : "next(" + id + ")=").append(ok ? "" : "false ");
                if (closedBefore) {
                    throw fail("read cursor next(" + id + ") on " + ref + " returned " + ok + " although the cache's close()"
                        + " had returned before the call, instead of throwing IllegalStateException", null);
                }
                if (!ok) {
                    if (id <= maxAcked) {
                        throw fail("read cursor next(" + id + ") on " + ref + " returned false (past the end), but page "
                            + maxAcked + " was acknowledged" + (alive(ref.pf()) ? "" : "; the file is unmapped, so next()"
                            + " must throw IllegalStateException"), null);
                    }
                    expectNext = -1;
                    continue;
                }
                checkPosition(c, id);
                if (slow) {
                    LockSupport.parkNanos(200_000);
                }
                verifyUnderReadCursor(c, f, id, slow);
                expectNext = id + 1;
            }
        } finally {
            closeCursor(c);
        }
    }

    private void verifyUnderReadCursor(PageCursor c, FileModel f, long id, boolean slow) throws IOException {
        int slot = f.slotOf(id);
        long ackedBefore = slot >= 0 ? f.acked(slot) : 0;
        long[] words = new long[PageImage.words(f.pageSize)];
        PageImage.readValidated(c, words, slow ? Thread::yield : null);
        if (c.checkAndClearBoundsFlag()) {
            throw fail("bounds flag raised by in-page reads of " + f.name + " page " + id, null);
        }
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw fail("read cursor: " + f.name + " page " + id + " " + e.getMessage() + " after shouldRetry() returned false"
                + (slot >= 0 ? "; " + f.describe(slot) : ""), null);
        }
        trace.append('v').append(version).append(' ');
        if (slot < 0) {
            if (version != 0) {
                throw fail("read cursor: " + f.name + " page " + id + ", which no thread writes, holds version " + version, null);
            }
            return;
        }
        String wrong = f.judge(slot, version, ackedBefore);
        if (wrong != null) {
            throw fail("read cursor: " + f.describe(slot) + " " + wrong, null);
        }
    }

    /**
     * A record over two pages: a read cursor and a cursor linked to it on another page (or past the end), read in
     * one {@code shouldRetry()} loop of the parent, the link kept open across the loop or opened and closed inside
     * it (its pin is validated by the parent all the same); both pages are judged against the model. Then the link
     * is closed first, or with its parent; either way it refuses every call after.
     */
    private void linkedRead() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
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
            long maxAcked = f.maxAckedPageId();
            long ackedA = f.acked(slotA);
            long ackedB = slotB >= 0 ? f.acked(slotB) : 0;
            boolean closedBefore = ref.gen().closed;
            boolean onFirst = parent.next();
            trace.append("next()=").append(onFirst).append(' ');
            if (closedBefore) {
                throw fail("read cursor next() on " + ref + " returned " + onFirst + " although the cache's close() had"
                    + " returned before the call, instead of throwing IllegalStateException", null);
            }
            if (!onFirst) {
                if (first <= maxAcked) {
                    throw fail("read cursor next(" + first + ") on " + ref + " returned false (past the end), but page "
                        + maxAcked + " was acknowledged", null);
                }
                return;
            }
            long[] a = new long[PageImage.words(f.pageSize)];
            long[] b = new long[a.length];
            boolean onSecond = false;
            if (!linkInLoop) {
                link = parent.openLinkedCursor(second);
                onSecond = link.next();
            }
            do {
                PageImage.readPinned(parent, a);
                if (linkInLoop) {
                    try (PageCursor l = parent.openLinkedCursor(second)) {
                        onSecond = l.next();
                        if (onSecond) {
                            PageImage.readPinned(l, b);
                        }
                    }
                } else if (onSecond) {
                    PageImage.readPinned(link, b);
                }
            } while (parent.shouldRetry());
            trace.append("link next()=").append(onSecond).append(' ');
            if (parent.checkAndClearBoundsFlag()) {
                throw fail("bounds flag raised by in-page reads of " + f.name + " pages " + first + " and " + second
                    + " through a cursor and its link", null);
            }
            if (!onSecond && second <= maxAcked) {
                throw fail("linked read cursor next(" + second + ") on " + ref + " returned false (past the end), but page "
                    + maxAcked + " was acknowledged", null);
            }
            judgeLinkedRead(f, first, a, slotA, ackedA, "read cursor");
            if (onSecond) {
                judgeLinkedRead(f, second, b, slotB, ackedB, "linked read cursor");
            }
            sc.linkedRecords.incrementAndGet();
            if (link != null && rnd.nextBoolean()) {
                trace.append("link closed first ");
                closeCursor(link);
            }
            closeCursor(parent);
            if (link != null) {
                expectRefusedAfterClose(link, "a linked read cursor after its parent closed");
            }
        } finally {
            if (link != null) {
                closeCursor(link);
            }
            closeCursor(parent);
        }
    }

    private void judgeLinkedRead(FileModel f, long id, long[] words, int slot, long ackedBefore, String what) {
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw fail(what + ": " + f.name + " page " + id + " " + e.getMessage() + " after the parent's shouldRetry()"
                + " returned false" + (slot >= 0 ? "; " + f.describe(slot) : ""), null);
        }
        trace.append('v').append(version).append(' ');
        String wrong = slot < 0 ? version == 0 ? null : "holds version " + version + ", but no thread writes it"
            : f.judge(slot, version, ackedBefore);
        if (wrong != null) {
            throw fail(what + ": " + (slot >= 0 ? f.describe(slot) : f.name + " page " + id) + " " + wrong, null);
        }
    }

    /**
     * A write cursor and a cursor linked to it, each holding one of this thread's pages and writing its next
     * version; the link closes first (the parent then writes its page once more) or with its parent. Each write
     * is acknowledged once the cursor that made it closed; the link refuses every call after.
     */
    private void linkedWrite() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        long first = ownPage(f);
        long second = ownPage(f);
        trace.append(ref).append(" io(").append(first).append(") link(").append(second).append(") ");
        PageCursor parent = ref.pf().io(first, PagedFile.PF_SHARED_WRITE_LOCK);
        PageCursor link = null;
        Pending onParent = new Pending(f);
        Pending onLink = new Pending(f);
        try {
            boolean closedBefore = ref.gen().closed;
            if (!parent.next()) {
                throw fail("write cursor next() to " + first + " on " + ref + " returned false", null);
            }
            if (closedBefore) {
                throw fail("write cursor next(" + first + ") on " + ref + " succeeded although the cache's close() had"
                    + " returned before the call: a mapping outlived its cache", null);
            }
            checkPosition(parent, first);
            checkMappedWhilePinned(ref, first);
            writeIfOwn(parent, f, first, onParent);
            link = parent.openLinkedCursor(second);
            if (!link.next()) {
                throw fail("linked write cursor next() to " + second + " on " + ref + " returned false", null);
            }
            checkPosition(link, second);
            checkMappedWhilePinned(ref, second);
            writeIfOwn(link, f, second, onLink);
            sc.linkedRecords.incrementAndGet();
            if (rnd.nextBoolean()) {
                trace.append("link closed first ");
                closeCursor(link);
                onLink.ack();
                writeIfOwn(parent, f, first, onParent); // still pinned by the parent
            }
            closeCursor(parent);
            onParent.ack();
            onLink.ack();
            expectRefusedAfterClose(link, "a linked write cursor after its parent closed");
        } finally {
            if (link != null) {
                closeCursor(link);
            }
            closeCursor(parent);
            onParent.ack();
            onLink.ack();
        }
    }

    /**
     * A cursor (read or write, moved or not, with a link or without) closed, and closed again, which must do nothing;
     * then calls on it and on its link: each must throw IllegalStateException, never read, write or return a value.
     */
    private void cursorMisuse() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        boolean write = rnd.nextBoolean();
        long id = write ? ownPage(f) : rnd.nextInt(f.pages);
        trace.append(ref).append(write ? " write" : " read").append(" io(").append(id).append(") ");
        PageCursor c = ref.pf().io(id, write ? PagedFile.PF_SHARED_WRITE_LOCK : PagedFile.PF_SHARED_READ_LOCK);
        PageCursor link = null;
        Pending pending = new Pending(f);
        try {
            if (rnd.nextBoolean()) {
                link = c.openLinkedCursor(write ? ownPage(f) : rnd.nextInt(f.pages));
                trace.append("linked ");
            }
            if (rnd.nextBoolean()) {
                boolean moved = c.next();
                trace.append("next()=").append(moved).append(' ');
                if (write) {
                    if (!moved) {
                        throw fail("write cursor next() to " + id + " on " + ref + " returned false", null);
                    }
                    checkMappedWhilePinned(ref, id);
                    writeIfOwn(c, f, id, pending);
                }
            }
            closeCursor(c);
            pending.ack();
            closeCursor(c); // a second close does nothing
            expectRefusedAfterClose(c, "a closed " + (write ? "write" : "read") + " cursor");
            if (link != null) {
                expectRefusedAfterClose(link, "a linked cursor closed with its parent");
            }
        } finally {
            closeCursor(c);
            pending.ack();
        }
    }

    /** One to three calls on the closed cursor {@code c}, drawn from every method but close: each must throw IllegalStateException. */
    private void expectRefusedAfterClose(PageCursor c, String what) {
        for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            int kind = rnd.nextInt(19);
            String name = CLOSED_CURSOR_CALLS[kind];
            Object result;
            try {
                result = switch (kind) {
                    case 0 -> c.next();
                    case 1 -> c.next(0);
                    case 2 -> c.shouldRetry();
                    case 3 -> c.getLong(0);
                    case 4 -> c.getLong();
                    case 5 -> {
                        c.putLong(0, -1L);
                        yield "returned";
                    }
                    case 6 -> {
                        byte[] into = new byte[8];
                        c.getBytes(0, into, 0, into.length);
                        yield Arrays.toString(into);
                    }
                    case 7 -> {
                        c.putBytes(0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
                        yield "returned";
                    }
                    case 8 -> {
                        c.fill(0, 8, (byte) 7);
                        yield "returned";
                    }
                    case 9 -> c.getCurrentPageId();
                    case 10 -> c.getOffset();
                    case 11 -> {
                        c.setOffset(8);
                        yield "returned";
                    }
                    case 12 -> {
                        PageCursor opened = c.openLinkedCursor(0);
                        opened.close();
                        yield "a linked cursor";
                    }
                    case 13 -> c.copyTo(0, c, 8, 8);
                    case 14 -> c.checkAndClearBoundsFlag();
                    case 15 -> {
                        c.checkAndClearCursorException();
                        yield "returned";
                    }
                    case 16 -> {
                        c.setCursorException("misuse");
                        yield "returned";
                    }
                    case 17 -> c.faultsWaitedFor();
                    default -> c.getCurrentPageSize();
                };
            } catch (IllegalStateException expected) {
                trace.append(name).append("=ISE ");
                sc.closedCursorRefusals.incrementAndGet();
                continue;
            } catch (Throwable e) {
                throw fail(name + " on " + what + " threw " + e + " instead of IllegalStateException", e);
            }
            throw fail(name + " on " + what + " returned " + result + " instead of throwing IllegalStateException", null);
        }
    }

    private void write() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        boolean noGrow = rnd.nextInt(10) == 0;
        long start = ownPage(f);
        trace.append(ref).append(noGrow ? " NO_GROW" : "").append(" io(").append(start).append(") ");
        PageCursor c = ref.pf().io(start, PagedFile.PF_SHARED_WRITE_LOCK | (noGrow ? PagedFile.PF_NO_GROW : 0));
        Pending pending = new Pending(f);
        try {
            long expectNext = start;
            int steps = 1 + rnd.nextInt(8);
            for (int i = 0; i < steps; i++) {
                int kind = rnd.nextInt(100);
                if (kind < 2) {
                    invalidId(c, ref);
                    continue;
                }
                if (kind < 5 && !sc.settings.skips().farIds()) {
                    farWrite(c, ref, pending, noGrow);
                    expectNext = -1;
                    continue;
                }
                boolean sequential = kind < 45 && expectNext >= 0;
                long id = sequential ? expectNext : ownPage(f);
                long maxAcked = f.maxAckedPageId();
                boolean closedBefore = ref.gen().closed;
                boolean ok = sequential ? c.next() : c.next(id);
                pending.ack(); // moved on
                trace.append(sequential ? "next()=" : "next(" + id + ")=").append(ok ? "" : "false ");
                if (!ok) {
                    if (!noGrow || id <= maxAcked) {
                        throw fail("write cursor" + (noGrow ? " (PF_NO_GROW)" : "") + " next(" + id + ") on " + ref
                            + " returned false; highest acknowledged page " + maxAcked, null);
                    }
                    expectNext = -1;
                    continue;
                }
                if (closedBefore) {
                    throw fail("write cursor next(" + id + ") on " + ref + " succeeded although the cache's close() had"
                        + " returned before the call: a mapping outlived its cache", null);
                }
                checkPosition(c, id);
                checkMappedWhilePinned(ref, id);
                writeIfOwn(c, f, id, pending);
                expectNext = id + 1;
            }
        } finally {
            closeCursor(c);
            pending.ack(); // closed without exception
        }
    }

    /** A write cursor's {@code next(far id)}: works (the page is written) or is refused with IAE or IOException. */
    private void farWrite(PageCursor c, Ref ref, Pending pending, boolean noGrow) throws IOException {
        FileModel f = ref.file();
        int base = rnd.nextInt(FileModel.FAR_BASES.length);
        int slot = f.pages + base * f.threads + t;
        long id = f.pageId(slot);
        boolean ok;
        trace.append("far next(").append(id).append(")=");
        try {
            ok = c.next(id);
        } catch (IllegalArgumentException | IOException e) {
            if (FaultInjector.isInjected(e)) {
                throw e;
            }
            sc.farRefusals.incrementAndGet();
            trace.append("refused: ").append(e).append(' ');
            return;
        }
        pending.ack();
        trace.append(ok).append(' ');
        if (!ok) {
            if (!noGrow || id <= f.maxAckedPageId()) {
                throw fail("write cursor next(" + id + ") on " + ref + " returned false", null);
            }
            return;
        }
        checkPosition(c, id);
        checkMappedWhilePinned(ref, id);
        writeIfOwn(c, f, id, pending);
        sc.farWrites.incrementAndGet();
    }

    /**
     * A call with an argument no file or cursor takes: bad cursor flags, a negative truncate or touch count, a file page
     * size the cache cannot hold, a linked cursor's page id no file can have. Each must throw IllegalArgumentException
     * naming the bad value, and change nothing (the model then holds as it was).
     */
    private void badInput() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        int kind = rnd.nextInt(6);
        long bad = switch (kind) {
            case 0 -> BAD_FLAGS[rnd.nextInt(BAD_FLAGS.length)];
            case 1, 2 -> -1 - rnd.nextInt(1000);
            case 3 -> rnd.nextBoolean() ? -rnd.nextInt(5) : ScenarioConfig.CACHE_PAGE_SIZE + 1 + rnd.nextInt(ScenarioConfig.CACHE_PAGE_SIZE);
            default -> INVALID_IDS[rnd.nextInt(INVALID_IDS.length)];
        };
        String call = switch (kind) {
            case 0 -> "io(0, flags " + bad + ")";
            case 1 -> "truncate(" + bad + ")";
            case 2 -> "touch(0, " + bad + ")";
            case 3 -> "map(" + f.name + ", page size " + bad + ")";
            case 4 -> "openLinkedCursor(" + bad + ") of a read cursor";
            default -> "openLinkedCursor(" + bad + ") of a write cursor";
        };
        trace.append(ref).append(' ').append(call).append("=IAE? ");
        Object result;
        try {
            result = switch (kind) {
                case 0 -> ref.pf().io(0, (int) bad);
                case 1 -> {
                    ref.pf().truncate(bad);
                    yield "returned";
                }
                case 2 -> ref.pf().touch(0, (int) bad);
                case 3 -> ref.gen().cache.map(f.spellings.get(0), (int) bad);
                default -> {
                    try (PageCursor c = ref.pf().io(0, kind == 4 ? PagedFile.PF_SHARED_READ_LOCK : PagedFile.PF_SHARED_WRITE_LOCK)) {
                        yield c.openLinkedCursor(bad);
                    }
                }
            };
        } catch (IllegalArgumentException e) {
            if (!String.valueOf(e.getMessage()).contains(Long.toString(bad))) {
                throw fail(call + " on " + ref + " was refused without naming the bad value " + bad + ": " + e.getMessage(), e);
            }
            sc.badInputsRefused.incrementAndGet();
            return;
        }
        if (result instanceof PageCursor c) {
            c.close();
        } else if (result instanceof PagedFile pf) {
            pf.close();
        }
        throw fail(call + " on " + ref + " returned " + result + " instead of throwing IllegalArgumentException", null);
    }

    /** Writes the next version of the page under the write cursor if this thread owns it, after checking what it holds. */
    private void writeIfOwn(PageCursor c, FileModel f, long id, Pending pending) {
        int slot = f.slotOf(id);
        if (slot < 0 || f.owner(slot) != t) {
            trace.append("pinned ");
            return;
        }
        long[] words = new long[PageImage.words(f.pageSize)];
        PageImage.readPinned(c, words);
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw fail("write cursor, before writing: " + f.describe(slot) + " " + e.getMessage(), null);
        }
        String wrong = f.judge(slot, version, f.acked(slot));
        if (wrong != null) {
            throw fail("write cursor, before writing: " + f.describe(slot) + " " + wrong, null);
        }
        long v = f.startWrite(slot);
        PageImage.write(c, f.tag, id, v);
        pending.set(slot, v);
        trace.append('v').append(version).append("->v").append(v).append(' ');
        if (rnd.nextInt(16) == 0) {
            Thread.yield(); // hold the pin a little longer: a close now must be refused
        }
    }

    /** {@code next(invalid id)} must throw IllegalArgumentException; so must {@code io(invalid id)}. */
    private void invalidId(PageCursor c, Ref ref) throws IOException {
        long id = INVALID_IDS[rnd.nextInt(INVALID_IDS.length)];
        boolean onIo = rnd.nextInt(4) == 0;
        trace.append(onIo ? "io(" : "next(").append(id).append(")=IAE? ");
        try {
            if (onIo) {
                PageCursor other = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK);
                other.close();
                throw fail("io(" + id + ") on " + ref + " returned a cursor instead of throwing IllegalArgumentException", null);
            }
            boolean r = c.next(id);
            throw fail("next(" + id + ") on " + ref + " returned " + r + " instead of throwing IllegalArgumentException", null);
        } catch (IllegalArgumentException expected) {
            // refused before anything was allocated
        }
    }

    /**
     * While a write cursor holds a page, neither the file nor the cache can close: so a mapping that is
     * gone now was unmapped under the fault that pinned the page (which then lingers, bound to a dead file).
     */
    private void checkMappedWhilePinned(Ref ref, long id) {
        for (int look = 0; !alive(ref.pf()); look++) {
            if (look < 3) {
                LockSupport.parkNanos(1_000_000); // a refused close may hold the file back for a moment
                continue;
            }
            throw fail("write cursor holds page " + id + " of " + ref + ", but the file is no longer mapped (io() throws):"
                + " an unmap or close completed while the fault that pinned the page was under way", null);
        }
    }

    private void checkPosition(PageCursor c, long id) {
        long at = c.getCurrentPageId();
        if (at != id) {
            throw fail("cursor moved to page " + id + " but getCurrentPageId() says " + at, null);
        }
    }

    // ---- lifecycle operations -----------------------------------------------------------------

    /** Maps {@code f} through a random spelling; checks the mapping is live and the only live one of the file. */
    private Ref map(FileModel f, CacheGeneration g) throws IOException {
        dropStaleRefs(g);
        List<Ref> mine = refsOf(f, g);
        if (mine.size() >= MAX_REFS_PER_FILE) {
            release(mine.get(rnd.nextInt(mine.size())));
        }
        Path spelling = f.spellings.get(rnd.nextInt(f.spellings.size()));
        int finished = g.closesFinished.get();
        ctxRef = null;
        ctxGen = g;
        ctxFinishedBefore = finished;
        trace.append("map ").append(f.name).append(" via ").append(f.label(spelling)).append(" in g").append(g.number).append(' ');
        PagedFile pf = g.cache.map(spelling, f.pageSize);
        Ref ref = new Ref(g, f, pf, spelling, finished, false);
        refs.add(ref);
        ctxRef = ref;
        if (pf.pageSize() != f.pageSize) {
            throw fail("map(" + f.label(spelling) + ", " + f.pageSize + ") returned a mapping with page size " + pf.pageSize(), null);
        }
        boolean closedAfterMap = g.closed;
        if (closedAfterMap && alive(pf)) {
            throw fail("map(" + f.label(spelling) + ") raced close() of " + g + ": the mapping it returned is still live after close()"
                + " returned (io() gives cursors)", null);
        }
        if (!alive(pf) && !g.closingSince(finished)) {
            throw fail("map(" + f.label(spelling) + ") returned a PagedFile that is already closed (io() throws), with no close"
                + " of the cache since: a dead mapping handed out again", null);
        }
        PagedFile previous = g.latestMapping.getAndSet(f.index, pf);
        if (previous != null && previous != pf && alive(previous) && !g.closingSince(finished)) {
            throw fail("two live PagedFile objects for one file " + f.name + ": " + previous + " and " + pf + " (just mapped via "
                + f.label(spelling) + "); spellings: " + f.labels(), null);
        }
        return ref;
    }

    /**
     * A mapping of {@code f} in the current cache to work on: one of this thread's references, a new one,
     * or now and then another thread's mapping, borrowed. A refusing cache throws IllegalStateException.
     */
    private Ref ensureRef(FileModel f) throws IOException {
        return ensureRef(f, true);
    }

    /** As {@link #ensureRef(FileModel)}; {@code mayBorrow}: another thread's mapping may do. */
    private Ref ensureRef(FileModel f, boolean mayBorrow) throws IOException {
        CacheGeneration g = sc.current();
        dropStaleRefs(g);
        List<Ref> mine = refsOf(f, g);
        int choice = rnd.nextInt(100);
        if (choice < 25 && mayBorrow && !sc.settings.skips().borrow()) {
            // use another thread's mapping without a reference of our own: it may be unmapped under us
            PagedFile other = g.latestMapping.get(f.index);
            if (other != null) {
                Ref ref = new Ref(g, f, other, f.spellings.get(0), g.closesFinished.get(), true);
                ctxRef = ref;
                return ref;
            }
        }
        if (!mine.isEmpty() && choice < 90) {
            Ref ref = mine.get(rnd.nextInt(mine.size()));
            ctxRef = ref;
            return ref;
        }
        return map(f, g);
    }

    private void unmap() throws IOException {
        if (refs.isEmpty()) {
            trace.append("nothing mapped ");
            return;
        }
        Ref ref = refs.remove(rnd.nextInt(refs.size()));
        ctxRef = ref;
        trace.append("close ").append(ref).append(' ');
        FaultInjector.Forces forces = ref.gen().forcesTracked ? sc.injector.forcesOf(ref.file().name) : null;
        boolean stuck = forces != null && forces.forceFailed() && forces.closedBy() == null;
        try {
            ref.pf().close();
            if (stuck && forces.closedBy() == Thread.currentThread()) {
                throw fail("PagedFile.close() of " + ref + " unmapped it and returned normally although a force of this"
                    + " mapping had failed before: the failure sticks to the close that unmaps it", null);
            }
        } catch (IllegalStateException e) {
            if (e instanceof NoEvictableFrameException || sc.config.threads() == 1) {
                throw fail("PagedFile.close() threw " + e + " with no cursor open", e);
            }
            refs.add(ref); // refused while another thread's write cursor holds a page: still ours
            trace.append("refused (pinned) ");
        } catch (IOException e) {
            if (!FaultInjector.isInjected(e)) {
                throw e;
            }
            if (alive(ref.pf())) {
                refs.add(ref);
            }
            trace.append("failed: ").append(e).append(' ');
        }
    }

    /**
     * Flushes a file. Where a force of its mapping failed before (the injector says so), the flush must throw: the
     * failure sticks until the file is unmapped. Where none of the mapping's forces failed, it must not throw that
     * failure: a new map starts afresh.
     */
    private void flush() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        trace.append("flush ").append(ref).append(' ');
        FaultInjector.Forces forces = ref.gen().forcesTracked ? sc.injector.forcesOf(f.name) : null;
        boolean stuck = forces != null && forces.forceFailed() && forces.closedBy() == null;
        boolean aliveBefore = forces != null && alive(ref.pf());
        try {
            ref.pf().flush();
        } catch (IOException e) {
            if (stuck) {
                sc.stuckForcesReported.incrementAndGet();
            }
            if (aliveBefore && String.valueOf(e.getMessage()).contains(EARLIER_FORCE_FAILED) && !forces.forceFailed()
                && forces.closedBy() == null && sc.injector.forcesOf(f.name) == forces && alive(ref.pf())) {
                throw fail("PagedFile.flush() of " + ref + " threw " + e + ", but no force of this mapping failed: a failed"
                    + " force of an earlier mapping of the file stuck to the new one", e);
            }
            throw e;
        }
        if (stuck && forces.closedBy() == null) {
            throw fail("PagedFile.flush() of " + ref + " returned normally although a force of this mapping had failed"
                + " before: the failure sticks, every later flush must throw until the file is unmapped", null);
        }
    }

    /** The files of {@code g} whose mapping's force failed and which are still mapped: the failure sticks to each. */
    private List<FaultInjector.Forces> stuckForces(CacheGeneration g, List<String> names) {
        List<FaultInjector.Forces> stuck = new ArrayList<>();
        for (FileModel f : sc.allFiles) {
            FaultInjector.Forces forces = g.forcesTracked ? sc.injector.forcesOf(f.name) : null;
            if (forces != null && forces.forceFailed() && forces.closedBy() == null) {
                stuck.add(forces);
                names.add(f.name);
            }
        }
        return stuck;
    }

    /**
     * A truncate that cuts no page any thread writes (past the highest page id a file can have): it loses
     * nothing, so the model holds as it is, while its closing and draining of the file's operation gate
     * races every fault, flush, unmap and cache close of the scenario. Refused only once the file is
     * unmapped.
     */
    private void truncatePastEveryPage() throws IOException {
        Ref ref = ensureRef(randomFile());
        long last = ref.pf().getLastPageId();
        trace.append("truncate ").append(ref).append(' ');
        ref.pf().truncate(ref.pf().maxPageId() + 1);
        long after = ref.pf().getLastPageId();
        if (after < last) {
            throw fail("truncate(" + (ref.pf().maxPageId() + 1) + ") of " + ref + " lowered its last page from " + last
                + " to " + after + ", cutting pages it must keep", null);
        }
    }

    // ---- this thread's own file: what only one thread may do to a file for the model to know it exactly ----------

    /** A mapping of this thread's own file, with its last page id checked against the model's bounds. */
    private Ref ownFile() throws IOException {
        FileModel f = sc.privateFiles.get(t);
        Ref ref = ensureRef(f, false);
        checkLastPage(ref, "");
        return ref;
    }

    private void checkLastPage(Ref ref, String after) {
        FileModel f = ref.file();
        long last = ref.pf().getLastPageId();
        if (last < f.lastPageLow() || last > f.lastPageHigh()) {
            if (!alive(ref.pf())) {
                throw new IllegalStateException("unmapped meanwhile"); // a cache close: judged as such
            }
            throw fail("getLastPageId() of " + ref + after + " is " + last + ", where this thread's writes and truncates"
                + " leave it in [" + f.lastPageLow() + ", " + f.lastPageHigh() + "]", null);
        }
    }

    /** Writes the next version of {@code id} through a write cursor of its own ({@code PF_NO_GROW} where asked). */
    private boolean writeOwnPage(Ref ref, long id, boolean noGrow) throws IOException {
        FileModel f = ref.file();
        Pending pending = new Pending(f);
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK | (noGrow ? PagedFile.PF_NO_GROW : 0));
        boolean moved = false;
        try {
            trace.append(noGrow ? "NO_GROW " : "").append("write ").append(id).append(' ');
            moved = c.next();
            if (moved) {
                checkPosition(c, id);
                writeIfOwn(c, f, id, pending);
            } else {
                trace.append("=false ");
            }
            return moved;
        } finally {
            if (!noGrow) {
                f.grew(id, moved);
            }
            closeCursor(c);
            pending.ack();
        }
    }

    /**
     * Writes some pages of this thread's own file, then truncates it to a page in its middle (or past its end, or to
     * nothing): the pages from the cut on read as past the end, those before it as they were, and the last page id
     * is the cut's. A cut that failed (an injected write of the new last page) leaves the model unsure of those pages.
     */
    private void ownFileTruncate() throws IOException {
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
            trace.append("truncate(").append(cut).append(") ");
            boolean certain = false;
            try {
                ref.pf().truncate(cut);
                certain = true;
                sc.ownTruncates.incrementAndGet();
            } finally {
                f.truncated(cut, certain);
            }
            checkLastPage(ref, " after truncate(" + cut + ")");
            if (readerOn) {
                readAcrossTruncate(reader, ref, readId, cut, words, ackedBefore,
                    linkOn ? new LinkedRead(link, linkId, linkWords, linkAckedBefore) : null);
            }
        } finally {
            if (reader != null) {
                closeCursor(reader);
            }
        }
        long last = ref.pf().getLastPageId();
        try (PageCursor c = ref.pf().io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                long id = rnd.nextInt(f.pages);
                boolean on = c.next(id);
                trace.append("next(").append(id).append(")=").append(on).append(' ');
                if (on != id <= last) {
                    throw fail("read cursor next(" + id + ") on " + ref + " returned " + on + " after truncate(" + cut
                        + "), which left the last page id " + last, null);
                }
                if (on) {
                    verifyUnderReadCursor(c, f, id, false);
                }
            }
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
        Pending pending = new Pending(f);
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
                throw fail("linked write cursor next() to " + held + " on " + ref + " returned false", null);
            }
            writeIfOwn(link, f, held, pending);
            long lastBefore = ref.pf().getLastPageId();
            try {
                ref.pf().truncate(cut);
                f.truncated(cut, true);
                throw fail("truncate(" + cut + ") of " + ref + " returned normally while this thread's linked write cursor"
                    + " held page " + held, null);
            } catch (IllegalStateException e) {
                if (!alive(ref.pf())) {
                    throw e; // the cache closed meanwhile: judged as such
                }
                trace.append("refused ");
            }
            long lastAfter = ref.pf().getLastPageId();
            if (lastAfter != lastBefore) {
                throw fail("truncate(" + cut + ") of " + ref + " was refused for a held page, but moved the last page id from "
                    + lastBefore + " to " + lastAfter, null);
            }
            writeIfOwn(link, f, held, pending); // checks the page kept the version just written, and writes the next
        } finally {
            closeCursor(parent); // closes the link too
            pending.ack();
        }
    }

    /**
     * The end of a read that was under way on page {@code id} while this thread's truncate to {@code cut} pages ran.
     * A page cut off: {@code shouldRetry()} returns true and leaves the cursor on no page (its reads out of bounds),
     * and {@code checkAndClearCursorException()} says the page was truncated away. A page kept: the read, repeated
     * as long as {@code shouldRetry()} asks, finds the version it held.
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
            throw fail("shouldRetry() of a read cursor on page " + id + (linked != null ? " with a link on page " + linked.id()
                : "") + " of " + ref + " returned false after truncate(" + cut + ") cut page " + cutId + " off: the read"
                + " through it is void", null);
        }
        long after = (id >= cut ? reader : linked.cursor()).getLong(0);
        if (after != 0 || !reader.checkAndClearBoundsFlag()) {
            throw fail("a read cursor left on page " + cutId + " of " + ref + ", which truncate(" + cut + ") cut off, read "
                + after + " in bounds instead of nothing out of bounds", null);
        }
        try {
            reader.checkAndClearCursorException();
        } catch (CursorException e) {
            trace.append("cut under the reader: ").append(e.getMessage()).append(' ');
            (linked != null && id < cut ? sc.linkedReadsCutUnder : sc.readsCutUnder).incrementAndGet();
            return;
        }
        throw fail("a read cursor on page " + cutId + " of " + ref + ", which truncate(" + cut + ") cut off, has no cursor"
            + " exception to say so after " + (id >= cut ? "its" : "its parent's") + " shouldRetry()", null);
    }

    private void judgeAcrossTruncate(FileModel f, long id, long[] words, long ackedBefore, long cut) {
        long version = PageImage.versionOf(words, f.tag, id);
        String wrong = f.judge(f.slotOf(id), version, ackedBefore);
        if (wrong != null) {
            throw fail("read cursor across truncate(" + cut + "): " + f.describe(f.slotOf(id)) + " " + wrong, null);
        }
    }

    /** A linked read cursor on page {@code id}, what it read, and the version acknowledged before it read. */
    private record LinkedRead(PageCursor cursor, long id, long[] words, long ackedBefore) {
    }

    /**
     * At the end of this thread's own file: a read past it and a {@code PF_NO_GROW} write past it return false and
     * leave the file as long as it was; a write past it grows the file to that page, and reads find it.
     */
    private void ownFileEnd() throws IOException {
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
                throw fail("read cursor next() to the last page " + last + " of " + ref + " returned false", null);
            }
            if (c.next(past)) {
                throw fail("read cursor next(" + past + ") on " + ref + " returned true past the last page " + last, null);
            }
        }
        checkLastPage(ref, " after a read past its end");
        // a touch from past the end faults nothing in, and a truncate to more pages than a file can have cuts nothing
        int touched = ref.pf().touch(past, 1 + rnd.nextInt(4));
        if (touched != 0) {
            throw fail("touch(" + past + ", ...) on " + ref + " faulted " + touched + " pages in past the last page " + last, null);
        }
        if (rnd.nextInt(4) == 0) {
            long huge = rnd.nextBoolean() ? Long.MAX_VALUE : ref.pf().maxPageId() + 1;
            trace.append("truncate(").append(huge).append(") ");
            ref.pf().truncate(huge);
        }
        checkLastPage(ref, " after a touch past its end and a truncate to more pages than it has");
        if (past < f.pages) {
            if (writeOwnPage(ref, past, true)) {
                throw fail("PF_NO_GROW write cursor next() to " + past + " on " + ref + " returned true past the last page "
                    + last, null);
            }
            checkLastPage(ref, " after a PF_NO_GROW write cursor's move past its end");
            try (PageCursor w = ref.pf().io(0, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW);
                 PageCursor link = w.openLinkedCursor(past)) {
                if (link.next()) {
                    throw fail("the linked cursor of a PF_NO_GROW write cursor moved to " + past + " on " + ref
                        + ", past the last page " + last + ": a link takes its parent's PF_NO_GROW", null);
                }
            }
            checkLastPage(ref, " after a PF_NO_GROW write cursor's link moved past its end");
            if (!writeOwnPage(ref, past, false)) {
                throw fail("write cursor next() to " + past + " on " + ref + " returned false: a write grows the file", null);
            }
            checkLastPage(ref, " after a write cursor grew it to page " + past);
            try (PageCursor c = ref.pf().io(past, PagedFile.PF_SHARED_READ_LOCK)) {
                if (!c.next()) {
                    throw fail("read cursor next() to " + past + " on " + ref + " returned false after a write grew the file"
                        + " to it", null);
                }
                verifyUnderReadCursor(c, f, past, false);
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
    private void ownFileUnmapUnderCursors() throws IOException {
        Ref ref = ownFile();
        FileModel f = ref.file();
        for (Ref other : refsOf(f, ref.gen())) {
            if (other != ref) {
                release(other);
            }
        }
        long id = rnd.nextInt(f.pages);
        writeOwnPage(ref, id, false);
        PagedFile pf = ref.pf();
        PageCursor reader = pf.io(id, PagedFile.PF_SHARED_READ_LOCK);
        PageCursor writer = null;
        try {
            if (!reader.next()) {
                throw fail("read cursor next() to " + id + " on " + ref + " returned false just after the page was written", null);
            }
            verifyUnderReadCursor(reader, f, id, false);
            long linkedId = rnd.nextInt(f.pages);
            PageCursor link = rnd.nextBoolean() ? reader.openLinkedCursor(linkedId) : null;
            if (link != null) {
                trace.append("link(").append(linkedId).append(")=").append(link.next()).append(' ');
            }
            writer = pf.io(rnd.nextInt(f.pages), PagedFile.PF_SHARED_WRITE_LOCK);
            refs.remove(ref);
            trace.append("close ").append(ref).append(' ');
            FaultInjector.Forces forces = ref.gen().forcesTracked ? sc.injector.forcesOf(f.name) : null;
            boolean stuck = forces != null && forces.forceFailed() && forces.closedBy() == null;
            String forceFailure = null;
            try {
                pf.close();
                if (stuck && forces.closedBy() == Thread.currentThread()) {
                    throw fail("PagedFile.close() of " + ref + ", its only reference, unmapped it and returned normally"
                        + " although a force of this mapping had failed before: the failure sticks to the close", null);
                }
            } catch (IOException e) {
                if (!FaultInjector.isInjected(e)) {
                    throw fail("PagedFile.close() of " + ref + " threw " + e + " with no disk fault injected", e);
                }
                String message = String.valueOf(e.getMessage());
                if (message.contains(EARLIER_FORCE_FAILED) || message.contains(FORCE_FAILED)) {
                    forceFailure = message;
                }
                trace.append("failed: ").append(e).append(' ');
            }
            if (alive(pf)) {
                if (!sc.faulty()) {
                    throw fail("PagedFile.close() of " + ref + ", its only reference, left it mapped (io() gives cursors)", null);
                }
                if (forceFailure != null) {
                    throw fail("PagedFile.close() of " + ref + ", its only reference, threw a failed force (" + forceFailure
                        + ") but left the file mapped: a close whose force fails unmaps the file all the same", null);
                }
                refs.add(ref); // a failed write kept it mapped: still ours
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
        } finally {
            if (writer != null) {
                closeCursor(writer);
            }
            closeCursor(reader); // closes the link too
        }
        Ref again = ensureRef(f, false);
        try (PageCursor c = again.pf().io(id, PagedFile.PF_SHARED_READ_LOCK)) {
            if (!c.next()) {
                throw fail("read cursor next() to " + id + " on " + again + " returned false after the file was unmapped and"
                    + " mapped again", null);
            }
            long[] words = new long[PageImage.words(f.pageSize)];
            PageImage.readValidated(c, words, null);
            int slot = f.slotOf(id);
            long version = PageImage.versionOf(words, f.tag, id);
            if (version != f.acked(slot)) {
                throw fail("after an unmap under its cursors and a new map, " + f.describe(slot) + " holds version " + version
                    + " instead of " + f.acked(slot) + " (nothing else writes it)", null);
            }
        }
        sc.ownUnmapsUnderCursors.incrementAndGet();
    }

    private void expectUnmapped(Call call, String what, Ref ref) {
        Object result;
        try {
            result = call.call();
        } catch (IllegalStateException e) {
            return;
        } catch (Throwable e) {
            throw fail(what + " on " + ref + " after its unmap threw " + e + " instead of IllegalStateException", e);
        }
        if (result instanceof PageCursor opened) {
            opened.close();
        }
        throw fail(what + " on " + ref + " after its unmap returned " + result + " instead of throwing IllegalStateException", null);
    }

    private void flushAll() throws IOException {
        CacheGeneration g = sc.current();
        ctxGen = g;
        ctxFinishedBefore = g.closesFinished.get();
        trace.append("flushAndForce g").append(g.number).append(' ');
        List<String> names = new ArrayList<>();
        List<FaultInjector.Forces> stuck = stuckForces(g, names);
        try {
            g.cache.flushAndForce();
        } catch (IOException e) {
            if (!stuck.isEmpty()) {
                sc.stuckForcesReported.incrementAndGet();
            }
            throw e;
        }
        for (int i = 0; i < stuck.size(); i++) {
            if (stuck.get(i).closedBy() == null) {
                throw fail("PageCache.flushAndForce() returned normally although a force of " + names.get(i) + "'s mapping"
                    + " had failed before and it is still mapped: the failure sticks until the file is unmapped", null);
            }
        }
    }

    private void closeCache() throws IOException {
        CacheGeneration g = sc.current();
        ctxGen = g;
        ctxFinishedBefore = g.closesFinished.get();
        trace.append("close g").append(g.number).append(' ');
        try {
            closeAndJudge(g);
        } finally {
            afterCacheClose(g);
        }
    }

    /** Closes {@code g}; a refusal is allowed where another thread may hold a write cursor, or the disk failed. */
    private boolean closeAndJudge(CacheGeneration g) throws IOException {
        try {
            List<String> names = new ArrayList<>();
            List<FaultInjector.Forces> stuck = stuckForces(g, names);
            sc.close(g);
            trace.append("closed ");
            for (int i = 0; i < stuck.size(); i++) {
                if (stuck.get(i).closedBy() == Thread.currentThread()) {
                    throw fail("PageCache.close() returned normally although it unmapped " + names.get(i) + ", a force of"
                        + " whose mapping had failed before: the failure sticks to the close that unmaps it", null);
                }
            }
            return true;
        } catch (IllegalStateException e) {
            if (e instanceof NoEvictableFrameException || sc.config.threads() == 1) {
                throw fail("PageCache.close() threw " + e + " with no write cursor open", e);
            }
            trace.append("refused: ").append(e.getMessage()).append(' ');
            return false;
        } catch (IOException e) {
            if (!FaultInjector.isInjected(e)) {
                throw fail("PageCache.close() threw " + e + " with no disk fault injected (a write cursor holding a page"
                    + " must give IllegalStateException)", e);
            }
            trace.append("failed: ").append(e).append(' ');
            return false;
        }
    }

    private void afterCacheClose(CacheGeneration g) {
        if (g.closed) {
            for (Ref ref : new ArrayList<>(refs)) {
                if (ref.gen() == g) {
                    release(ref);
                }
            }
            sc.reopenAfter(g, "t" + t);
        }
    }

    /**
     * A read cursor stays open while the cache closes: reading through it must not crash (it may read
     * garbage), and its {@code shouldRetry()} and {@code next()} must throw IllegalStateException.
     */
    private void staleReadAcrossClose() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        CacheGeneration g = ref.gen();
        long id = rnd.nextInt(f.pages);
        trace.append(ref).append(" read ").append(id).append(" across close ");
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK);
        try {
            boolean pinned = c.next();
            if (pinned) {
                verifyUnderReadCursor(c, f, id, false);
            }
            // now and then a link holds a page too: it outlives the cache as its parent does
            long linkedId = rnd.nextInt(f.pages);
            PageCursor link = rnd.nextInt(3) == 0 ? c.openLinkedCursor(linkedId) : null;
            boolean linkPinned = link != null && link.next();
            if (link != null) {
                trace.append("link(").append(linkedId).append(")=").append(linkPinned).append(' ');
            }
            if (!closeAndJudge(g)) {
                return;
            }
            long sum = 0;
            for (int i = 0; i < PageImage.words(f.pageSize); i++) {
                sum += c.getLong(i * Long.BYTES); // may be garbage; must not crash
                sum += link != null ? link.getLong(i * Long.BYTES) : 0;
            }
            trace.append("stale read survived (").append(Long.toHexString(sum)).append(") ");
            if (pinned || linkPinned) {
                expectClosed(() -> c.shouldRetry(), "shouldRetry()" + (linkPinned ? " with a pinned link" : ""), ref);
            }
            if (link != null) {
                expectClosed(() -> link.next(), "next() of a linked cursor", ref);
            }
            expectClosed(() -> c.next(), "next()", ref);
            expectClosed(() -> c.next(id), "next(" + id + ")", ref);
            expectClosed(() -> c.openLinkedCursor(linkedId), "openLinkedCursor(" + linkedId + ")", ref);
        } finally {
            closeCursor(c); // closes the link too
            afterCacheClose(g);
        }
    }

    /**
     * With this thread's own write cursor holding a page, closing the cache must be refused with
     * IllegalStateException, and the cache stay open with the file mapped; the page is then written again.
     */
    private void closeWithOwnPin() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        CacheGeneration g = ref.gen();
        long id = ownPage(f);
        boolean viaLink = rnd.nextInt(3) == 0;
        trace.append(ref).append(" pin ").append(id).append(viaLink ? " through a link" : "").append(" then close g")
            .append(g.number).append(' ');
        PageCursor parent = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        Pending pending = new Pending(f);
        boolean abandon = false;
        try {
            // a linked write cursor's page holds the close back as its parent's would (the parent holds none)
            PageCursor c = viaLink ? parent.openLinkedCursor(id) : parent;
            if (!c.next()) {
                throw fail("write cursor next() on " + ref + " returned false", null);
            }
            checkMappedWhilePinned(ref, id);
            writeIfOwn(c, f, id, pending);
            int startedBefore = g.closesStarted.get();
            try {
                sc.close(g);
                abandon = true; // its frame memory may be gone: do not touch the cursor again
                throw fail("PageCache.close() returned normally while this thread's write cursor held " + f.name + " page " + id, null);
            } catch (IllegalStateException e) {
                if (e instanceof NoEvictableFrameException) {
                    throw e;
                }
                trace.append("refused ");
            } catch (IOException e) {
                if (!FaultInjector.isInjected(e)) {
                    throw fail("PageCache.close() with a write cursor holding a page threw " + e
                        + " instead of IllegalStateException", e);
                }
                trace.append("failed: ").append(e).append(' ');
            }
            if (!alive(ref.pf()) && g.closesStarted.get() == startedBefore + 1) {
                throw fail("PageCache.close() was refused for a pinned page of " + f.name + ", but left that file unmapped", null);
            }
            writeIfOwn(c, f, id, pending); // the page is still ours
        } finally {
            if (!abandon) {
                closeCursor(parent);
                pending.ack();
            }
        }
    }

    /**
     * With this thread's own write cursor holding a page, closing its reference to the file either just
     * drops the reference (others hold the file) or is refused with IllegalStateException: the file stays mapped.
     */
    private void unmapWithOwnPin() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f, false);
        long id = ownPage(f);
        boolean viaLink = rnd.nextInt(3) == 0;
        trace.append(ref).append(" pin ").append(id).append(viaLink ? " through a link" : "").append(" then close the file ");
        PageCursor parent = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        Pending pending = new Pending(f);
        try {
            PageCursor c = viaLink ? parent.openLinkedCursor(id) : parent;
            if (!c.next()) {
                throw fail("write cursor next() on " + ref + " returned false", null);
            }
            checkMappedWhilePinned(ref, id);
            writeIfOwn(c, f, id, pending);
            refs.remove(ref);
            try {
                ref.pf().close();
                trace.append("reference dropped ");
            } catch (IllegalStateException e) {
                if (e instanceof NoEvictableFrameException) {
                    throw e;
                }
                refs.add(ref);
                trace.append("refused ");
            } catch (IOException e) {
                if (!FaultInjector.isInjected(e)) {
                    throw e;
                }
                if (alive(ref.pf())) {
                    refs.add(ref); // the unmap failed: still mapped, still ours
                }
                trace.append("failed: ").append(e).append(' ');
            }
            if (!alive(ref.pf()) && !ref.mayBeClosed()) {
                throw fail("PagedFile.close() unmapped " + f.name + " while this thread's write cursor held page " + id, null);
            }
            writeIfOwn(c, f, id, pending);
        } finally {
            closeCursor(parent); // closes the link too
            pending.ack();
        }
    }

    // ---- references -----------------------------------------------------------------------------

    /**
     * Often closes the reference the operation used, so that every thread's references to a file are
     * often all closed: the last close unmaps it, racing other threads' maps and faults.
     */
    private void letGoSometimes() {
        Ref ref = ctxRef;
        if (ref != null && refs.contains(ref) && rnd.nextInt(100) < 40) {
            trace.append("let go ");
            release(ref);
        }
    }

    private List<Ref> refsOf(FileModel f, CacheGeneration g) {
        List<Ref> out = new ArrayList<>();
        for (Ref r : refs) {
            if (r.file() == f && r.gen() == g) {
                out.add(r);
            }
        }
        return out;
    }

    /** Releases references into caches other than {@code g} (closed ones): closing them must be a harmless no-op. */
    private void dropStaleRefs(CacheGeneration g) {
        for (Ref r : new ArrayList<>(refs)) {
            if (r.gen() != g) {
                release(r);
            }
        }
    }

    /** Drops {@code ref} if its file is no longer mapped (io() throws IllegalStateException). */
    private void dropIfDead(Ref ref) {
        if (refs.contains(ref) && !alive(ref.pf())) {
            release(ref);
        }
    }

    /** Closes one reference; on an unmapped file or a closed cache that must not throw. */
    private void release(Ref ref) {
        refs.remove(ref);
        try {
            ref.pf().close();
        } catch (IllegalStateException e) {
            // Refused because another thread's write cursor held a page when it was tried: legitimate even
            // if the file is unmapped by the time we look (the cache may have closed right after).
            boolean heldByAnotherThread = sc.config.threads() > 1 && String.valueOf(e.getMessage()).contains("write cursor");
            if (!heldByAnotherThread) {
                throw fail("PagedFile.close() of an unmapped file (" + ref + ") threw " + e, e);
            }
            if (alive(ref.pf())) {
                refs.add(ref); // the refused close kept the reference: try again later
            }
        } catch (IOException e) {
            if (!FaultInjector.isInjected(e)) {
                throw fail("PagedFile.close() of " + ref + " threw " + e, e);
            }
            if (alive(ref.pf())) {
                refs.add(ref);
            }
        }
    }

    /** At the end: every reference closed (others may still hold pages: a refusal is fine then). */
    private void releaseAll() {
        for (Ref ref : new ArrayList<>(refs)) {
            sc.watchdog.begin(t, "t" + t + " closing " + ref + " at the end");
            try {
                ref.pf().close();
            } catch (IllegalStateException | IOException e) {
                if (!(e instanceof IOException && FaultInjector.isInjected(e)) && !(e instanceof IllegalStateException
                    && !(e instanceof NoEvictableFrameException))) {
                    throw fail("PagedFile.close() of " + ref + " at the end threw " + e, e);
                }
            } finally {
                sc.watchdog.end(t);
            }
        }
        refs.clear();
    }

    /** True if {@code pf} is mapped: {@code io()} gives a cursor (closed at once, never moved). */
    private boolean alive(PagedFile pf) {
        try {
            PageCursor c = pf.io(0, PagedFile.PF_SHARED_READ_LOCK);
            c.close();
            return true;
        } catch (IllegalStateException e) {
            return false;
        } catch (IOException e) {
            if (FaultInjector.isInjected(e) && sc.faulty()) {
                return true; // it got as far as reporting the failing disk: mapped
            }
            throw fail("PagedFile.io() threw " + e, e);
        }
    }

    private void closeCursor(PageCursor c) {
        try {
            c.close();
        } catch (RuntimeException | Error e) {
            throw fail("PageCursor.close() threw " + e, e);
        }
    }

    interface Call {
        Object call() throws IOException;
    }

    private void expectClosed(Call call, String what, Ref ref) {
        Object result;
        try {
            result = call.call();
        } catch (IllegalStateException e) {
            return;
        } catch (Throwable e) {
            throw fail(what + " on a read cursor of " + ref + " after its cache closed threw " + e
                + " instead of IllegalStateException", e);
        }
        if (result instanceof PageCursor opened) {
            opened.close();
        }
        throw fail(what + " on a read cursor of " + ref + " after its cache closed returned " + result
            + " instead of throwing IllegalStateException", null);
    }

    // ---- choosing ---------------------------------------------------------------------------------

    private FileModel randomFile() {
        return sc.files.get(rnd.nextInt(sc.files.size()));
    }

    /** One of this thread's page ids among the file's ordinary pages. */
    private long ownPage(FileModel f) {
        if (rnd.nextInt(100) < 30) {
            // at the file's frontier: the file keeps growing, so faults run past the last page an unmap knows of
            long base = f.maxAckedPageId() + 1 + rnd.nextInt(2 * f.threads);
            long id = base - base % f.threads + t;
            if (id < f.pages) {
                return id;
            }
        }
        int owned = (f.pages - t + f.threads - 1) / f.threads;
        return t + (long) f.threads * rnd.nextInt(owned);
    }

    /** Any page id: mostly the ordinary pages and a few past them, sometimes a far page or a hole beside one. */
    private long anyPage(FileModel f) {
        int r = rnd.nextInt(100);
        if (r < 90 || sc.settings.skips().farIds()) {
            return rnd.nextInt(f.pages + 8);
        }
        long far = f.pageId(f.pages + rnd.nextInt(f.slots() - f.pages));
        if (r < 95) {
            return far;
        }
        return Math.min((1L << 48) - 1, far + 1 + rnd.nextInt(3));
    }

    private AssertionError fail(String message, Throwable cause) {
        return sc.fail("t" + t + " op#" + opNo + ": " + message + "\n  steps: " + trace, cause);
    }

    /** The version this thread wrote to a page under its write cursor, acknowledged once the cursor moves on or closes. */
    private static final class Pending {
        private final FileModel file;
        private int slot = -1;
        private long version;

        Pending(FileModel file) {
            this.file = file;
        }

        void set(int slot, long version) {
            if (this.slot >= 0 && this.slot != slot) {
                ack();
            }
            this.slot = slot;
            this.version = version;
        }

        void ack() {
            if (slot >= 0) {
                file.ack(slot, version);
                slot = -1;
            }
        }
    }
}
