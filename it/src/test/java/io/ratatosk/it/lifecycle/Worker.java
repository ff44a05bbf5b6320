package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.NoEvictableFrameException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
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
 */
final class Worker implements Runnable {
    /** The operations and their weights. */
    enum Op {
        READ(330), WRITE(380), MAP(80), UNMAP(75), FLUSH(35), FLUSH_ALL(12), CLOSE_CACHE(8),
        STALE_READ_ACROSS_CLOSE(4), CLOSE_WITH_OWN_PIN(4), UNMAP_WITH_OWN_PIN(6), TRUNCATE_PAST_EVERY_PAGE(10);

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
        try {
            ref.pf().close();
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

    private void flush() throws IOException {
        Ref ref = ensureRef(randomFile());
        trace.append("flush ").append(ref).append(' ');
        ref.pf().flush();
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

    private void flushAll() throws IOException {
        CacheGeneration g = sc.current();
        ctxGen = g;
        ctxFinishedBefore = g.closesFinished.get();
        trace.append("flushAndForce g").append(g.number).append(' ');
        g.cache.flushAndForce();
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
            sc.close(g);
            trace.append("closed ");
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
            if (!closeAndJudge(g)) {
                return;
            }
            long sum = 0;
            for (int i = 0; i < PageImage.words(f.pageSize); i++) {
                sum += c.getLong(i * Long.BYTES); // may be garbage; must not crash
            }
            trace.append("stale read survived (").append(Long.toHexString(sum)).append(") ");
            if (pinned) {
                expectClosed(() -> c.shouldRetry(), "shouldRetry()", ref);
            }
            expectClosed(() -> c.next(), "next()", ref);
            expectClosed(() -> c.next(id), "next(" + id + ")", ref);
        } finally {
            closeCursor(c);
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
        trace.append(ref).append(" pin ").append(id).append(" then close g").append(g.number).append(' ');
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        Pending pending = new Pending(f);
        boolean abandon = false;
        try {
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
                closeCursor(c);
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
        trace.append(ref).append(" pin ").append(id).append(" then close the file ");
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        Pending pending = new Pending(f);
        try {
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
            closeCursor(c);
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
