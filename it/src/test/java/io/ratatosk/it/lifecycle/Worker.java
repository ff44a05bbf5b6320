package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.CursorException;
import io.ratatosk.pagecache.NoEvictableFrameException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 *
 * <p>This class draws the operations, runs the plain ones (read, write, map, unmap, flush, truncate) and holds what
 * they all share: the random source, the thread's references, the step's trace and the checks every operation makes.
 * The others live in classes of their own: {@link CloseOperations}, {@link LinkedCursorOperations},
 * {@link MisuseChecks} (closed cursors and bad input) and {@link OwnFileOperations}.
 */
final class Worker implements Runnable {
    /**
     * The operations and their weights. Those with a later weight instead were added after seeds of the others were
     * replayed: they are drawn from a random source of their own, between the others ({@link #pickLater}), so that a seed
     * still draws the others as it did.
     */
    enum Op {
        READ(330), WRITE(380), MAP(80), UNMAP(75), FLUSH(35), FLUSH_ALL(12), CLOSE_CACHE(8),
        STALE_READ_ACROSS_CLOSE(4), CLOSE_WITH_OWN_PIN(4), UNMAP_WITH_OWN_PIN(6), TRUNCATE_PAST_EVERY_PAGE(10),
        LINKED_READ(14), LINKED_WRITE(14), CURSOR_MISUSE(5), OWN_FILE_TRUNCATE(6), OWN_FILE_END(6), OWN_FILE_UNMAP_UNDER_CURSORS(4),
        BAD_INPUT(4), SHARED_TRUNCATE(6), TOUCH(8),
        COPY_TO(0, 30), CURSOR_EXCEPTIONS(0, 15), CLOSE_HOST_TIER(0, 5),
        MAP_MAPPED_FILE_AGAIN(0, 0, 10), OWN_FILE_FLUSHED_ON_DISK(0, 0, 10);

        final int weight;
        final int laterWeight;
        /** The weight of an operation added after seeds of the later ones were replayed: see {@link #pickNewer}. */
        final int newerWeight;

        Op(int weight) {
            this(weight, 0);
        }

        Op(int weight, int laterWeight) {
            this(weight, laterWeight, 0);
        }

        Op(int weight, int laterWeight, int newerWeight) {
            this.weight = weight;
            this.laterWeight = laterWeight;
            this.newerWeight = newerWeight;
        }
    }

    private static final int TOTAL_WEIGHT;
    private static final int TOTAL_LATER_WEIGHT;
    private static final int TOTAL_NEWER_WEIGHT;
    /** How often, per thousand of the other operations, one added later runs before one. */
    private static final int LATER_PER_THOUSAND = 50;
    /** How often, per thousand of the first operations, a newer one runs before one. */
    private static final int NEWER_PER_THOUSAND = 20;

    static {
        int total = 0;
        int later = 0;
        int newer = 0;
        for (Op op : Op.values()) {
            total += op.weight;
            later += op.laterWeight;
            newer += op.newerWeight;
        }
        TOTAL_WEIGHT = total;
        TOTAL_LATER_WEIGHT = later;
        TOTAL_NEWER_WEIGHT = newer;
    }

    private static final int MAX_REFS_PER_FILE = 3;
    /** How a flush, or a close, says that a force of the mapping failed before (FileMapping's words). */
    static final String EARLIER_FORCE_FAILED = "an earlier force of";
    /** How a flush, or a close, says that its own force failed (FileMapping's words). */
    static final String FORCE_FAILED = "to storage failed after its dirty pages were written";

    // Shared with the operation classes: one random source per thread, drawn in one order, so a seed replays its scenario.
    final Scenario sc;
    final int t;
    /** The random source the running operation draws from: {@link #mainRnd}, or {@link #laterRnd} for one added later. */
    SplittableRandom rnd;
    private final SplittableRandom mainRnd;
    private final SplittableRandom laterRnd;
    /** As {@link #laterRnd}, for the operations added after those ({@link #pickNewer}). */
    private final SplittableRandom newerRnd;
    /**
     * Options added later to the operations of either source ({@code map}'s create, a write cursor's read-ahead and
     * writes out of its page), drawn here so that both draw as before.
     */
    private final SplittableRandom optionRnd;
    private final OpLog log;
    final List<Ref> refs = new ArrayList<>();
    final StringBuilder trace = new StringBuilder();
    private final MisuseChecks misuse;
    private final LinkedCursorOperations linkedCursors;
    private final OwnFileOperations ownFile;
    private final CloseOperations closes;
    private final CopyOperations copies;
    private final CursorExceptionChecks cursorExceptions;
    private final ClaimChecks claims;
    /** Its snapshots of the cache's stats() between operations; the driver compares its own with the last of them. */
    final StatsChecks stats;
    private long opNo;

    /** The mapping the current step works on (judges an IllegalStateException), or null. */
    private Ref ctxRef;
    /** With no mapping: the cache the current step works on, and its finished close attempts before the step. */
    private CacheGeneration ctxGen;
    private int ctxFinishedBefore;

    Worker(Scenario sc, int t) {
        this.sc = sc;
        this.t = t;
        this.mainRnd = new SplittableRandom(RunSettings.mix(sc.config.seed(), t));
        // a draw of its own: the operations added later leave the others' draws as they were
        this.laterRnd = new SplittableRandom(RunSettings.mix(sc.config.seed(), 5000 + t));
        this.optionRnd = new SplittableRandom(RunSettings.mix(sc.config.seed(), 7000 + t));
        this.newerRnd = new SplittableRandom(RunSettings.mix(sc.config.seed(), 9000 + t));
        this.rnd = mainRnd;
        this.log = sc.logs.get(t);
        this.misuse = new MisuseChecks(this);
        this.linkedCursors = new LinkedCursorOperations(this, misuse);
        this.ownFile = new OwnFileOperations(this);
        this.closes = new CloseOperations(this);
        this.copies = new CopyOperations(this, laterRnd);
        this.cursorExceptions = new CursorExceptionChecks(this, laterRnd);
        this.stats = new StatsChecks(sc, "t" + t);
        this.claims = new ClaimChecks(this, newerRnd);
    }

    @Override
    public void run() {
        int ops = sc.config.opsPerThread();
        try {
            for (opNo = 0; opNo < ops && !sc.failures.any(); opNo++) {
                toggleFaults(ops);
                Op later = pickLater();
                if (later != null) {
                    runOne(later);
                }
                Op newer = pickNewer();
                if (newer != null) {
                    runOne(newer);
                }
                runOne(pick());
                snapshotStats();
            }
            releaseAll();
            sc.injector.settle();
        } catch (AssertionError e) {
            // recorded already
        } catch (Throwable e) {
            sc.fail("t" + t + " op#" + opNo + ": worker died: " + e, e);
        }
    }

    /** A snapshot of the current cache's stats() between two operations (draws nothing), watched as an operation is. */
    private void snapshotStats() {
        if (sc.failures.any()) {
            return;
        }
        sc.watchdog.begin(t, "t" + t + " stats() after op#" + opNo);
        try {
            stats.snapshot(sc.currentNow(), "after op#" + opNo);
        } finally {
            sc.watchdog.end(t);
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

    /** Now and then an operation added later, from its own random source; else null. */
    private Op pickLater() {
        if (laterRnd.nextInt(1000) >= LATER_PER_THOUSAND) {
            return null;
        }
        int r = laterRnd.nextInt(TOTAL_LATER_WEIGHT);
        for (Op op : Op.values()) {
            r -= op.laterWeight;
            if (r < 0) {
                return sc.settings.skips().ops().contains(op) ? null : op;
            }
        }
        throw new AssertionError("unreachable");
    }

    /** Now and then an operation added after the later ones, from a random source of its own; else null. */
    private Op pickNewer() {
        if (newerRnd.nextInt(1000) >= NEWER_PER_THOUSAND) {
            return null;
        }
        int r = newerRnd.nextInt(TOTAL_NEWER_WEIGHT);
        for (Op op : Op.values()) {
            r -= op.newerWeight;
            if (r < 0) {
                return sc.settings.skips().ops().contains(op) ? null : op;
            }
        }
        throw new AssertionError("unreachable");
    }

    private void runOne(Op op) {
        rnd = op.newerWeight > 0 ? newerRnd : op.laterWeight > 0 ? laterRnd : mainRnd;
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
                case CLOSE_CACHE -> closes.closeCache();
                case STALE_READ_ACROSS_CLOSE -> closes.staleReadAcrossClose();
                case CLOSE_WITH_OWN_PIN -> closes.closeWithOwnPin();
                case UNMAP_WITH_OWN_PIN -> closes.unmapWithOwnPin();
                case TRUNCATE_PAST_EVERY_PAGE -> truncatePastEveryPage();
                case LINKED_READ -> linkedCursors.linkedRead();
                case LINKED_WRITE -> linkedCursors.linkedWrite();
                case CURSOR_MISUSE -> misuse.cursorMisuse();
                case OWN_FILE_TRUNCATE -> ownFile.ownFileTruncate();
                case OWN_FILE_END -> ownFile.ownFileEnd();
                case OWN_FILE_UNMAP_UNDER_CURSORS -> ownFile.ownFileUnmapUnderCursors();
                case BAD_INPUT -> misuse.badInput();
                case SHARED_TRUNCATE -> sharedTruncate();
                case TOUCH -> touch();
                case COPY_TO -> copies.copyTo();
                case CURSOR_EXCEPTIONS -> cursorExceptions.cursorExceptions();
                case CLOSE_HOST_TIER -> closes.closeHostTierUnderCache();
                case MAP_MAPPED_FILE_AGAIN -> claims.mapMappedFileAgain();
                case OWN_FILE_FLUSHED_ON_DISK -> ownFile.ownFileFlushedOnDisk();
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
            sc.injector.settle();
            sc.watchdog.end(t);
            sc.ops.incrementAndGet();
            rnd = mainRnd;
        }
    }

    /** The current step works on cache {@code g}, with no mapping: a close of it since now explains an IllegalStateException. */
    void workOnCache(CacheGeneration g) {
        ctxGen = g;
        ctxFinishedBefore = g.closesFinished.get();
    }

    /** The current step works on {@code ref}: a close that may have unmapped it explains an IllegalStateException. */
    void workOn(Ref ref) {
        ctxRef = ref;
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
            long waited = 0;
            int steps = 1 + rnd.nextInt(8);
            for (int i = 0; i < steps; i++) {
                int kind = rnd.nextInt(100);
                if (kind < 3) {
                    misuse.invalidId(c, ref);
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
                int cutsBefore = f.cutsFinished();
                long maxAcked = f.maxAckedPageId();
                boolean closedBefore = ref.gen().closed;
                boolean ok = pinned(ref, sequential ? c.next() : c.next(id));
                trace.append(sequential ? "next()=" : "next(" + id + ")=").append(ok ? "" : "false ");
                if (closedBefore) {
                    throw fail("read cursor next(" + id + ") on " + ref + " returned " + ok + " although the cache's close()"
                        + " had returned before the call, instead of throwing IllegalStateException", null);
                }
                waited = checkFaultsWaited(c, ref, waited);
                if (!ok) {
                    if (id <= maxAcked && !f.cutSince(cutsBefore)) {
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
                // a read that a truncate cut under it leaves the cursor on no page: go on with a jump
                expectNext = verifyUnderReadCursor(c, f, id, slow, cutsBefore) ? id + 1 : -1;
            }
        } finally {
            closeCursor(c);
        }
    }

    /** As below, for a file no other thread cuts (this thread's own): nothing is excused. */
    void verifyUnderReadCursor(PageCursor c, FileModel f, long id, boolean slow) throws IOException {
        verifyUnderReadCursor(c, f, id, slow, f.cutsFinished());
    }

    /**
     * Reads the page under the read cursor {@code c} (moved to {@code id} after {@code cutsBefore} was read) and judges
     * it. A truncate begun since may have cut the page under the read: the cursor then says so (the read out of bounds,
     * a cursor exception), and the read is void; returns false then, true for a page read and judged.
     */
    boolean verifyUnderReadCursor(PageCursor c, FileModel f, long id, boolean slow, int cutsBefore) throws IOException {
        int slot = f.slotOf(id);
        FileModel.Seen seen = slot >= 0 ? f.seen(slot, cutsBefore) : null;
        long[] words = new long[PageImage.words(f.pageSize)];
        PageImage.readValidated(c, words, slow ? Thread::yield : null, PageImage.Access.of(id));
        if (c.checkAndClearBoundsFlag()) {
            if (!f.cutSince(cutsBefore)) {
                throw fail("bounds flag raised by in-page reads of " + f.name + " page " + id, null);
            }
            expectCutUnder(c, f, String.valueOf(id), words);
            return false;
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
            return true;
        }
        String wrong = f.judge(slot, version, seen);
        if (wrong != null) {
            throw fail("read cursor: " + f.describe(slot) + " " + wrong, null);
        }
        return true;
    }

    /**
     * A read of {@code f} page {@code id} (or of both pages of a record, {@code reads} one each) whose in-page reads went
     * out of bounds under a truncate of the file: the page was cut under it, so its {@code shouldRetry()} left it on no
     * page, where nothing is read (zeros out of bounds, never the page's old bytes) and its cursor exception says the page
     * was truncated away.
     */
    void expectCutUnder(PageCursor c, FileModel f, String id, long[]... reads) {
        for (long[] words : reads) {
            for (int i = 0; i < words.length; i++) {
                if (words[i] != 0) {
                    throw fail("a read of " + f.name + " page " + id + " went out of bounds under a truncate, but read word " + i
                        + " = " + Long.toHexString(words[i]) + " after its shouldRetry(): a cursor on no page reads nothing", null);
                }
            }
        }
        try {
            c.checkAndClearCursorException();
        } catch (CursorException e) {
            trace.append("cut under the read: ").append(e.getMessage()).append(' ');
            sc.sharedReadsCutUnder.incrementAndGet();
            return;
        }
        throw fail("a read of " + f.name + " page " + id + " went out of bounds under a truncate of the file, but the cursor has"
            + " no cursor exception to say its page was cut", null);
    }

    private void write() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        boolean noGrow = rnd.nextInt(10) == 0;
        long start = ownPage(f);
        // Read-ahead on a write cursor too: its worker faults in the pages after a sequential run while the cursor
        // write-locks them (and grows the file past them)
        boolean readAhead = optionRnd.nextInt(6) == 0;
        trace.append(ref).append(noGrow ? " NO_GROW" : "").append(readAhead ? " read-ahead" : "").append(" io(").append(start)
            .append(") ");
        PageCursor c = ref.pf().io(start, PagedFile.PF_SHARED_WRITE_LOCK | (noGrow ? PagedFile.PF_NO_GROW : 0)
            | (readAhead ? PagedFile.PF_READ_AHEAD : 0));
        PendingWrite pending = new PendingWrite(f);
        try {
            long expectNext = start;
            long waited = 0;
            int steps = 1 + rnd.nextInt(8);
            for (int i = 0; i < steps; i++) {
                int kind = rnd.nextInt(100);
                if (kind < 2) {
                    misuse.invalidId(c, ref);
                    continue;
                }
                if (kind < 5 && !sc.settings.skips().farIds()) {
                    farWrite(c, ref, pending, noGrow);
                    expectNext = -1;
                    continue;
                }
                boolean sequential = kind < 45 && expectNext >= 0;
                long id = sequential ? expectNext : ownPage(f);
                int cutsBefore = f.cutsFinished();
                long maxAcked = f.maxAckedPageId();
                boolean closedBefore = ref.gen().closed;
                boolean ok = pinned(ref, sequential ? c.next() : c.next(id));
                pending.ack(); // moved on
                trace.append(sequential ? "next()=" : "next(" + id + ")=").append(ok ? "" : "false ");
                waited = checkFaultsWaited(c, ref, waited);
                if (!ok) {
                    if (!noGrow || (id <= maxAcked && !f.cutSince(cutsBefore))) {
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
                // only on a page this thread owns: its owner may write another's page under its own shared write lock
                if (optionRnd.nextInt(8) == 0 && owns(f, id)) {
                    misuse.outOfBoundsWrite(c, ref, id, optionRnd);
                }
                if (optionRnd.nextInt(8) == 0) {
                    misuse.outOfPageRelativeReads(c, ref, id, optionRnd);
                }
                expectNext = id + 1;
            }
        } finally {
            closeCursor(c);
            pending.ack(); // closed without exception
        }
        checkFileSize(ref, " after a write");
    }

    /** Counts a {@code next()} of a cursor on {@code ref} that returned true ({@code moved}) as a pin of its cache; returns it. */
    boolean pinned(Ref ref, boolean moved) {
        if (moved) {
            ref.gen().pins.increment();
        }
        return moved;
    }

    /**
     * {@code faultsWaitedFor()} of the open cursor {@code c} after a {@code next()}: it counts the cursor's pins that
     * waited for a page to be read in since it opened, so it is never negative and never goes down while the cursor is
     * open (whatever the next() found: a hit, a fault, no page). Returns it, for the next call's {@code before}.
     */
    private long checkFaultsWaited(PageCursor c, Ref ref, long before) {
        long now = c.faultsWaitedFor();
        if (now < before || now < 0) {
            throw fail("faultsWaitedFor() of a cursor on " + ref + " went from " + before + " to " + now + " at a next():"
                + " it counts the pins of the cursor's life that waited for a read, so it never goes down", null);
        }
        return now;
    }

    /** A write cursor's {@code next(far id)}: works (the page is written) or is refused with IAE or IOException. */
    private void farWrite(PageCursor c, Ref ref, PendingWrite pending, boolean noGrow) throws IOException {
        FileModel f = ref.file();
        int base = rnd.nextInt(FileModel.FAR_BASES.length);
        int slot = f.pages + base * f.threads + t;
        long id = f.pageId(slot);
        boolean ok;
        trace.append("far next(").append(id).append(")=");
        int cutsBefore = f.cutsFinished();
        long maxAcked = f.maxAckedPageId();
        try {
            ok = pinned(ref, c.next(id));
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
            if (!noGrow || (id <= maxAcked && !f.cutSince(cutsBefore))) {
                throw fail("write cursor next(" + id + ") on " + ref + " returned false", null);
            }
            return;
        }
        checkPosition(c, id);
        checkMappedWhilePinned(ref, id);
        writeIfOwn(c, f, id, pending);
        sc.farWrites.incrementAndGet();
    }

    /** Whether page {@code id} of {@code f} is this thread's: the only thread that writes it. */
    private boolean owns(FileModel f, long id) {
        int slot = f.slotOf(id);
        return slot >= 0 && f.owner(slot) == t;
    }

    /** Writes the next version of the page under the write cursor if this thread owns it, after checking what it holds. */
    void writeIfOwn(PageCursor c, FileModel f, long id, PendingWrite pending) {
        if (!owns(f, id)) {
            trace.append("pinned ");
            return;
        }
        int slot = f.slotOf(id);
        // After the pin, which a truncate cannot cut while it lasts: one that cut the page before is done with its
        // bookkeeping by now, or is excused as under way
        FileModel.Seen seen = f.seen(slot);
        long[] words = new long[PageImage.words(f.pageSize)];
        PageImage.readPinned(c, words);
        long version;
        try {
            version = PageImage.versionOf(words, f.tag, id);
        } catch (PageImage.DamagedPage e) {
            throw fail("write cursor, before writing: " + f.describe(slot) + " " + e.getMessage(), null);
        }
        String wrong = f.judge(slot, version, seen);
        if (wrong != null) {
            throw fail("write cursor, before writing: " + f.describe(slot) + " " + wrong, null);
        }
        long v = f.startWrite(slot);
        PageImage.write(c, f.tag, id, v, PageImage.Access.of(v));
        pending.set(slot, v);
        trace.append('v').append(version).append("->v").append(v).append(' ');
        if (rnd.nextInt(16) == 0) {
            Thread.yield(); // hold the pin a little longer: a close now must be refused
        }
    }

    /**
     * While a write cursor holds a page, neither the file nor the cache can close: so a mapping that is
     * gone now was unmapped under the fault that pinned the page (which then lingers, bound to a dead file).
     */
    void checkMappedWhilePinned(Ref ref, long id) {
        for (int look = 0; !alive(ref.pf()); look++) {
            if (look < 3) {
                LockSupport.parkNanos(1_000_000); // a refused close may hold the file back for a moment
                continue;
            }
            throw fail("write cursor holds page " + id + " of " + ref + ", but the file is no longer mapped (io() throws):"
                + " an unmap or close completed while the fault that pinned the page was under way", null);
        }
    }

    void checkPosition(PageCursor c, long id) {
        long at = c.getCurrentPageId();
        if (at != id) {
            throw fail("cursor moved to page " + id + " but getCurrentPageId() says " + at, null);
        }
    }

    /**
     * {@code PagedFile.fileSize()} is the last page id plus one, times the file's page size (not the cache's): so it lies
     * between that of the last page id read before it and that of the one read after, as only a truncate lowers the last
     * page id (one begun since excuses a size outside).
     */
    void checkFileSize(Ref ref, String after) {
        FileModel f = ref.file();
        int cutsBefore = f.cutsFinished();
        long lastBefore = ref.pf().getLastPageId();
        long size = ref.pf().fileSize();
        long lastAfter = ref.pf().getLastPageId();
        boolean between = (lastBefore + 1) * f.pageSize <= size && size <= (lastAfter + 1) * f.pageSize;
        if (size % f.pageSize != 0 || !between && !f.cutSince(cutsBefore)) {
            throw fail("fileSize() of " + ref + after + " is " + size + ", but its last page id was " + lastBefore + " before and "
                + lastAfter + " after, with pages of " + f.pageSize + " bytes", null);
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
        PagedFile pf = optionRnd.nextInt(4) == 0 ? mapExisting(f, g, spelling) : g.cache.map(spelling, f.pageSize);
        Ref ref = new Ref(g, f, pf, spelling, finished, false);
        refs.add(ref);
        ctxRef = ref;
        if (pf.pageSize() != f.pageSize) {
            throw fail("map(" + f.label(spelling) + ", " + f.pageSize + ") returned a mapping with page size " + pf.pageSize(), null);
        }
        Path resolved = sc.spellings.resolved(f.name);
        if (!pf.path().equals(resolved)) {
            throw fail("map(" + f.label(spelling) + ") returned a mapping whose path() is " + pf.path() + ", not the file's real"
                + " path " + resolved + " (every link resolved)", null);
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
     * {@code map(spelling, pageSize, false)}: a file that exists (any thread's map made it) must be mapped as by a plain map,
     * by every spelling, link or not, and read and written as any; one that does not is refused with NoSuchFileException
     * (and then mapped with create, so that the operation goes on).
     */
    private PagedFile mapExisting(FileModel f, CacheGeneration g, Path spelling) throws IOException {
        Path real = sc.spellings.resolved(f.name);
        boolean existed = Files.exists(real);
        trace.append("without create ");
        try {
            return g.cache.map(spelling, f.pageSize, false);
        } catch (NoSuchFileException e) {
            // only a map that created the file and failed deletes it: gone meanwhile, it may have been such a file
            if (existed && Files.exists(real)) {
                throw fail("map(" + f.label(spelling) + ", " + f.pageSize + ", create false) threw " + e + ", but " + real
                    + " existed before and after the call", e);
            }
            trace.append("refused, no file yet ");
            return g.cache.map(spelling, f.pageSize);
        }
    }

    /**
     * A mapping of {@code f} in the current cache to work on: one of this thread's references, a new one,
     * or now and then another thread's mapping, borrowed. A refusing cache throws IllegalStateException.
     */
    Ref ensureRef(FileModel f) throws IOException {
        return ensureRef(f, true);
    }

    /** As {@link #ensureRef(FileModel)}; {@code mayBorrow}: another thread's mapping may do. */
    Ref ensureRef(FileModel f, boolean mayBorrow) throws IOException {
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
        FaultInjector.Forces forces = forcesOf(ref);
        try {
            closeJudgingStuckForce(ref, "");
        } catch (IllegalStateException e) {
            if (e instanceof NoEvictableFrameException || sc.config.threads() == 1) {
                throw fail("PagedFile.close() threw " + e + " with no cursor open", e);
            }
            refs.add(ref); // refused while another thread's write cursor holds a page: still ours
            trace.append("refused (pinned) ");
        } catch (AssertionError e) {
            throw e; // the model's own verdict
        } catch (IOException | Error e) {
            // An injected Error too, as it is: dropped here before, the reference was lost with the file still mapped
            // (its count restored), and what the close left was never checked
            if (!FaultInjector.isInjected(e)) {
                throw e;
            }
            trace.append("failed: ").append(e).append(' ');
            if (stillMappedAfterFailedClose(ref, forces, e)) {
                refs.add(ref);
            }
        }
    }

    /** The injector's record of the forces of {@code ref}'s mapping where it speaks for its cache, else null. */
    FaultInjector.Forces forcesOf(Ref ref) {
        return ref.gen().forcesTracked ? sc.injector.forcesOf(ref.file().name) : null;
    }

    /**
     * After a close of {@code ref} that threw the injected failure {@code e} (an IOException, or an Error as it is):
     * whether the file is still mapped, checked against where the close failed. Past its point of no return (the unmap's
     * force after every page was dropped, or the swapper's close: {@code forces.closedBy()} is this thread) the file is
     * unmapped whatever the close threw; before it (a write, the new last page of a cut) the unmap is undone, and the file
     * stays mapped with this reference still counted, unless a close of the cache explains its going.
     */
    boolean stillMappedAfterFailedClose(Ref ref, FaultInjector.Forces forces, Throwable e) {
        boolean mapped = alive(ref.pf());
        if (forces == null) {
            return mapped;
        }
        boolean pastNoReturn = forces.closedBy() == Thread.currentThread();
        if (mapped && pastNoReturn) {
            throw fail("PagedFile.close() of " + ref + " got past its unmap's point of no return (every page dropped, then the"
                + " force or the file's close) and threw " + e + ", but left the file mapped (io() gives cursors): such a close"
                + " unmaps the file all the same", e);
        }
        if (!mapped && !pastNoReturn && !ref.mayBeClosed()) {
            throw fail("PagedFile.close() of " + ref + " failed before its unmap's point of no return (" + e + "), which leaves"
                + " the file mapped with this reference counted, but the file is unmapped and no close of the cache explains it", e);
        }
        return mapped;
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
            if (aliveBefore && String.valueOf(e.getMessage()).contains(EARLIER_FORCE_FAILED) && !forces.anyForceFailed()
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
        checkFileSize(ref, " after a flush");
    }

    /** The files of {@code g} whose mapping's force failed and which are still mapped: the failure sticks to each. */
    List<FaultInjector.Forces> stuckForces(CacheGeneration g, List<String> names) {
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
        int cutsBefore = ref.file().cutsFinished();
        long last = ref.pf().getLastPageId();
        trace.append("truncate ").append(ref).append(' ');
        ref.pf().truncate(ref.pf().maxPageId() + 1);
        long after = ref.pf().getLastPageId();
        if (after < last && !ref.file().cutSince(cutsBefore)) { // another thread's cut to a middle page lowers it
            throw fail("truncate(" + (ref.pf().maxPageId() + 1) + ") of " + ref + " lowered its last page from " + last
                + " to " + after + ", cutting pages it must keep", null);
        }
        checkFileSize(ref, " after a truncate past its end");
    }

    /**
     * A truncate of a file every thread reads and writes, to a page in its upper half now and then anywhere, while the
     * others go on. Refused while another thread's write cursor holds a page past the cut (nothing changed then). The
     * model learns what the cut leaves ({@link FileModel#cutEnds}): what was written before it began is gone for good,
     * what was written while it ran may or may not be, and the other threads' checks that overlapped it take a page
     * read as zeros, past the end, or cut under their read cursor for what it may be now.
     */
    private void sharedTruncate() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        long cut = rnd.nextInt(8) == 0 ? rnd.nextInt(f.pages + 1) : f.pages / 2 + rnd.nextInt(f.pages - f.pages / 2 + 1);
        trace.append("truncate ").append(ref).append(" to ").append(cut).append(' ');
        // half the time this thread reads a page past the cut as it runs: the read must find out at its shouldRetry()
        long readId = cut < f.pages && rnd.nextBoolean() ? cut + rnd.nextInt((int) (f.pages - cut)) : -1;
        int cutsBefore = f.cutsFinished();
        PageCursor reader = readId >= 0 ? ref.pf().io(readId, PagedFile.PF_SHARED_READ_LOCK) : null;
        try {
            boolean readerOn = reader != null && reader.next();
            if (readerOn) {
                PageImage.readPinned(reader, new long[PageImage.words(f.pageSize)]);
                trace.append("reading ").append(readId).append(' ');
            }
            if (truncateShared(ref, cut) && readerOn && !reader.shouldRetry()) {
                throw fail("shouldRetry() of a read cursor on page " + readId + " of " + ref + " returned false after truncate("
                    + cut + ") cut it off: the read through it is void", null);
            }
            if (readerOn) {
                // on no page (its reads out of bounds, a cursor exception), or on the page again where another thread grew
                // the file back to it meanwhile: then it holds zeros or what was written since, never what was cut
                verifyUnderReadCursor(reader, f, readId, false, cutsBefore);
            }
        } finally {
            if (reader != null) {
                closeCursor(reader);
            }
        }
        checkFileSize(ref, " after truncate(" + cut + ")");
    }

    /** Truncates the shared file of {@code ref} to {@code cut} pages, telling the model; true if the cut was made. */
    private boolean truncateShared(Ref ref, long cut) throws IOException {
        FileModel f = ref.file();
        long[] startedBefore = f.cutBegins();
        FileModel.CutOutcome outcome = FileModel.CutOutcome.UNKNOWN;
        try {
            ref.pf().truncate(cut);
            outcome = FileModel.CutOutcome.MADE;
            sc.sharedTruncates.incrementAndGet();
            return true;
        } catch (IllegalStateException e) {
            outcome = FileModel.CutOutcome.NONE; // refused: held by a write cursor, or the file unmapped
            if (!String.valueOf(e.getMessage()).contains("held by a write cursor")) {
                throw e; // judged: a close must explain it
            }
            if (sc.config.threads() == 1) {
                throw fail("truncate(" + cut + ") of " + ref + " was refused for a page held by a write cursor, but no cursor of"
                    + " any thread is open", e);
            }
            sc.sharedTruncatesRefused.incrementAndGet();
            trace.append("refused (pinned) ");
            return false;
        } catch (IOException | Error e) {
            if (FaultInjector.failedAt(e, FaultInjector.TRUNCATE)) {
                outcome = FileModel.CutOutcome.NONE; // the swapper's cut failed: nothing changed, the cache promises
            }
            throw e;
        } finally {
            f.cutEnds(cut, startedBefore, f.startedNow(), outcome);
        }
    }

    /**
     * Faults a few pages of a shared file in without pinning them, racing the others' cursors, unmaps, truncates and
     * cache closes. PagedFile.touch promises three things, each checked: it stops at the file's last page (the count it
     * returns is at most the pages of the range at or below it), the count is of pages brought in (at most those asked
     * for), and the pages it loaded are the file's: each is read and judged at once, while it is likely still in the
     * frame the touch filled.
     */
    private void touch() throws IOException {
        FileModel f = randomFile();
        Ref ref = ensureRef(f);
        long start = rnd.nextInt(f.pages + 8);
        int count = 1 + rnd.nextInt(16);
        trace.append("touch ").append(ref).append(' ').append(start).append('+').append(count).append(' ');
        int cutsBefore = f.cutsFinished();
        int touched = ref.pf().touch(start, count);
        long last = ref.pf().getLastPageId(); // after the touch: only grown since, unless a truncate began
        trace.append("= ").append(touched).append(" (last page ").append(last).append(") ");
        long inFile = Math.max(0, Math.min(start + count, last + 1) - start);
        if (touched < 0 || touched > count || touched > inFile && !f.cutSince(cutsBefore)) {
            throw fail("touch(" + start + ", " + count + ") of " + ref + " says it brought in " + touched + " pages, but only "
                + inFile + " of them are at or below the file's last page " + last, null);
        }
        readTouched(ref, start, count);
        checkFileSize(ref, " after a touch");
        // A snapshot walked while others fault and evict may count a frame twice (a page behind the walk evicted, its frame
        // bound to one ahead of it: 25 in a cache of 24 frames, its thread preempted beside a CPU hog): only a count past the
        // frames in each of three walks says that entries outlive their frames
        List<Long> counts = new ArrayList<>();
        for (int walk = 0; walk < 3; walk++) {
            long cached = ref.pf().numberOfCachedPages();
            if (cached < 0) {
                throw fail("numberOfCachedPages() of " + ref + " is " + cached, null);
            }
            counts.add(cached);
            if (cached <= ref.gen().cache.frameCount()) {
                break;
            }
            Thread.yield();
        }
        if (counts.size() == 3 && counts.get(2) > ref.gen().cache.frameCount()) {
            throw fail("numberOfCachedPages() of " + ref + " is " + counts + " in three walks, in a cache of "
                + ref.gen().cache.frameCount() + " frames", null);
        }
        sc.touches.incrementAndGet();
    }

    /** Reads the pages {@code [start, start + count)} of {@code ref} right after a touch of them, judging each, to the end. */
    private void readTouched(Ref ref, long start, int count) throws IOException {
        FileModel f = ref.file();
        trace.append("read ");
        PageCursor c = ref.pf().io(start, PagedFile.PF_SHARED_READ_LOCK);
        try {
            for (long id = start; id < start + count; id++) {
                int cutsBefore = f.cutsFinished();
                long maxAcked = f.maxAckedPageId();
                boolean ok = pinned(ref, c.next(id));
                trace.append("next(").append(id).append(")=").append(ok ? "" : "false ");
                if (!ok) {
                    if (id <= maxAcked && !f.cutSince(cutsBefore)) {
                        throw fail("read cursor next(" + id + ") on " + ref + " after a touch returned false (past the end),"
                            + " but page " + maxAcked + " was acknowledged", null);
                    }
                    return;
                }
                checkPosition(c, id);
                if (!verifyUnderReadCursor(c, f, id, false, cutsBefore)) {
                    return;
                }
            }
        } finally {
            closeCursor(c);
        }
    }

    private void flushAll() throws IOException {
        CacheGeneration g = sc.current();
        workOnCache(g);
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

    List<Ref> refsOf(FileModel f, CacheGeneration g) {
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
    void dropIfDead(Ref ref) {
        if (refs.contains(ref) && !alive(ref.pf())) {
            release(ref);
        }
    }

    /** Closes one reference; on an unmapped file or a closed cache that must not throw. */
    void release(Ref ref) {
        refs.remove(ref);
        try {
            closeJudgingStuckForce(ref, "");
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
        } catch (AssertionError e) {
            throw e; // the model's own verdict
        } catch (IOException | Error e) {
            // An injected Error too: a retried close of a dead mapping's swapper (the NVM tier writing its dirty copies
            // back) may throw one, here also where judge() drops a dead reference, whose caller cannot take it
            if (!FaultInjector.isInjected(e)) {
                throw fail("PagedFile.close() of " + ref + " threw " + e, e);
            }
            if (alive(ref.pf())) {
                refs.add(ref);
            }
        }
    }

    /**
     * Closes {@code ref}; where a force of its mapping had failed before (the failure in the cache) and this close unmapped
     * the file, it must throw: PagedFile.close promises that of the close that unmaps the file, whichever of this
     * thread's operations lets it go (an unmap, the release after an operation or of a stale reference, the end's).
     * Throws what the close threw.
     */
    private void closeJudgingStuckForce(Ref ref, String when) throws IOException {
        FaultInjector.Forces forces = forcesOf(ref);
        boolean stuck = forces != null && forces.forceFailed() && forces.closedBy() == null;
        ref.pf().close();
        if (stuck && forces.closedBy() == Thread.currentThread()) {
            throw fail("PagedFile.close() of " + ref + when + " unmapped it and returned normally although a force of this"
                + " mapping had failed before: the failure sticks to the close that unmaps it", null);
        }
    }

    /** At the end: every reference closed (others may still hold pages: a refusal is fine then). */
    private void releaseAll() {
        for (Ref ref : new ArrayList<>(refs)) {
            sc.watchdog.begin(t, "t" + t + " closing " + ref + " at the end");
            try {
                closeJudgingStuckForce(ref, " at the end");
            } catch (AssertionError e) {
                throw e; // the model's own verdict
            } catch (IllegalStateException | IOException | Error e) {
                // An injected Error too: the disk may fail until thread 0 is at 60% of its operations, after others ended
                boolean injected = !(e instanceof IllegalStateException) && FaultInjector.isInjected(e);
                if (!injected && !(e instanceof IllegalStateException && !(e instanceof NoEvictableFrameException))) {
                    throw fail("PagedFile.close() of " + ref + " at the end threw " + e, e);
                }
            } finally {
                sc.watchdog.end(t);
            }
        }
        refs.clear();
    }

    /** True if {@code pf} is mapped: {@code io()} gives a cursor (closed at once, never moved). */
    boolean alive(PagedFile pf) {
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

    void closeCursor(PageCursor c) {
        try {
            c.close();
        } catch (RuntimeException | Error e) {
            throw fail("PageCursor.close() threw " + e, e);
        }
    }

    interface Call {
        Object call() throws IOException;
    }

    /** {@code call} must throw IllegalStateException; {@code what} names the call and its cursor or file in the failure. */
    void expectIllegalState(Call call, String what) {
        Object result;
        try {
            result = call.call();
        } catch (IllegalStateException e) {
            return;
        } catch (Throwable e) {
            throw fail(what + " threw " + e + " instead of IllegalStateException", e);
        }
        if (result instanceof PageCursor opened) {
            opened.close();
        }
        throw fail(what + " returned " + result + " instead of throwing IllegalStateException", null);
    }

    // ---- choosing ---------------------------------------------------------------------------------

    FileModel randomFile() {
        return sc.files.get(rnd.nextInt(sc.files.size()));
    }

    /** One of this thread's page ids among the file's ordinary pages. */
    long ownPage(FileModel f) {
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

    AssertionError fail(String message, Throwable cause) {
        return sc.fail("t" + t + " op#" + opNo + ": " + message + "\n  steps: " + trace, cause);
    }
}
