package io.ratatosk.pagecache;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.HitFilter;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Moves over the pages of one {@link PagedFile} and reads or writes them in place.
 *
 * <p>A cursor opened with {@link PagedFile#PF_SHARED_READ_LOCK} reads optimistically: nothing is locked,
 * so a concurrent writer or an eviction may change the page while it is read, and the values read are
 * only to be trusted once {@link #shouldRetry()} has returned false:
 * <pre>{@code
 * if (c.next()) { long v; do { v = c.getLong(0); } while (c.shouldRetry()); }
 * }</pre>
 * A cursor opened with {@link PagedFile#PF_SHARED_WRITE_LOCK} holds a shared write lock on its page from
 * {@code next()} until the next {@code next()} or {@link #close()}; the page cannot be evicted meanwhile.
 * Several write cursors may hold one page at once: coordinating them is the caller's business.
 *
 * <p>An access outside the page (a negative offset, or one that would run past the file's page size)
 * reads 0 and writes nothing, never touches memory outside the frame, and raises the bounds flag that
 * {@link #checkAndClearBoundsFlag()} reports. A write through a read cursor ({@code put*}, {@code fill}) is refused with
 * an {@link IllegalStateException}, and a range of the caller's array that the array does not hold ({@code getBytes},
 * {@code putBytes}) with an {@link IndexOutOfBoundsException} naming it; either leaves the page and the offset as they were.
 *
 * <p>Every typed access has an absolute form, at an offset given with it, and a relative form, at the
 * cursor's offset ({@link #getOffset()}), which it advances by the access's width (a write that a read
 * cursor refuses leaves it where it was); {@code next()} sets the offset to 0, and a {@code shouldRetry()}
 * that returns true puts it back where the read began (the last {@code next()} or {@code setOffset}). A
 * record format read field by field:
 * <pre>{@code
 * if (c.next(pageId)) {
 *     do {
 *         c.setOffset(recordOffset);
 *         type = c.getByte();
 *         length = c.getInt();
 *         if (length < 0 || length > MAX) { c.setCursorException("record length " + length); }
 *     } while (c.shouldRetry());
 *     c.checkAndClearCursorException(); // the read was not torn: the complaint speaks of the stored data
 * }
 * }</pre>
 * A record that spans pages is read through a {@link #openLinkedCursor linked cursor} on the following
 * page: the parent's {@code shouldRetry()} validates both. {@link #copyTo} copies between the pages of
 * two cursors.
 *
 * <p>A cursor is not thread-safe: one thread at a time. After {@link #close()} every method but
 * {@code close} throws {@link IllegalStateException}. Once its file is unmapped (or the cache closed),
 * its next {@code next()} throws {@link IllegalStateException}, and so does the next {@code shouldRetry()} of a
 * read cursor on a page (one on no page has nothing to validate: false); reads through a
 * page it still has pinned meanwhile see stale memory, never freed memory: the cache keeps its page
 * memory until the last cursor is closed.
 */
public final class PageCursor implements AutoCloseable {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    /** The directory of a cursor whose {@code next()} takes the full path: no page is found in it. */
    private static final int[][] NO_DIRECTORY = new int[0][];
    private static final int[] NO_FRONT = new int[0];
    private static final int NO_FRAME = -1;
    private static final int COUNTER_BATCH = 1024;
    /** Pages a {@link PagedFile#PF_READ_AHEAD} scan keeps requested ahead of it (at most an eighth of the frames). */
    static final int READ_AHEAD_PAGES = 32;
    /**
     * How many {@link #openLinkedCursor} calls deep a chain of linked cursors may go. Closing, validating and reporting
     * walk the tree of links recursively: a chain of a few thousand overflowed the stack in {@code close()}, leaving
     * the cursors below counted open (the page memory was never freed) and, for write cursors, their pages locked.
     */
    static final int MAX_LINK_DEPTH = 256;

    private final FileMapping file;
    private final EvictionPolicy policy;
    /** The policy's {@link EvictionPolicy#hitFilter()}: a final class, so a hit reads it with no class check. */
    private final HitFilter hitFilter;
    private final int filePageSize;
    /** log2(page size): a frame's page address from this cursor's own fields (with {@link #pageBeforeFirst}). */
    private final int pageShift;
    private final boolean writeLocked;
    private final boolean noGrow;
    /** Where the cache counted this cursor open and where it counts its hits and faults (CursorCounts); given back on close. */
    private final int openStripe;

    /** Read plain everywhere; set false once, by the one {@code close()} that wins a compare-and-set on it (see there). */
    private boolean open = true;
    private static final VarHandle OPEN;

    static {
        try {
            OPEN = MethodHandles.lookup().findVarHandle(PageCursor.class, "open", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        // The close's compare-and-set links its call site the first time it runs, which allocates: a JVM's first
        // cursor close with the heap full threw an OutOfMemoryError before it, the cursor left counted open (the page
        // memory kept for good once the cache closed) and holding its write lock (the file's close refused). Run once
        // here, on no cursor: it links, then refuses the null.
        try {
            claimClose(null);
        } catch (NullPointerException linked) {
            // the call site is linked: every close runs it with nothing left to allocate
        }
    }

    /** Whether this call is the one that closes {@code cursor} (see {@link #close}); the close's one compare-and-set. */
    private static boolean claimClose(PageCursor cursor) {
        return OPEN.compareAndSet(cursor, true, false);
    }

    /** {@code PageKey.of(fileId, 0)}: a page's key is this or its page id (see {@link PageKey}). */
    private final long keyBase;
    /**
     * The translation table's directory as this cursor last saw it ({@link TranslationTable#directory()}) for
     * an open read cursor with no links and no read-ahead, else {@link #NO_DIRECTORY} (and {@link #front} empty):
     * the hit path's bounds checks on them then send everything else (and a negative page id) down the full
     * path ({@link #updateFastPath()}).
     */
    private int[][] directory;
    /** The translation table's {@link TranslationTable#front()} where {@link #directory} is the table's, else empty. */
    private int[] front;
    /**
     * Where the hit path finds a translation entry's frame and page: the address of the frame before frame 0
     * in the frame table and in page memory, so that entry (frame + 1) times the stride is the frame's own.
     */
    private final long frameBeforeFirst;
    private final long pageBeforeFirst;
    /**
     * The pinned frame's lock word address while a plain {@code shouldRetry()} can validate this cursor alone
     * (an open read cursor with no links, pinned), else 0: the one field its fast path tests.
     */
    private long validateAddress;
    /**
     * The page pinned, or while none is, the page before the one {@code next()} moves to: {@code next()} moves to
     * this + 1, so the hit path stores one page id, not two.
     */
    private long currentPageId;
    private int frame = NO_FRAME;
    private long stamp;
    private long address;
    /** filePageSize while a page is pinned, else 0, so every access of an unpinned cursor is out of bounds. */
    private int limit;
    private boolean outOfBounds;
    private int hits;
    private int faults;
    /** The relative accessors' offset; 0 after {@code next()}. */
    private int offset;
    /**
     * Where the last {@code next()} or {@link #setOffset} put {@link #offset}: a {@code shouldRetry()} that returns true
     * puts it back there, so that a read loop's relative reads start again where the read began.
     */
    private int readStart;
    /** The message {@link #setCursorException} recorded, or null. */
    private String cursorException;
    /** Pins this cursor waited for a page to be read in: its own faults and others' it found in progress. */
    private long faultsWaitedFor;

    /**
     * The cursor that opened this one, the linked cursors this one opened, and the pins that linked read cursors
     * left (moving on, or closing) since this cursor's last {@code next()} or {@code shouldRetry()}, whose reads
     * this cursor's next {@code shouldRetry()} still validates; null until the first link. Grown as needed, never
     * shrunk: a store reusing its cursors allocates nothing.
     */
    private CursorLinks links;
    /**
     * {@link CursorLinks#work()}, 0 without links: the one field {@code next()} and {@code shouldRetry()} test
     * before they look at links, 0 on the path of a cursor without any.
     */
    private int linkWork;

    /** A {@link PagedFile#PF_READ_AHEAD} cursor's scan, else null: kept apart, so that the other cursors are smaller. */
    private final ReadAheadScan readAhead;

    /**
     * @param writeLocked a {@code PF_SHARED_WRITE_LOCK} cursor (else an optimistic reader)
     * @param noGrow      {@code PF_NO_GROW}: a write cursor that does not grow the file
     * @param openStripe  where the engine counted this cursor open, to give back on close
     * @param readAhead   {@code PF_READ_AHEAD}: pages ahead of a sequential scan are faulted in by this worker; else null
     */
    PageCursor(FileMapping file, long pageId, boolean writeLocked, boolean noGrow, int openStripe,
               ReadAheadWorker readAhead) {
        this.file = file;
        EvictionEngine engine = file.engine();
        this.policy = engine.policy();
        this.hitFilter = engine.hitFilter();
        this.filePageSize = file.pageSize();
        this.pageShift = engine.pageShift();
        this.writeLocked = writeLocked;
        this.noGrow = noGrow;
        this.currentPageId = pageId - 1;
        this.openStripe = openStripe;
        this.readAhead = readAhead == null ? null
            : new ReadAheadScan(readAhead, Math.min(READ_AHEAD_PAGES, engine.frameCount() / 8), pageId);
        this.keyBase = file.keyBase();
        this.frameBeforeFirst = engine.frameBeforeFirst();
        this.pageBeforeFirst = engine.pageBeforeFirst();
        // updateFastPath() for a cursor that is open, unpinned and without links (validateAddress stays 0), written
        // out, and the constants above copied, not computed: every io() runs this, and io()'s compiled size decides
        // whether a store's loop inlines it (escape analysis no longer drops the cursor: see close()).
        if (!writeLocked && this.readAhead == null) {
            TranslationTable table = file.table();
            directory = table.directory();
            front = table.front();
        } else {
            directory = NO_DIRECTORY;
            front = NO_FRONT;
        }
    }

    /** Recomputes {@link #directory}, {@link #front} and {@link #validateAddress} after anything they depend on changed (open, links). */
    private void updateFastPath() {
        boolean hitPath = open && !writeLocked && linkWork == 0 && readAhead == null;
        TranslationTable table = file.table();
        directory = hitPath ? table.directory() : NO_DIRECTORY;
        front = hitPath ? table.front() : NO_FRONT;
        validateAddress = validateAddressOf(frame, stamp);
    }

    /**
     * {@link #validateAddress} for a pin of {@code f} under {@code s}: the frame's lock word address if this is an
     * open read cursor with no links and the stamp had no writer, else 0 (the full path validates).
     */
    private long validateAddressOf(int f, long s) {
        return open && !writeLocked && linkWork == 0 && f != NO_FRAME && FrameTable.canValidate(s) ? frameAddress(f) : 0;
    }

    /**
     * Moves to the next page: the one given to {@code io()} (or {@link #openLinkedCursor}) first, then each
     * following page in turn. As {@link #next(long)}.
     */
    public boolean next() throws IOException {
        return next(currentPageId + 1);
    }

    /**
     * Moves to {@code pageId} and sets the offset to 0. A read cursor returns false past the file's last
     * page (also one that a {@link PagedFile#truncate} cut off); a write cursor grows the file unless it
     * was opened with {@link PagedFile#PF_NO_GROW}. The pins its linked read cursors left since the last
     * {@code shouldRetry()} are forgotten: their reads belonged to the read this move ends. A linked read
     * cursor that moves hands the page it leaves to its parent's next {@code shouldRetry()}.
     *
     * @throws IllegalArgumentException for a page id the file cannot address ({@link PagedFile#maxPageId()})
     * @throws IllegalStateException    if this cursor is closed or its file unmapped
     */
    public boolean next(long pageId) throws IOException {
        // The hit path of a plain read cursor: the page is in a frame, bound to it, not exclusively locked.
        // It checks nothing the full path checks that a hit could fail: a page in the translation table is
        // a page of the file (a truncate locks a page before it drops it, and lowers the file's end after),
        // and an unmapped file has no page in it (an unmap drops them all), so a hit here is a hit there.
        // Every load below is this cursor's own field or the page's translation entry, frame and policy word:
        // no field of another object, so nothing after the lock word's acquire has to be loaded again.
        int entry = TranslationTable.entryIn(front, directory, pageId);
        if (entry > 0) {
            long meta = frameBeforeFirst + (long) entry * FrameDescriptor.FRAME_BYTES;
            long s = UNSAFE.getLongVolatile(null, meta + FrameDescriptor.LOCK_WORD_OFFSET);
            // No exclusive holder and no writer (else the full path, whose validation fails until the writer is
            // done): shouldRetry() may then validate by comparing the word alone. The binding is read after the
            // stamp (the acquire above orders it) and a rebinding changes the sequence, so a plain read
            // suffices: validation catches whatever changed in between.
            if (FrameTable.canValidate(s) && UNSAFE.getLong(null, meta + FrameDescriptor.BINDING_OFFSET) == (keyBase | pageId)) {
                // The filter object is kept, its words read on every hit: a policy may change them as it runs (best-of does).
                if (!hitFilter.skips(UNSAFE.getLong(null, meta + FrameDescriptor.POLICY_WORD_OFFSET))) {
                    policy.onHit(entry - 1);
                }
                frame = entry - 1;
                stamp = s;
                validateAddress = meta;
                address = pageBeforeFirst + ((long) entry << pageShift);
                limit = filePageSize;
                offset = 0;
                readStart = 0; // a cursor-local store beside offset's: the retried read starts at 0 again
                currentPageId = pageId;
                countHit();
                return true;
            }
        }
        return nextFullPath(pageId);
    }

    /** {@code next(pageId)} for everything but a plain read cursor's hit: write cursors, links, read-ahead, faults. */
    private boolean nextFullPath(long pageId) throws IOException {
        checkOpen();
        if (directory != NO_DIRECTORY) {
            directory = file.table().directory(); // a chunk added since the last look: the next hit there takes the fast path
        }
        if (pageId < 0 || pageId > file.maxPageId()) {
            file.checkPageId(pageId); // throws, naming the file and the bounds
        }
        if (linkWork != 0) {
            leavingPageWithLinks();
        }
        unpin();
        offset = 0;
        readStart = 0;
        if (!file.awaitMapped()) {
            throw file.unmappedException();
        }
        if (pageId > file.lastPageId() && (!writeLocked || noGrow)) {
            currentPageId = pageId - 1; // next() tries this page again
            return false;
        }
        if (readAhead != null) {
            readAheadFrom(pageId);
        }
        if (writeLocked) {
            if (!pinForWrite(pageId)) {
                currentPageId = pageId - 1; // PF_NO_GROW: truncated away since the look at the file's end
                return false;
            }
            if (!noGrow) {
                file.growTo(pageId);
            }
        } else if (!pinForRead(pageId, true)) {
            currentPageId = pageId - 1; // truncated away since the look at the file's end; next() tries it again
            return false;
        }
        currentPageId = pageId;
        return true;
    }

    /**
     * A move to {@code pageId} of a read-ahead cursor: on a sequential scan (from the page given to {@code io()}), keeps
     * the following {@link ReadAheadScan#window} pages requested, half a window at a time. A jump requests nothing and
     * starts a scan from there; a move to the page the cursor was on is no move.
     */
    private void readAheadFrom(long pageId) {
        ReadAheadScan scan = readAhead;
        if (pageId == scan.last) {
            return; // the same page again: what follows it is requested as far as the scan has come
        }
        if (pageId != scan.last + 1) {
            // A jump, random access: requesting a window here faulted in (and evicted for) a window of pages after
            // every page a lookup visited, and the same page read again requested it again each time.
            scan.last = pageId;
            scan.end = pageId + 1;
            return;
        }
        scan.last = pageId;
        int window = scan.window;
        if (window > 0 && pageId + window / 2 >= scan.end) {
            long from = Math.max(scan.end, pageId + 1);
            long to = Math.min(pageId + 1 + window, file.lastPageId() + 1);
            // As far as was requested, not as far as the window: one cut short at the file's end is asked for again
            // once the file grew (a scan tailing a file others append to), or the scanner faulted the rest itself.
            scan.end = Math.max(scan.end, to);
            if (from < to) {
                scan.worker.request(file, from, (int) (to - from));
            }
        }
    }

    /** Where a {@link PagedFile#PF_READ_AHEAD} cursor's sequential scan stands. */
    private static final class ReadAheadScan {
        final ReadAheadWorker worker;
        /** How many pages ahead of a sequential scan are read ahead. */
        final int window;
        /** The page the last {@code next()} moved to, to tell a sequential move from a jump; the page before the first at first. */
        long last;
        /** Read-ahead was asked for the pages before this one. */
        long end;

        ReadAheadScan(ReadAheadWorker worker, int window, long firstPageId) {
            this.worker = worker;
            this.window = window;
            this.last = firstPageId - 1;
            this.end = firstPageId;
        }
    }

    /**
     * @param newAccess false when re-pinning after a failed validation: the same logical access, so it
     *                  neither counts as another hit nor raises the page's usage again
     * @return false, pinning nothing, if the page lies past the file's end (a truncate cut it off)
     */
    private boolean pinForRead(long pageId, boolean newAccess) throws IOException {
        long key = PageKey.of(file.fileId(), pageId);
        TranslationTable table = file.table();
        FrameTable frames = frames();
        int attempt = 0;
        boolean waited = false; // faultsWaitedFor counts this pin once, however many reads it waited for
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                long s = frames.optimisticStamp(f);
                if (!FrameTable.isReadable(s) || frames.binding(f) != key) {
                    if (attempt == 0) {
                        file.refuseWaitInsideSwapperCall(pageId); // the eviction may be this thread's own
                    }
                    attempt = Backoff.pause(attempt); // being evicted or faulted in right now: look again
                    continue;
                }
                if (newAccess) {
                    policy.onHit(f);
                    countHit();
                }
                pinned(f, s);
                return true;
            }
            if (entry == TranslationTable.FAULTING) {
                waited = countWaitOnce(waited);
                file.awaitFault(pageId);
                continue;
            }
            int f = file.faultIn(pageId, key, false, false);
            if (f >= 0) {
                waited = countWaitOnce(waited);
                countFault();
                frames.unlockExclusive(f);
                long s = frames.optimisticStamp(f);
                if (FrameTable.isReadable(s) && frames.binding(f) == key) {
                    pinned(f, s);
                    return true;
                }
            } else if (f == FileMapping.PAST_END) {
                return false;
            }
        }
    }

    /** Counts a wait for a read in {@link #faultsWaitedFor} unless this pin ({@code waited}) already did; returns true. */
    private boolean countWaitOnce(boolean waited) {
        if (!waited) {
            faultsWaitedFor++;
        }
        return true;
    }

    /**
     * @return false, pinning nothing, if this is a {@link PagedFile#PF_NO_GROW} cursor and the page lies past the
     *         file's end (a truncate cut it off after {@code next} looked at the end): such a cursor never grows the file
     */
    private boolean pinForWrite(long pageId) throws IOException {
        long key = PageKey.of(file.fileId(), pageId);
        TranslationTable table = file.table();
        FrameTable frames = frames();
        int attempt = 0;
        boolean waited = false;
        while (true) {
            int entry = table.get(pageId);
            if (entry > 0) {
                int f = entry - 1;
                long before = frames.tryWriteLockFrom(f);
                if (before == FrameTable.WRITE_LOCK_FAILED) {
                    if (attempt == 0) {
                        file.refuseWaitInsideSwapperCall(pageId); // the eviction may be this thread's own
                    }
                    refuseIfWritersFull(frames, f, key, pageId);
                    attempt = Backoff.pause(attempt); // being evicted or faulted in right now: look again
                    continue;
                }
                if (frames.binding(f) != key) {
                    // Evicted since the entry was read, and the frame reused: for another file's page, perhaps, which the
                    // lock marked modified. Released with unlockWrite, it stayed so, and a page only ever read was written
                    // back (a partial last page padded to a whole one).
                    frames.unlockWriteUnused(f, before);
                    continue;
                }
                pinned(f, 0); // first: from here on close() releases the lock, whatever the policy does
                try {
                    policy.onHit(f);
                } catch (Throwable t) {
                    // The next() fails: the cursor is left on no page, as a read cursor's pin leaves it. Kept pinned, it
                    // held the page write-locked while getCurrentPageId() named the page it had left, and a put landed
                    // on a page it did not report. Nothing was written under the lock.
                    leavePage();
                    frames.unlockWriteUnused(f, before);
                    throw t;
                }
                countHit();
                return true;
            }
            if (entry == TranslationTable.FAULTING) {
                waited = countWaitOnce(waited);
                file.awaitFault(pageId);
                continue;
            }
            int f = file.faultIn(pageId, key, true, !noGrow);
            if (f >= 0) {
                waited = countWaitOnce(waited);
                countFault();
                frames.exclusiveToWriteLock(f);
                pinned(f, 0);
                return true;
            }
            if (f == FileMapping.PAST_END) {
                return false;
            }
        }
    }

    /**
     * Refuses a write lock on a page that already holds {@link FrameDescriptor#MAX_WRITERS} (what the lock word's
     * writers field counts): waiting for one of them to close would wait for ever where they were never closed (a
     * leak, or thousands of linked write cursors), and the fault path spun silently so.
     */
    private void refuseIfWritersFull(FrameTable frames, int f, long key, long pageId) {
        if (FrameDescriptor.writers(frames.lockWord(f)) == FrameDescriptor.MAX_WRITERS && frames.binding(f) == key) {
            throw new IllegalStateException("page " + pageId + " of " + file.path() + " already has "
                + FrameDescriptor.MAX_WRITERS + " write cursors on it (linked ones included), the most a page can have:"
                + " close some first (a write cursor that is never closed keeps its page write-locked)");
        }
    }

    /** The frame table: the cursor keeps no field for it (a cursor's size is allocated per {@code io()}), its full paths ask. */
    private FrameTable frames() {
        return file.engine().frames();
    }

    /** {@code f}'s descriptor address, as {@code FrameTable.frameAddress} has it, from this cursor's own field. */
    private long frameAddress(int f) {
        return frameBeforeFirst + (long) (f + 1) * FrameDescriptor.FRAME_BYTES;
    }

    private void pinned(int f, long s) {
        frame = f;
        stamp = s;
        address = pageBeforeFirst + ((long) (f + 1) << pageShift);
        limit = filePageSize;
        validateAddress = validateAddressOf(f, s);
    }

    /** Leaves the cursor on no page: every access out of bounds, nothing to validate. Its lock is the caller's. */
    private void leavePage() {
        frame = NO_FRAME;
        limit = 0;
        validateAddress = 0;
    }

    private void unpin() {
        int f = frame;
        if (f != NO_FRAME) {
            leavePage();
            if (writeLocked) {
                frames().unlockWrite(f);
            }
        }
    }

    /**
     * For a read cursor: true if the page may have changed while it was read, in which case the cursor
     * has re-pinned the same page (faulting it in again if it was evicted) and the reads must be
     * repeated. Always false for a write cursor, which holds its page locked.
     *
     * <p>With linked cursors ({@link #openLinkedCursor}): true if this cursor's page or the page of any of
     * its linked cursors (open, or closed since this cursor's last {@code next()} or {@code shouldRetry()})
     * changed; the cursors whose page changed are re-pinned, and every read through any of them must be
     * repeated. When it returns true, the bounds flags and cursor exceptions of this cursor and its linked
     * cursors are cleared: they spoke of a torn read. A page that was truncated away meanwhile cannot be
     * re-pinned: its cursor is left on no page (its reads are out of bounds) with a cursor exception saying
     * so, for {@link #checkAndClearCursorException()} to report after the last {@code shouldRetry()}: a cursor on
     * no page keeps its cursor exception through later rounds (nothing it read could tear).
     * When it returns true, the offset of each of these cursors goes back to where its last {@code next()} or
     * {@link #setOffset} put it: relative reads repeated without a {@code setOffset} of their own read what the
     * torn attempt meant to read, not the bytes after it.
     *
     * @throws IllegalStateException if this cursor is closed, or the page changed because its file was unmapped
     */
    public boolean shouldRetry() throws IOException {
        long a = validateAddress; // 0 once closed: a closed cursor takes the full path, which throws
        if (a != 0) {
            // The reads above are done before the lock word is read again. An unchanged word validates; a
            // changed one may still (a flush or the modified bit alone): the full path decides.
            UNSAFE.loadFence();
            if (UNSAFE.getLongVolatile(null, a) == stamp) {
                return false;
            }
        } else if (writeLocked && frame != NO_FRAME && linkWork == 0) {
            return false;
        }
        return shouldRetryFullPath();
    }

    private boolean shouldRetryFullPath() throws IOException {
        checkOpen();
        if (linkWork != 0) {
            return shouldRetryWithLinks();
        }
        if (writeLocked || frame == NO_FRAME || frames().validate(frame, stamp)) {
            return false;
        }
        cursorException = null;
        offset = readStart;
        repin();
        return true;
    }

    /** Re-pins this read cursor's page after a failed validation; the caller repeats the reads. */
    private void repin() throws IOException {
        long pageId = currentPageId;
        int f = frame;
        leavePage();
        outOfBounds = false; // the reads are void; the bounds flag speaks of the repeated ones
        if (!file.awaitMapped()) {
            throw file.unmappedException();
        }
        if (frames().writeLockCount(f) > 0) {
            // A writer holds the page: reading again before it lets go would fail again. Give it the
            // core instead of spinning (it may be descheduled with more threads than cores).
            Thread.yield();
        }
        if (!pinForRead(pageId, false)) {
            cursorException = "page " + pageId + " of " + file.path() + " was truncated away while it was read";
        }
    }

    /** {@link #shouldRetry()} of a cursor with linked cursors (open or closed since the last round), or of a linked cursor. */
    private boolean shouldRetryWithLinks() throws IOException {
        boolean changed = changedInTree();
        if (writeLocked || !changed) {
            return false;
        }
        repinTree();
        return true;
    }

    /**
     * True if the page of this cursor, of any linked cursor below it, or of one they left or closed since
     * the last round changed since it was pinned (never for write cursors, which hold their pages);
     * forgets the pages left or closed.
     */
    private boolean changedInTree() {
        FrameTable frames = frames();
        boolean changed = !writeLocked && frame != NO_FRAME && !frames.validate(frame, stamp);
        CursorLinks l = links;
        if (l != null) {
            for (int i = 0; i < l.closedCount; i++) {
                changed |= !frames.validate(l.closedFrames[i], l.closedStamps[i]);
            }
            l.closedCount = 0;
            if (l.parent == null) {
                l.pinsBelow = false; // the walk below forgets them all
            }
            updateLinkWork();
            for (int i = 0; i < l.openCount; i++) {
                changed |= l.open[i].changedInTree();
            }
        }
        return changed;
    }

    /**
     * After a torn read somewhere in this cursor's tree: re-pins every cursor whose page changed, and
     * clears the bounds flags and cursor exceptions of all (the repeated reads start afresh).
     */
    private void repinTree() throws IOException {
        if (frame != NO_FRAME) {
            // A cursor on no page read nothing that could tear: its exception stands. Cleared, the one saying its page
            // was truncated away under its read was lost in the next round that a link's changed page caused, and the
            // loop ended with the cursor's zeros and checkAndClearCursorException() silent.
            cursorException = null;
        }
        offset = readStart;
        outOfBounds = false;
        if (frame != NO_FRAME && !frames().validate(frame, stamp)) {
            repin();
        }
        CursorLinks l = links;
        for (int i = 0; l != null && i < l.openCount; i++) {
            l.open[i].repinTree();
        }
    }

    /**
     * {@code next()} of a cursor with links, or of a linked cursor: a linked read cursor leaving a page
     * hands its pin to its parent, whose {@code shouldRetry()} then still validates what was read there;
     * pages left or closed below it go the same way. A parent moving on forgets them: its read is over.
     */
    private void leavingPageWithLinks() {
        CursorLinks l = links; // not null: linkWork is not 0
        PageCursor p = l.parent;
        if (p != null && !writeLocked) {
            if (frame != NO_FRAME) {
                p.recordPin(frame, stamp);
            }
            for (int i = 0; i < l.closedCount; i++) {
                p.recordPin(l.closedFrames[i], l.closedStamps[i]);
            }
        } else if (p == null && l.pinsBelow) {
            // The read is over for the whole tree: also the pins a link's own links left with it, which its shouldRetry()
            // validates through that link. Kept, they made the next read's shouldRetry() return true for a page only the
            // ended read had seen, changed since. Walked only where there are some: a cursor that keeps many links open
            // and moves on after each (a scan leaving its links to its close) does not pay for its links on every move.
            l.pinsBelow = false;
            forgetPinsBelow(l);
        }
        l.closedCount = 0;
        updateLinkWork();
    }

    /** Forgets the pins left with the open links below {@code l}'s cursor, at every depth. */
    private static void forgetPinsBelow(CursorLinks l) {
        for (int i = 0; i < l.openCount; i++) {
            PageCursor link = l.open[i];
            CursorLinks below = link.links; // not null: a linked cursor has its parent there
            if (below.closedCount != 0) {
                below.closedCount = 0;
                link.updateLinkWork();
            }
            forgetPinsBelow(below);
        }
    }

    /** A pin of a linked cursor that moved on or closed, for this cursor's next {@code shouldRetry()} to validate. */
    private void recordPin(int pinFrame, long pinStamp) {
        CursorLinks l = links();
        l.recordPin(pinFrame, pinStamp);
        if (l.parent != null) {
            CursorLinks root = l;
            while (root.parent != null) {
                root = root.parent.links; // not null: the parent has this cursor among its links
            }
            root.pinsBelow = true; // for the root's next() to forget
        }
        updateLinkWork();
    }

    /** {@link #links}, created at the first link. */
    private CursorLinks links() {
        CursorLinks l = links;
        if (l == null) {
            links = l = new CursorLinks();
        }
        return l;
    }

    /** The pins linked read cursors left that this cursor still keeps for its next round: for tests and diagnostics. */
    int linkPinsKept() {
        return links == null ? 0 : links.closedCount;
    }

    private void updateLinkWork() {
        linkWork = links == null ? 0 : links.work();
        updateFastPath();
    }

    /**
     * The page the cursor is on, or -1 while it is on none: before its first {@code next()}, after a {@code next()}
     * that returned false or failed (a page id the file cannot address is refused before the cursor leaves its page),
     * and after a {@code shouldRetry()} that found its page truncated away. The next {@code next()} still moves on
     * from the page it was last on (or tried).
     */
    public long getCurrentPageId() {
        checkOpen();
        return frame == NO_FRAME ? -1 : currentPageId;
    }

    /** The file's page size ({@link PagedFile#pageSize()}), whether or not the cursor is on a page. */
    public int getCurrentPageSize() {
        checkOpen();
        return filePageSize;
    }

    /**
     * True if an access since the last call was outside the page, through this cursor or any of its linked
     * cursors (open, or closed since); clears the flags.
     */
    public boolean checkAndClearBoundsFlag() {
        checkOpen();
        boolean b = outOfBounds;
        outOfBounds = false;
        CursorLinks l = links;
        for (int i = 0; l != null && i < l.openCount; i++) {
            b |= l.open[i].checkAndClearBoundsFlag();
        }
        return b;
    }

    // ---- cursor exceptions ----------------------------------------------------------------------

    /**
     * Records a problem found while decoding the page, without throwing: a record format calls it when a
     * length or pointer it just read makes no sense, and carries on (or stops) reading. The read may be
     * torn, so the complaint may be too: {@link #shouldRetry()} returning true clears it, and
     * {@link #checkAndClearCursorException()} after the read loop reports it only if it held for a read
     * that was not torn. A second call before it is cleared keeps the first message. {@code next()} does not
     * clear it: a store that moves on without reporting a problem clears it with {@link #clearCursorException()}.
     */
    public void setCursorException(String message) {
        checkOpen();
        if (cursorException == null) {
            cursorException = message == null ? "cursor exception with no message" : message;
        }
    }

    /**
     * Throws the problem recorded with {@link #setCursorException} on this cursor or any of its linked
     * cursors (open, or closed since the problem was recorded: a closing link passes its problem to this
     * cursor), and clears them all; does nothing if there is none. A problem stays until this, {@link
     * #clearCursorException()} or a {@link #shouldRetry()} that returns true clears it, through any number of
     * {@code next()} calls of this cursor or its links: a decoder's complaint is never dropped unreported
     * because the store moved on (unlike the pins of closed links, which a {@code next()} forgets).
     *
     * @throws CursorException with the recorded message
     */
    public void checkAndClearCursorException() throws CursorException {
        checkOpen();
        String message = takeCursorException();
        if (message != null) {
            throw new CursorException(message);
        }
    }

    /** Forgets the problem recorded on this cursor and on its linked cursors, if any. */
    public void clearCursorException() {
        checkOpen();
        takeCursorException();
    }

    /** The first message recorded in this cursor's tree, or null; clears them all. */
    private String takeCursorException() {
        String message = cursorException;
        cursorException = null;
        CursorLinks l = links;
        for (int i = 0; l != null && i < l.openCount; i++) {
            String linked = l.open[i].takeCursorException();
            if (message == null) {
                message = linked;
            }
        }
        return message;
    }

    // ---- linked cursors -------------------------------------------------------------------------

    /**
     * Opens a cursor on the same file with the same lock mode (and {@code PF_NO_GROW}, but no read-ahead),
     * positioned so that its first {@code next()} moves to {@code pageId}: for a record that spans pages,
     * read from this cursor's page and the linked cursor's. For a read cursor, this cursor's
     * {@link #shouldRetry()} covers the linked cursor's reads too, including those of a linked cursor
     * closed before it is called; {@link #checkAndClearBoundsFlag()}, {@link #checkAndClearCursorException()}
     * and {@link #clearCursorException()} of this cursor cover it as well. Closing this cursor closes its
     * linked cursors; a linked cursor may itself open linked cursors. Opening allocates (a cursor); moving
     * a linked cursor with {@code next(pageId)} does not, so a store that reads many spanning records can
     * keep one open. A write cursor holds a write lock on each linked cursor's page too. The pins a linked
     * read cursor leaves (moving on, or closing) are kept for this cursor's next {@code shouldRetry()} or
     * {@code next()}, which forget them (at most about two per frame of the cache are kept meanwhile, however many
     * pages the links move over). A chain of links may be {@value #MAX_LINK_DEPTH} deep (a cursor from {@code io()}
     * has depth 0): a record over more pages is read by moving a linked cursor with {@code next(pageId)}.
     *
     * @throws IllegalArgumentException for a page id the file cannot address
     * @throws IllegalStateException    if this cursor is closed or its file unmapped, or is itself
     *                                  {@value #MAX_LINK_DEPTH} links deep
     */
    public PageCursor openLinkedCursor(long pageId) throws IOException {
        checkOpen();
        file.checkPageId(pageId);
        int depth = links == null ? 0 : links.depth;
        if (depth >= MAX_LINK_DEPTH) {
            throw new IllegalStateException("cannot open a linked cursor on " + file.path() + " from a cursor that is"
                + " itself " + depth + " links deep, the most a chain of links may be: move a linked cursor from page to"
                + " page with next(pageId) instead of linking from each");
        }
        int stripe = file.engine().cursorOpened(); // before the mapped check, as PagedFile.io does
        PageCursor link;
        try {
            if (!file.awaitMapped()) {
                throw file.unmappedException();
            }
            link = new PageCursor(file, pageId, writeLocked, noGrow, stripe, null);
            CursorLinks own = link.links();
            own.parent = this;
            own.depth = depth + 1;
            // Last, as it may allocate too (the list doubles): an OutOfMemoryError in either left the link counted
            // open and in no list, where no close could reach it, and the cache never freed its page memory.
            links().add(link);
        } catch (Throwable t) {
            file.engine().cursorClosed(stripe);
            throw t;
        }
        link.updateLinkWork();
        updateLinkWork();
        return link;
    }

    /**
     * A linked cursor of this one closes: it leaves the links, and its last pin (for a read cursor), bounds
     * flag and cursor exception pass to this cursor, so the read it took part in is still validated and
     * reported here.
     */
    private void linkClosed(PageCursor link, int linkFrame, long linkStamp) {
        links.remove(link); // not null: link is one of them
        if (link.outOfBounds) {
            outOfBounds = true;
        }
        if (cursorException == null) {
            cursorException = link.cursorException;
        }
        if (!writeLocked) {
            if (linkFrame != NO_FRAME) {
                recordPin(linkFrame, linkStamp);
            }
            CursorLinks left = link.links; // not null: a linked cursor has its parent there
            for (int i = 0; i < left.closedCount; i++) {
                recordPin(left.closedFrames[i], left.closedStamps[i]);
            }
        }
        updateLinkWork();
    }

    // ---- copying --------------------------------------------------------------------------------

    /**
     * Copies {@code length} bytes from this cursor's page at {@code sourceOffset} to {@code target}'s page
     * at {@code targetOffset}, clamped to what both pages hold from those offsets, and returns the number of
     * bytes copied. Overlapping ranges of one page are copied as if through a buffer. A negative offset or
     * length, or an offset at or past the end of its cursor's page (past it for a length of 0; a cursor with
     * no page has none), copies nothing and raises this cursor's bounds flag, as any access outside a page
     * does. From a read cursor the bytes may be torn: copy inside a {@code shouldRetry()} loop. Moves
     * neither cursor's offset.
     *
     * @throws IllegalArgumentException if {@code target} is not a write cursor
     * @throws IllegalStateException    if either cursor is closed
     */
    public int copyTo(int sourceOffset, PageCursor target, int targetOffset, int length) {
        checkOpen();
        target.checkOpen();
        if (!target.writeLocked) {
            throw new IllegalArgumentException("the target of copyTo must be a PF_SHARED_WRITE_LOCK cursor: target is a"
                + " read cursor on " + target.file.path());
        }
        if (sourceOffset < 0 || targetOffset < 0 || length < 0) {
            outOfBounds = true;
            return 0;
        }
        int n = Math.min(length, Math.min(limit - sourceOffset, target.limit - targetOffset));
        if (n <= 0) {
            // Not a clamp: a range that starts outside its page, an offset a torn or corrupt read may have produced.
            if (length > 0 || sourceOffset > limit || targetOffset > target.limit) {
                outOfBounds = true;
            }
            return 0;
        }
        long from = address + sourceOffset;
        long to = target.address + targetOffset;
        if (from < to && to < from + n) {
            for (int i = n - 1; i >= 0; i--) { // overlapping, target after source: copy backwards
                UNSAFE.putByte(to + i, UNSAFE.getByte(from + i));
            }
        } else if (to < from && from < to + n) {
            for (int i = 0; i < n; i++) {
                UNSAFE.putByte(to + i, UNSAFE.getByte(from + i));
            }
        } else {
            UNSAFE.copyMemory(from, to, n);
        }
        return n;
    }

    /**
     * The pins for which this cursor waited for a page to be read in: its own faults, and faults by other
     * threads (a read-ahead among them) that it found in progress and waited out. A page that a
     * read-ahead brought in before the cursor got there costs no wait. A pin counts once, however many reads it waited
     * for (another thread's fault that failed or was interrupted, then its own). Counts re-pins after a torn read too.
     */
    public long faultsWaitedFor() {
        checkOpen();
        return faultsWaitedFor;
    }

    // ---- typed access ---------------------------------------------------------------------------

    private boolean inBounds(int offset, int size) {
        if (offset < 0 || offset > limit - size) {
            return outOfBounds();
        }
        return true;
    }

    /** The slow path of every access: a closed cursor (limit 0) ends up here and throws. */
    private boolean outOfBounds() {
        checkOpen();
        outOfBounds = true;
        return false;
    }

    private boolean writable(int offset, int size) {
        if (!writeLocked) {
            checkOpen();
            throw new IllegalStateException("cursor on " + file.path() + " was opened with PF_SHARED_READ_LOCK;"
                + " writes need PF_SHARED_WRITE_LOCK");
        }
        return inBounds(offset, size);
    }

    public byte getByte(int offset) {
        return inBounds(offset, Byte.BYTES) ? UNSAFE.getByte(address + offset) : 0;
    }

    public short getShort(int offset) {
        return inBounds(offset, Short.BYTES) ? UNSAFE.getShort(address + offset) : 0;
    }

    public int getInt(int offset) {
        return inBounds(offset, Integer.BYTES) ? UNSAFE.getInt(address + offset) : 0;
    }

    public long getLong(int offset) {
        return inBounds(offset, Long.BYTES) ? UNSAFE.getLong(address + offset) : 0L;
    }

    /** Copies {@code length} bytes of the page from {@code offset} into {@code dst}; nothing if out of bounds. */
    public void getBytes(int offset, byte[] dst, int dstOffset, int length) {
        checkOpen();
        if (dstOffset < 0 || length < 0 || dstOffset > dst.length - length) {
            throw new IndexOutOfBoundsException("dst range [" + dstOffset + ", +" + length + ") of array length " + dst.length);
        }
        if (inBounds(offset, length)) {
            UNSAFE.copyMemory(null, address + offset, dst, Unsafe.ARRAY_BYTE_BASE_OFFSET + dstOffset, length);
        }
    }

    public void putByte(int offset, byte value) {
        if (writable(offset, Byte.BYTES)) {
            UNSAFE.putByte(address + offset, value);
        }
    }

    public void putShort(int offset, short value) {
        if (writable(offset, Short.BYTES)) {
            UNSAFE.putShort(address + offset, value);
        }
    }

    public void putInt(int offset, int value) {
        if (writable(offset, Integer.BYTES)) {
            UNSAFE.putInt(address + offset, value);
        }
    }

    public void putLong(int offset, long value) {
        if (writable(offset, Long.BYTES)) {
            UNSAFE.putLong(address + offset, value);
        }
    }

    public void putBytes(int offset, byte[] src, int srcOffset, int length) {
        checkOpen();
        if (srcOffset < 0 || length < 0 || srcOffset > src.length - length) {
            throw new IndexOutOfBoundsException("src range [" + srcOffset + ", +" + length + ") of array length " + src.length);
        }
        if (writable(offset, length)) {
            UNSAFE.copyMemory(src, Unsafe.ARRAY_BYTE_BASE_OFFSET + srcOffset, null, address + offset, length);
        }
    }

    /** Fills {@code length} bytes from {@code offset} with {@code value}; nothing if out of bounds. */
    public void fill(int offset, int length, byte value) {
        checkOpen();
        if (length < 0) {
            if (writable(offset, 0)) { // a read cursor's fill is refused whatever its length
                outOfBounds();
            }
            return;
        }
        if (writable(offset, length)) {
            UNSAFE.setMemory(address + offset, length, value);
        }
    }

    // ---- relative access ------------------------------------------------------------------------

    /** The offset at which the relative accessors read and write next; 0 after {@code next()}. */
    public int getOffset() {
        checkOpen();
        return offset;
    }

    /**
     * Sets the offset of the next relative access. Any value is accepted: one outside the page makes the
     * accesses from it out of bounds, as their absolute forms would be. A {@link #shouldRetry()} that returns
     * true puts the offset back here (or to 0, if {@code next()} came after).
     */
    public void setOffset(int offset) {
        checkOpen();
        this.offset = offset;
        readStart = offset;
    }

    /** The byte at the offset, which advances by 1; as {@link #getByte(int)} out of bounds. */
    public byte getByte() {
        int o = offset;
        offset = o + Byte.BYTES;
        return getByte(o);
    }

    /** The short at the offset, which advances by 2; as {@link #getShort(int)} out of bounds. */
    public short getShort() {
        int o = offset;
        offset = o + Short.BYTES;
        return getShort(o);
    }

    /** The int at the offset, which advances by 4; as {@link #getInt(int)} out of bounds. */
    public int getInt() {
        int o = offset;
        offset = o + Integer.BYTES;
        return getInt(o);
    }

    /** The long at the offset, which advances by 8; as {@link #getLong(int)} out of bounds. */
    public long getLong() {
        int o = offset;
        offset = o + Long.BYTES;
        return getLong(o);
    }

    /**
     * Fills {@code dst} from the offset, which advances by {@code dst.length}; copies nothing if that runs
     * out of the page (and raises the bounds flag).
     */
    public void getBytes(byte[] dst) {
        getBytes(dst, 0, dst.length);
    }

    /** As {@link #getBytes(byte[])}, into {@code dst[dstOffset, dstOffset + length)}; the offset advances by {@code length}. */
    public void getBytes(byte[] dst, int dstOffset, int length) {
        int o = offset;
        getBytes(o, dst, dstOffset, length);
        offset = o + length;
    }

    /** Writes a byte at the offset, which advances by 1; as {@link #putByte(int, byte)} out of bounds. */
    public void putByte(byte value) {
        int o = offset;
        putByte(o, value);
        offset = o + Byte.BYTES;
    }

    /** Writes a short at the offset, which advances by 2; as {@link #putShort(int, short)} out of bounds. */
    public void putShort(short value) {
        int o = offset;
        putShort(o, value);
        offset = o + Short.BYTES;
    }

    /** Writes an int at the offset, which advances by 4; as {@link #putInt(int, int)} out of bounds. */
    public void putInt(int value) {
        int o = offset;
        putInt(o, value);
        offset = o + Integer.BYTES;
    }

    /** Writes a long at the offset, which advances by 8; as {@link #putLong(int, long)} out of bounds. */
    public void putLong(long value) {
        int o = offset;
        putLong(o, value);
        offset = o + Long.BYTES;
    }

    /**
     * Writes {@code src} at the offset, which advances by {@code src.length}; writes nothing if that runs
     * out of the page (and raises the bounds flag).
     */
    public void putBytes(byte[] src) {
        putBytes(src, 0, src.length);
    }

    /** As {@link #putBytes(byte[])}, from {@code src[srcOffset, srcOffset + length)}; the offset advances by {@code length}. */
    public void putBytes(byte[] src, int srcOffset, int length) {
        int o = offset;
        putBytes(o, src, srcOffset, length);
        offset = o + length;
    }

    // ---- life cycle -----------------------------------------------------------------------------

    private void countHit() {
        if (++hits >= COUNTER_BATCH) {
            publishCounters();
        }
    }

    private void countFault() {
        if (++faults >= COUNTER_BATCH) {
            publishCounters();
        }
    }

    private void publishCounters() {
        file.engine().countPins(openStripe, hits, faults);
        hits = 0;
        faults = 0;
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("cursor on " + file.path() + " is closed");
        }
    }

    /**
     * Closes the links, last first, each leaving them as it closes and handing its pins up (see linkClosed); returns the
     * first failure of a link's close, after closing every other. Allocates nothing: a link's close that ran out of memory
     * (handing its pin up allocates) stopped the walk, and the links after it stayed open and counted for good. By index
     * over the links as they are: a link shared by mistake and closed on another thread meanwhile takes itself out
     * under the walk (a walk by the count met a null slot or index -1, and then waited, for ever where that close failed).
     */
    private static Throwable closeLinks(CursorLinks l) {
        Throwable first = null;
        if (l != null) {
            for (int i = l.openCount - 1; i >= 0; i--) {
                PageCursor[] open = l.open;
                PageCursor link = i < open.length ? open[i] : null;
                if (link != null) {
                    try {
                        link.close(); // a link closed already, or closing on another thread, returns at once
                    } catch (Throwable t) {
                        first = first == null ? t : first; // no suppressed list: memory may have run out
                    }
                }
            }
        }
        return first;
    }

    /**
     * Releases the page, and closes the linked cursors this cursor opened. A linked cursor closing passes
     * its last read to its parent's next {@code shouldRetry()}, and its bounds flag and cursor exception to
     * the parent's. Closing twice is harmless; every other method throws afterwards.
     */
    @Override
    public void close() {
        // A cursor is one thread's at a time, but a store that shares one by mistake may close it from two threads at
        // once: both would see it open and give it back twice, and the cache's count of open cursors (which decides
        // when page memory may be freed) would miss a cursor still open. Only the thread that claims the close gives
        // it back; the other returns as a second close does. The price: escape analysis no longer removes a cursor
        // opened and closed in one compiled loop (docs/benchmarks.md, "A cursor per read").
        if (!open || !claimClose(this)) {
            return;
        }
        updateFastPath();
        int lastFrame = frame;
        long lastStamp = stamp;
        Throwable linkFailure;
        try {
            CursorLinks l = links;
            linkFailure = closeLinks(l); // throws nothing: this cursor's page is released below whatever a link did
            unpin();
            publishCounters();
            PageCursor p = l == null ? null : l.parent;
            if (p != null) {
                l.parent = null;
                p.linkClosed(this, lastFrame, lastStamp);
            }
        } finally {
            file.engine().cursorClosed(openStripe);
        }
        if (linkFailure instanceof Error e) {
            throw e;
        } else if (linkFailure != null) {
            throw (RuntimeException) linkFailure; // a close throws nothing checked
        }
    }
}
