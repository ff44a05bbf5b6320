package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.Sweep;
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.Failures;
import io.ratatosk.pagecache.internal.FaultWaiters;
import io.ratatosk.pagecache.internal.IopsLimiter;
import io.ratatosk.pagecache.internal.OperationGate;
import io.ratatosk.pagecache.internal.SwapperCalls;
import io.ratatosk.pagecache.internal.TranslationTable;
import io.ratatosk.pagecache.metrics.FaultEvent;
import io.ratatosk.pagecache.metrics.JfrEvents;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongFunction;
import org.agrona.UnsafeAccess;
import org.agrona.collections.IntArrayList;
import sun.misc.Unsafe;

/**
 * One mapped file's state and the protocols that run per file: its translation table, its last page,
 * faulting pages in, flushing, and unmapping (flush, then drop every page). {@link PagedFile} is its
 * public face; the {@link EvictionEngine} owns the frames it binds pages to.
 *
 * <p>Faults, prefetches and flushes run inside the file's {@link OperationGate}; unmap closes the gate
 * and drains it before it drops the pages, so no frame can become bound to the file behind it.
 */
final class FileMapping implements FrameOwner {
    /**
     * A write cursor's fault of a page this far past the file's last page writes the (zero) page at once:
     * a far write makes a sparse file there and then, and a file system that cannot hold a file that
     * large refuses on that call, before anything is dirtied, instead of on a later flush.
     */
    static final long FAR_PAGE_DISTANCE = 4096;
    /** {@link #faultIn} of a fault that may not grow the file: the page lies past its last page (it was truncated away). */
    static final int PAST_END = -2;
    private static final int FAILURE_SLOTS = 16;
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;

    private final EvictionEngine engine;
    private final MappingOwner owner;
    private final int fileId;
    private final Path path;
    private final Object identity;
    private final int filePageSize;
    private final long maxPageId;
    /** {@code PageKey.of(fileId, 0)}: a page's key is this or its page id. */
    private final long keyBase;
    private final PageSwapper swapper;
    private final TranslationTable table;
    private final AtomicLong lastPageId;
    /** Faults, prefetches and flushes in flight; closed by unmap. */
    private final OperationGate gate = new OperationGate();
    /** The latest failed fault per slot (page id hash), so that threads that waited for it get its failure. */
    private final AtomicReferenceArray<FaultFailure> recentFailures = new AtomicReferenceArray<>(FAILURE_SLOTS);
    /** Where cursors that found a page FAULTING sleep until its fault ends. */
    private final FaultWaiters faultWaiters = new FaultWaiters();
    /**
     * Maps not yet closed; guarded by the owner's mapping lock. A long: an int wrapped at 2^32 maps without a close, and
     * the close that brought it to 0 unmapped the file under every other holder.
     */
    private long references = 1;
    /** Where the owner's count of maps stood when this file was mapped; guarded by the owner's mapping lock. */
    private long mapOrdinal;
    private volatile boolean closed;
    /** Made on the first dirty eviction of this file by a background sweep (the evictor's or a read-ahead's); see {@link #writeBehind()}. */
    private EvictionWriteBehind writeBehind;
    /** Set once an unmap succeeded: from then on the file is gone for good (closed may also mean "unmapping"). */
    private volatile boolean unmapped;
    /**
     * The first force of this file that failed, reported again by every later flush and by the close: see {@link #force}.
     * Kept for the mapping's life: only the unmap, which drops every page, ends it.
     */
    private volatile IOException failedForce;
    /**
     * The first failed force's own failure, kept before anything is made of it: where the heap is full, {@link #failedForce}
     * cannot be made, and the failure must stick all the same (a force that ran out of memory once stuck nothing, and
     * the next flush's force returned normally over pages whose force had failed).
     */
    private volatile Throwable firstFailedForce;
    /**
     * Held by every {@link #force}, from the swapper's force to the failure it recorded: two forces of the file at once
     * once overlapped, and where one failed (an fsync reporting a page the operating system could not write, which it
     * reports to one fsync only; a tier's lost copy, which it reports to one force only) the other could return normally
     * before the first had recorded the failure, a flush told its data was durable where it may not be.
     */
    private final Object forcing = new Object();
    /**
     * The new last page a truncate cut to but could not write ({@link #keepLastPage} failed), so the file may end before
     * it; -1 if none. Every flush and the unmap write it first, and fail while they cannot: otherwise nothing would, and a
     * flush that returned normally left the file shorter than {@link #lastPageId()} says.
     */
    private volatile long unwrittenLastPage = -1;

    FileMapping(EvictionEngine engine, MappingOwner owner, int fileId, Path path, Object identity, int filePageSize,
                PageSwapper swapper) throws IOException {
        this.engine = engine;
        this.owner = owner;
        this.fileId = fileId;
        this.path = path;
        this.identity = identity;
        this.filePageSize = filePageSize;
        this.maxPageId = Math.min(PageKey.MAX_PAGE_ID, Long.MAX_VALUE / filePageSize - 1);
        this.keyBase = PageKey.of(fileId, 0);
        this.swapper = swapper;
        int swapperPageSize;
        try {
            swapperPageSize = swapper.filePageSize();
        } catch (RuntimeException e) {
            // A plug-in's failure, as pageCount's below: said naming the file, not passed on bare.
            throw failure("cannot map " + path + ": its swapper's page size could not be read: ", e);
        }
        if (swapperPageSize != filePageSize) {
            // It would read and write its own page size at a frame's address: past the frame's end when larger.
            throw new IllegalStateException("cannot map " + path + " with page size " + filePageSize + ": its swapper "
                + swapper + " has page size " + swapperPageSize + " (the swapper factory ignored the page size asked for)");
        }
        long pages;
        try {
            pages = swapper.pageCount();
        } catch (IOException | RuntimeException e) {
            // The OS's words ("Input/output error") or a plug-in's bare RuntimeException: say which file, as a read does.
            throw failure("cannot map " + path + ": its size could not be read: ", e);
        }
        if (pages < 0 || pages > maxPageId + 1) {
            // A sparse file on tmpfs or XFS may be 2^62 bytes: its pages past maxPageId have no page key of their own
            // (page 2^48 of this file is page 0 of the next file id), and a read-ahead near the end faulted them in.
            throw new IOException("cannot map " + path + ": it has " + pages + " pages of " + filePageSize + " bytes, and"
                + " a page cache addresses at most " + (maxPageId + 1) + " (page ids are 48 bits, byte offsets 63)");
        }
        this.lastPageId = new AtomicLong(pages - 1);
        this.table = new TranslationTable(pages);
    }

    // ---- what the engine and the cursors read -----------------------------------------------------

    @Override
    public PageSwapper swapper() {
        return swapper;
    }

    @Override
    public void pageLeft(long pageId, int frame) {
        table.compareAndSet(pageId, frame + 1, TranslationTable.ABSENT);
    }

    @Override
    public int pageSize() {
        return filePageSize;
    }

    @Override
    public Path path() {
        return path;
    }

    int fileId() {
        return fileId;
    }

    long keyBase() {
        return keyBase;
    }

    /** What makes two paths the same file (see {@link PageCache#map}). */
    Object identity() {
        return identity;
    }

    TranslationTable table() {
        return table;
    }

    EvictionEngine engine() {
        return engine;
    }

    long lastPageId() {
        return lastPageId.get();
    }

    long maxPageId() {
        return maxPageId;
    }

    void checkPageId(long pageId) {
        if (pageId < 0 || pageId > maxPageId) {
            throw new IllegalArgumentException("page id must be in [0, " + maxPageId + "] (a page must end within a"
                + " signed 64-bit byte offset, and its id fit 48 bits): pageId=" + pageId + " in " + path);
        }
    }

    void growTo(long pageId) {
        long last;
        while ((last = lastPageId.get()) < pageId) {
            if (lastPageId.compareAndSet(last, pageId)) {
                return;
            }
        }
    }

    /** Whether an unmap or a truncate has closed the operation gate and waits for the operations in flight. */
    boolean isGateClosed() {
        return gate.isClosed();
    }

    /** True once unmapped, or while an unmap is under way; for the owner, under its mapping lock. */
    boolean isClosed() {
        return closed;
    }

    /**
     * True once an unmap dropped every page of the file: also when it then threw because the file's force failed (now,
     * or before: it sticks), since nothing of the file is left in the frames to keep it mapped for.
     */
    boolean isUnmapped() {
        return unmapped;
    }

    /**
     * Whether the file is still mapped, for a call that may race an unmap: waits for an unmap under way
     * to end, so that the call fails only if the unmap succeeds. A refused unmap (a write cursor held a
     * page, a write failed) then changes nothing for anybody.
     */
    boolean awaitMapped() {
        return !closed || awaitUnmapOutcome(); // small, so that a cursor's next() inlines it
    }

    private boolean awaitUnmapOutcome() {
        if (SwapperCalls.inside(engine)) {
            SwapperCalls.refuseInside(engine, "a call on " + path + " while it is being unmapped");
        }
        int attempt = 0;
        while (closed) {
            if (unmapped) {
                return false;
            }
            attempt = Backoff.pause(attempt);
        }
        return true;
    }

    /** Enters the operation gate, waiting out an unmap under way as {@link #awaitMapped} does; false once unmapped. */
    private boolean enterGate() {
        int attempt = 0;
        while (!gate.enter()) {
            if (unmapped) {
                return false;
            }
            attempt = Backoff.pause(attempt);
        }
        return true;
    }

    /**
     * A cursor about to wait for page {@code pageId} (being evicted or faulted in) calls this first: if this thread is
     * inside a call of a swapper of this cache, the eviction or fault it would wait for may be that very call (a
     * swapper that reads the page it evicts through its cache), so it is refused. Here, and not in {@code io()}, so that
     * a cursor that never waits pays nothing: {@code io()} must stay small enough to inline, or a cursor opened per
     * read is no longer scalar-replaced.
     */
    void refuseWaitInsideSwapperCall(long pageId) {
        if (SwapperCalls.inside(engine)) {
            SwapperCalls.refuseInside(engine, "a cursor's wait for page " + pageId + " of " + path);
        }
    }

    /**
     * What a swapper's failure says, for a message: an IOException's message, anything else (and an IOException without a
     * message, such as the JDK's ClosedChannelException, which read "failed: null") with its class.
     */
    private static String swapperFailure(Throwable e) {
        return e instanceof IOException && e.getMessage() != null ? e.getMessage() : e.toString();
    }

    IllegalStateException unmappedException() {
        return new IllegalStateException(path + " is not mapped: it was closed (unmapped), or the page cache was closed");
    }

    // ---- flushing -------------------------------------------------------------------------------

    /** Writes every page modified before the call began and forces the file; see {@link PagedFile#flush()}. */
    void flush() throws IOException {
        SwapperCalls.refuseInside(engine, "PagedFile.flush");
        boolean unmappedBefore = unmapped;
        if (!enterGate()) {
            if (unmappedBefore) {
                throw unmappedException();
            }
            // Unmapped by a close under way as the call began: "not mapped" blamed the caller for a file it had mapped, and
            // hid the close's failed force, under which the pages this flush was to make durable may not be on storage.
            throwClosingForceFailure();
            throw new IllegalStateException(path + " was closed by another thread while this flush waited for that close:"
                + " the close wrote its dirty pages and forced it, so what this flush was to write is on storage; the file"
                + " is no longer mapped");
        }
        try {
            engine.throwPendingError();
            writeAndForce(true);
        } finally {
            gate.exit();
        }
    }

    /**
     * As {@link #flush}, for a caller that flushes every mapped file: one unmapped meanwhile was flushed by its unmap, whose
     * force is then the caller's, and a failure of it (or an earlier one, sticking) is thrown here too. The pending error
     * is the caller's to throw, once for all the files (see {@link PageCache#flushAndForce}).
     */
    void flushUnlessUnmapped() throws IOException {
        SwapperCalls.refuseInside(engine, "PageCache.flushAndForce");
        if (enterGate()) {
            try {
                writeAndForce(true);
            } finally {
                gate.exit();
            }
            return;
        }
        // Skipped silently, a checkpoint's flushAndForce returned normally over pages modified before it began that the
        // unmap wrote but could not force.
        throwClosingForceFailure();
    }

    /** For a flush that found the file unmapped by a close under way: throws if that close's force failed (or one before). */
    private void throwClosingForceFailure() throws IOException {
        Throwable cause = firstFailedForce;
        if (cause != null) {
            IOException report = failedForce;
            throw new IOException(path + " was closed while it was being flushed, and the close's force failed ("
                + swapperFailure(cause) + "), so what was written to it may not be on"
                + " storage", report != null ? report : cause);
        }
    }

    /**
     * Writes the dirty pages ({@link #flushPages}) and forces the file; a failure that does not name the file (the
     * OS's own words: "Operation not permitted", "No space left on device") comes out naming it. A failed write leaves
     * its pages dirty in the cache, for a later flush, and what was written before it is still forced
     * ({@link #forceAfter}); a failed force does not: the pages it was to make durable were written, and so marked
     * clean, before it, and a later flush does not write them again. Its message says so, rather than that the dirty
     * pages stay in the cache (it did): after a failed fsync the operating system may have dropped them, and the next
     * force succeed. The last page a failed truncate left unwritten is written first; a failure there still lets the
     * dirty pages go, and is thrown after them.
     */
    private void writeAndForce(boolean limited) throws IOException {
        try {
            IOException lastPage = null;
            try {
                writeUnwrittenLastPage();
            } catch (IOException e) {
                lastPage = e; // the dirty pages go all the same: they do not wait on it (the unmap's must, as it drops them)
            }
            try {
                writePages(limited);
            } catch (Throwable t) {
                if (lastPage != null) {
                    Failures.add(t, lastPage);
                }
                throw t;
            }
            if (lastPage != null) {
                throw lastPage;
            }
            checkLastPageWritten();
        } catch (Throwable t) {
            forceAfter(t);
            throw t;
        }
        force();
    }

    /**
     * The new last page a failed truncate left unwritten ({@link #unwrittenLastPage}): written now, unless the file
     * reaches it, or it is dirty in a frame and the flush's walk that follows writes it ({@link #checkLastPageWritten}
     * then looks). Runs inside the gate (a flush) or with it closed (the unmap); a fault of the page meanwhile waits.
     */
    private void writeUnwrittenLastPage() throws IOException {
        long pageId = unwrittenLastPage;
        if (pageId < 0) {
            return;
        }
        if (pageId > lastPageId()) {
            unwrittenLastPage = -1; // cut off since
            return;
        }
        try {
            keepLastPage(pageId);
        } catch (IOException | RuntimeException e) {
            throw new IOException("flushing " + path + " failed: a truncate left its last page " + pageId + " unwritten,"
                + " so the file may end before it, and writing it failed again (a later flush or the close tries again): "
                + swapperFailure(e), e);
        }
    }

    /** After the flush's walk: the file reaches the page {@link #writeUnwrittenLastPage} wrote or left to the walk. */
    private void checkLastPageWritten() throws IOException {
        long pageId = unwrittenLastPage;
        if (pageId < 0) {
            return;
        }
        long pages;
        try {
            pages = swapper.pageCount();
        } catch (IOException | RuntimeException e) {
            throw failure("flushing " + path + " failed: its length could not be read to see that it reaches page " + pageId
                + ", which a truncate left unwritten: ", e);
        }
        if (pages <= pageId && pageId <= lastPageId()) {
            throw new IOException("flushing " + path + " failed: it ends before page " + pageId + ", its last page, which a"
                + " truncate left unwritten, after the page was written (" + pages + " pages); a later flush or the close"
                + " tries again");
        }
        unwrittenLastPage = -1;
    }

    /** Writes the dirty pages ({@link #flushPages}); a failure comes out naming the file. */
    private void writePages(boolean limited) throws IOException {
        try {
            flushPages(limited);
        } catch (IOException | RuntimeException e) {
            throw failure("flushing " + path + " failed; its dirty pages stay in the cache: ", e);
        }
    }

    /**
     * After a write, or an unmap's drop, that failed or was refused partway: forces what the call wrote before that, so
     * that no write of it is left unforced behind its error (a refused close once left its flush's writes unforced until
     * the next flush or close). The force's own failure goes into {@code failure}, suppressed.
     */
    private void forceAfter(Throwable failure) {
        try {
            force();
        } catch (Throwable t) {
            Failures.add(failure, t); // not itself: one Error instance thrown by both (the JVM's preallocated OutOfMemoryError)
        }
    }

    /**
     * Forces the file after its dirty pages were written out of the frames; see {@link #writeAndForce}. A failed force
     * sticks: every later one throws too, saying so, even where the swapper's force succeeds, until the file is unmapped.
     * After a failed fsync the operating system may have dropped the pages it could not write and report the next fsync
     * as a success (the "fsyncgate" lesson), and the cache holds those pages dirty no more: a later success would tell
     * a store that retries its flush or its close that its data is durable when it may not be. Forces of the file take
     * turns ({@link #forcing}), so that a force overlapping a failed one reports that failure as well.
     */
    private void force() throws IOException {
        // One method, the swapper's force called from it: the lifecycle model test tells an unmap's force by
        // FileMapping.force called from FileMapping.unmap on the stack.
        synchronized (forcing) {
            try {
                swapper.force();
            } catch (Throwable t) {
                if (firstFailedForce == null) {
                    firstFailedForce = t; // nothing made yet: this sticks whatever the message below costs
                }
                // Always said, even where the swapper's message names the file: what the caller may no longer count on.
                // With a swap tier the force writes the tier's dirty copies first; those stay dirty in the tier if that
                // fails, and are written again: the message says what holds either way, for the frames' pages.
                IOException failed = new IOException("forcing " + path + " to storage failed after its dirty pages were"
                    + " written out of the frames: they are no longer dirty in the frames, and storage may not hold them (a"
                    + " later flush does not write them from the frames again; a swap tier's own dirty copies stay and are): "
                    + swapperFailure(t), t);
                if (failedForce == null && firstFailedForce == t) {
                    failedForce = failed; // the report of the failure that sticks, not of a later one
                }
                if (t instanceof Error e) {
                    throw e; // an Error passes as it is; whether it forced is unknown, so later forces report it
                }
                throw failed;
            }
            Throwable cause = firstFailedForce;
            if (cause != null) {
                IOException earlier = failedForce;
                throw new IOException("an earlier force of " + path + " failed (" + swapperFailure(cause)
                    + "), so what was written to it before may not be on storage whatever a later"
                    + " force says: after a failed fsync the operating system may drop the pages it could not write, and the"
                    + " cache holds them dirty no more. Every flush and the close of the file say so until it is closed;"
                    + " recover its content (from a log) and map it again", earlier != null ? earlier : cause);
            }
        }
    }

    /** {@code e} as an IOException whose message names the file: its own if it does, else {@code what} and its words. */
    private IOException failure(String what, Exception e) {
        if (e instanceof IOException io) {
            String message = String.valueOf(io.getMessage());
            return message.contains(path.toString()) ? io : new IOException(what + swapperFailure(io), io);
        }
        // The swapper's (a plug-in's bug, an UncheckedIOException): an IOException naming the file, as for a read.
        return new IOException(what + e, e);
    }

    /**
     * Writes the file's dirty pages, adjacent ones together ({@link CoalescingFlush}); a flush the caller
     * asked for keeps to the cache's {@code pagecache.flush.iops_limit}, the flush of an unmap does not.
     */
    private void flushPages(boolean limited) throws IOException {
        new CoalescingFlush(this, limited ? engine.flushLimiter() : IopsLimiter.UNLIMITED).flushPages();
    }

    /**
     * Whether the background evictor writes a dirty page of this file out with its dirty neighbours
     * ({@link EvictionWriteBehind}): only where an eviction is a plain write ({@link PageSwapper#evictionIsPlainWrite}),
     * never through a tier's own eviction.
     */
    boolean writesBehind() {
        return swapper.evictionIsPlainWrite();
    }

    /**
     * The write-behind of this file's dirty pages evicted by background sweeps (the evictor's and read-ahead's),
     * which it serializes. Two threads racing here the first time may build one each: each is whole on its own.
     */
    EvictionWriteBehind writeBehind() {
        EvictionWriteBehind writer = writeBehind;
        if (writer == null) {
            writer = new EvictionWriteBehind(this);
            writeBehind = writer;
        }
        return writer;
    }

    // ---- faults ---------------------------------------------------------------------------------

    /**
     * Faults {@code pageId} in unless another thread is doing so or already has. Returns the frame,
     * bound and exclusively locked by the caller, or -1 if the caller should look the page up again.
     * Whatever goes wrong, the page's entry goes back to absent and the frame back to the free list,
     * and threads waiting for this fault get its failure ({@link #awaitFault}).
     *
     * @param forWrite a write cursor's fault: a page far past the end is written (zeros) at once
     * @param mayGrow  a fault that may bring in a page past the file's last page: a write cursor's without
     *                 {@link PagedFile#PF_NO_GROW}. Any other fault of such a page (a read, a touch, a
     *                 {@code PF_NO_GROW} write) returns {@link #PAST_END}: a truncate cut it off after the
     *                 caller looked at the end
     * @throws IllegalStateException once the file is unmapped
     */
    int faultIn(long pageId, long key, boolean forWrite, boolean mayGrow) throws IOException {
        if (SwapperCalls.inside(engine)) { // the message only then: no string per fault
            SwapperCalls.refuseInside(engine, "a cursor's fault of page " + pageId + " of " + path);
        }
        if (!enterGate()) {
            throw unmappedException();
        }
        try {
            engine.throwPendingError();
            if (!mayGrow && pageId > lastPageId()) {
                return PAST_END; // a truncate cut the page off after the caller looked at the end
            }
            if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
                return -1;
            }
            int frame;
            try {
                frame = engine.grabFrame();
            } catch (IOException e) {
                // Another page's eviction failed (the pending error): reported once, to this fault; not the page's
                // failure, so its waiters fault it themselves (shared, each threw it though its own eviction would do).
                endFault(pageId, TranslationTable.ABSENT);
                throw e;
            } catch (Throwable t) {
                failed(pageId, t);
                throw t;
            }
            FaultEvent event = JfrEvents.fault();
            int filled = fill(pageId, key, frame, forWrite, true);
            if (event != null) {
                commit(event, pageId);
            }
            return filled;
        } finally {
            gate.exit();
        }
    }

    /**
     * Commits the fault's JFR event, or leaves it out where that fails (an {@link OutOfMemoryError} naming the file
     * while a recording enables it), as {@link JfrEvents} leaves out an event it cannot make: the frame is bound and
     * exclusively locked for the caller by then, and a throw here once kept it locked for good, every later cursor on
     * the page waiting for it.
     */
    private void commit(FaultEvent event, long pageId) {
        try {
            if (event.shouldCommit()) {
                event.file = path.toString();
                event.page = pageId;
                event.commit();
            }
        } catch (Throwable t) {
            // an event is worth less than the fault it would describe
        }
    }

    /**
     * Faults a page in for a prefetcher, into a free frame only: true if it did, false if the page is
     * resident or being faulted, past the file's end, no frame is free, or the file is being unmapped or
     * truncated. Leaves it unlocked.
     */
    @Override
    public boolean prefetch(long pageId) throws IOException {
        return faultWithoutWaiting(pageId, null);
    }

    @Override
    public boolean isResident(long pageId) {
        return table.get(pageId) != TranslationTable.ABSENT;
    }

    /**
     * Reads the page into {@code frame} (exclusively locked and unbound) and binds it. The caller marked
     * the entry FAULTING. {@code waitersShareFailure}: a failure is the waiters' too ({@link #awaitFault}); false for a
     * background worker's hint (read-ahead, prefetch, reheat), whose failure is its own: its waiters fault the page
     * themselves. (Shared, a cursor that waited for a read-ahead got the read-ahead thread's failure, though the worker
     * drops it as a mere hint and the cursor's own read would have succeeded.)
     */
    private int fill(long pageId, long key, int frame, boolean forWrite, boolean waitersShareFailure) throws IOException {
        boolean bound = false;
        try {
            long address = engine.pageAddress(frame);
            try {
                int read = swapper.read(pageId, address);
                if (read == 0 && forWrite && pageId > lastPageId() + FAR_PAGE_DISTANCE) {
                    swapper.write(pageId, address);
                    engine.countZeroPageWritten(filePageSize); // a write like any other: it went uncounted
                }
            } catch (IOException | RuntimeException e) {
                // A RuntimeException is the swapper's too (a plug-in's bug, an UncheckedIOException): the caller gets an
                // IOException naming file and page either way, never a bare IllegalStateException that reads like the
                // cache's own "unmapped". Errors pass as they are.
                throw new IOException((forWrite && pageId > lastPageId() ? "growing " : "reading ") + path
                    + " to page " + pageId + " (byte offset " + pageId * filePageSize + ") failed: "
                    + swapperFailure(e), e);
            }
            bound = true; // from here a failure must unbind, whatever step it came from
            engine.bind(frame, key);
            engine.countRead(filePageSize);
            supersedeFailure(pageId);
            endFault(pageId, frame + 1);
            return frame;
        } catch (Throwable t) {
            engine.abandonFill(frame, key, bound);
            if (waitersShareFailure) {
                failed(pageId, t);
            } else {
                endFault(pageId, TranslationTable.ABSENT);
            }
            throw t;
        }
    }

    /**
     * The fault of {@code pageId} failed: its waiters learn why, then the page is absent again, whatever the record of
     * the failure costs. With the heap exhausted (the fault's own failure, often) the record cannot be made: its waiters
     * then look the page up again and fault it themselves. (That allocation's OutOfMemoryError once left the page
     * FAULTING for good: every later cursor on it waited for ever, and the file's unmap was refused.)
     */
    private void failed(long pageId, Throwable cause) {
        try {
            if (!endedByInterrupt(cause)) {
                recentFailures.set(failureSlot(pageId), new FaultFailure(pageId, cause));
            }
        } catch (Throwable unrecorded) {
            // the caller throws the fault's own failure: this one would only hide it
        } finally {
            endFault(pageId, TranslationTable.ABSENT);
        }
    }

    /**
     * Whether the faulting thread's failure may be its interrupt's (it is interrupted, or the failure is an interruptible
     * channel's {@link ClosedByInterruptException} or an {@link InterruptedIOException}): its own then, not the page's,
     * and the threads that waited fault the page themselves. (Shared, a cursor that waited got an interrupt meant for
     * another thread, though its own read would have succeeded.) Not a {@link SocketTimeoutException}: an
     * InterruptedIOException that interrupted no thread, where the read timed out; taken for an interrupt, each waiter
     * read the page again and waited out the timeout in turn.
     */
    private static boolean endedByInterrupt(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 16; depth++, cause = cause.getCause()) {
            if (cause instanceof ClosedByInterruptException
                || cause instanceof InterruptedIOException && !(cause instanceof SocketTimeoutException)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A successful fault of {@code pageId} drops the failure recorded for its last fault, before the page shows resident:
     * a waiter that woke only after the page was evicted again found the page absent and the failure still there, and
     * threw it, stale, though the page's latest fault had succeeded ({@link #awaitFault}). One plain read where nothing
     * failed: the fault's entry swap (ABSENT to FAULTING) came after the failure's record.
     */
    private void supersedeFailure(long pageId) {
        int slot = failureSlot(pageId);
        FaultFailure recorded = recentFailures.getPlain(slot);
        if (recorded != null && recorded.pageId == pageId) {
            recentFailures.compareAndSet(slot, recorded, null); // not another page's, recorded meanwhile
        }
    }

    /** Moves {@code pageId}'s entry off FAULTING, to a frame or back to absent, and wakes whoever waits for it. */
    private void endFault(long pageId, int entry) {
        table.set(pageId, entry);
        faultWaiters.faultEnded(pageId);
    }

    /**
     * Called with the page's entry seen FAULTING: waits (a short spin, then asleep until woken) until the
     * faulting thread is done. If its fault failed, throws that failure instead of letting the caller retry blindly;
     * unless the page is no longer absent by then (another thread faulted it in, or is faulting it again), where the
     * failure is stale: the caller looks the page up again. (Thrown all the same, a waiter that woke after a failed
     * fault and another thread's successful one failed over a page that was resident.) A successful fault drops the
     * record ({@link #supersedeFailure}), so a page faulted in and evicted again by then is not taken for failed.
     */
    void awaitFault(long pageId) throws IOException {
        refuseWaitInsideSwapperCall(pageId); // the fault may be this thread's own, in the swapper's read
        FaultFailure before = recentFailures.get(failureSlot(pageId));
        faultWaiters.await(table, pageId);
        FaultFailure after = recentFailures.get(failureSlot(pageId));
        if (after != before && after != null && after.pageId == pageId && table.get(pageId) == TranslationTable.ABSENT) {
            throw new IOException("page " + pageId + " of " + path + " could not be faulted in: the fault in another"
                + " thread failed: " + after.cause, after.cause);
        }
    }

    private static int failureSlot(long pageId) {
        return (int) (pageId ^ (pageId >>> 17)) & (FAILURE_SLOTS - 1);
    }

    /** A fault that failed, kept for the threads that waited for it. */
    private record FaultFailure(long pageId, Throwable cause) {
    }

    // ---- touch, read-ahead, truncate ------------------------------------------------------------

    /**
     * Faults in the pages {@code [pageId, pageId + count)} that are not in the cache, without pinning
     * them, stopping at the file's last page; see {@link PagedFile#touch}. Returns how many it faulted in.
     */
    int touch(long pageId, int count) throws IOException {
        checkPageId(pageId);
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: count=" + count + " for " + path);
        }
        if (!awaitMapped()) {
            throw unmappedException(); // also for a count of 0, or pages all resident: no fault would say so
        }
        FrameTable frames = engine.frames();
        long end = Math.min(pageId + count, maxPageId + 1);
        int brought = 0;
        for (long p = pageId; p < end; p++) {
            if (table.get(p) != TranslationTable.ABSENT) {
                continue; // resident, or another thread is faulting it in
            }
            int frame = faultIn(p, PageKey.of(fileId, p), false, false);
            if (frame == PAST_END) {
                break;
            }
            if (frame >= 0) {
                frames.unlockExclusive(frame);
                brought++;
            }
        }
        return brought;
    }

    /**
     * Faults one page in for a read-ahead, into a free frame or one a background sweep can evict at once,
     * never waiting: true if it did, false if the page is resident, being faulted in, past the file's end,
     * no frame could be had, or the file is being unmapped or truncated. Leaves it unlocked.
     */
    boolean readAhead(long pageId, Sweep sweep) throws IOException {
        return faultWithoutWaiting(pageId, sweep);
    }

    /**
     * {@link #prefetch} ({@code sweep} null: a free frame only) and {@link #readAhead} (a free frame, or one
     * {@code sweep} can evict at once): one fault that never waits, the page left unlocked, and never past the
     * file's end, read inside the gate so that a truncate cannot slip in between. (Prefetches once skipped that
     * check: a warm-up reheat that ran just after a truncate bound the pages cut off, and a read cursor's
     * {@code next(id)} past the new end returned true.)
     */
    private boolean faultWithoutWaiting(long pageId, Sweep sweep) throws IOException {
        if (!gate.enter()) {
            return false;
        }
        try {
            if (pageId > lastPageId() || table.get(pageId) != TranslationTable.ABSENT) {
                return false;
            }
            if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
                return false;
            }
            int frame;
            try {
                frame = sweep == null ? engine.tryGrabFreeFrame() : engine.grabFrameWithoutWaiting(sweep);
            } catch (Throwable t) {
                endFault(pageId, TranslationTable.ABSENT);
                throw t;
            }
            if (frame < 0) {
                endFault(pageId, TranslationTable.ABSENT);
                return false;
            }
            engine.frames().unlockExclusive(fill(pageId, PageKey.of(fileId, pageId), frame, false, false));
            return true;
        } finally {
            gate.exit();
        }
    }

    /** Pages of this file in frames now (being faulted in not counted): a snapshot, exact only while nothing moves. */
    long numberOfCachedPages() {
        long n = 0;
        for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
            if (table.get(pageId) > 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * Cuts the file to {@code pageCount} pages; see {@link PagedFile#truncate}. Closes the operation gate
     * for the duration (one closer at a time: an unmap under way goes first, or waits for this), so no
     * fault, flush or prefetch runs meanwhile. Takes the exclusive lock of every resident page at or past
     * {@code pageCount} before dropping any, so that a refusal (a write cursor holds one) changes nothing;
     * then drops the clean ones, cuts the swapper (and the tier in front of the file with it) while the dirty
     * ones stay locked, so that a failed cut leaves them as they were, and only then drops those without
     * writing them and lowers the last page.
     */
    void truncate(long pageCount) throws IOException {
        if (pageCount < 0) {
            throw new IllegalArgumentException("page count must not be negative: pageCount=" + pageCount + " for " + path);
        }
        SwapperCalls.refuseInside(engine, "PagedFile.truncate");
        int attempt = 0;
        while (true) {
            if (!awaitMapped()) {
                throw unmappedException();
            }
            if (gate.tryClose()) {
                if (!closed) {
                    break;
                }
                gate.reopen(); // an unmap began meanwhile: let it run, then see whether it succeeded
            }
            attempt = Backoff.pause(attempt); // an unmap or another truncate is under way
        }
        try {
            gate.awaitDrained();
            IntArrayList held = dropCleanPages(lockPagesFrom(pageCount));
            cutSwapper(pageCount, held);
            FrameTable frames = engine.frames();
            for (int i = 0; i < held.size(); i++) {
                int frame = held.getInt(i);
                engine.discard(frames.binding(frame), frame);
            }
            long last;
            while ((last = lastPageId.get()) > pageCount - 1 && !lastPageId.compareAndSet(last, pageCount - 1)) {
                Thread.onSpinWait();
            }
            if (unwrittenLastPage >= pageCount) {
                unwrittenLastPage = -1; // an earlier cut's page, cut off now (a cut to 0 pages writes none of its own)
            }
            if (last >= pageCount && pageCount > 0) {
                // Set before, not in the catch: an Error (the zero page's native memory) left it unset, and nothing wrote the page
                unwrittenLastPage = pageCount - 1;
                try {
                    keepLastPage(pageCount - 1);
                } catch (IOException | RuntimeException e) {
                    throw new IOException("truncating " + path + " to " + pageCount + " pages cut the file, but keeping"
                        + " its new last page (reading its length, writing the page) failed, so the file may end before"
                        + " page " + (pageCount - 1) + " until a flush or the close writes it (each tries first, and fails"
                        + " while it cannot): " + swapperFailure(e), e);
                }
                unwrittenLastPage = -1; // written, or reached: so is any page a failed truncate before left unwritten
            }
        } finally {
            gate.reopen();
        }
    }

    /**
     * Drops the clean pages of {@code held} (exclusively locked, past the cut) at once and returns the dirty ones, still
     * locked: a clean page's content is the file's, which a failed cut leaves as it was, and a fault reads it back; only
     * a dirty page must stay in its frame, locked, until the cut is done. So the frames of clean pages are free while the
     * cut runs (a cache full of the cut pages once had every frame pinned for its length, and other faults waited).
     * Called with the gate closed and drained: no fault brings a dropped page back before the cut.
     */
    private IntArrayList dropCleanPages(IntArrayList held) {
        FrameTable frames = engine.frames();
        IntArrayList dirty;
        try {
            // Sized for every page at once, before any is dropped: grown in the loop, an OutOfMemoryError there left the
            // pages held (some dropped, the rest exclusively locked) locked for good, and every cursor on them waited.
            dirty = new IntArrayList(held.size(), IntArrayList.DEFAULT_NULL_VALUE);
        } catch (Throwable t) {
            for (int i = 0; i < held.size(); i++) {
                frames.unlockExclusive(held.getInt(i));
            }
            throw t;
        }
        for (int i = 0; i < held.size(); i++) {
            int frame = held.getInt(i);
            if (frames.isModified(frame)) {
                dirty.addInt(frame);
            } else {
                engine.discard(frames.binding(frame), frame);
            }
        }
        return dirty;
    }

    /**
     * Cuts the swapper (and the tier in front of the file) to {@code pageCount} pages before any dirty page leaves the
     * frames: if it fails, the dirty pages {@code held} (exclusively locked, at or past the cut) are released as they
     * were and the cache is left as it was (its clean pages past the cut read back from the file). (Dropped first, a
     * failed cut left the file's old bytes past the cut on disk, and a write cursor growing the file again read them
     * back instead of zeros, or instead of the dirty pages dropped.)
     */
    private void cutSwapper(long pageCount, IntArrayList held) throws IOException {
        try {
            swapper.truncate(pageCount);
        } catch (Throwable t) {
            FrameTable frames = engine.frames();
            for (int i = 0; i < held.size(); i++) {
                frames.unlockExclusive(held.getInt(i));
            }
            if (t instanceof IOException || t instanceof RuntimeException) {
                // The swapper's RuntimeException too: an IllegalStateException from truncate means "nothing changed".
                throw new IOException("truncating " + path + " to " + pageCount + " pages failed; nothing changed in the"
                    + " cache (its pages from " + pageCount + " on are still there, dirty ones still to be written): "
                    + swapperFailure(t), t);
            }
            throw t;
        }
    }

    /**
     * After a cut below the last page: the file must end at {@code pageId}, as {@link #lastPageId()} now says. Where
     * the cache had grown the file past its end on disk, the pages between were holes that nothing will write (only
     * the cut pages were), so the file stayed shorter than the cache said, and a flush or a map found it so: a zero
     * page is written there unless the file (or the tier in front of it) already reaches it, or the page is dirty in
     * a frame and goes there with the next flush. Called by a truncate and an unmap with the gate closed and drained,
     * and by a flush inside it ({@link #writeUnwrittenLastPage}): an absent page is claimed as a fault claims it (its
     * entry FAULTING), so no fault brings it in while the zero page is written; a resident page's exclusive lock keeps
     * an eviction from writing it under us.
     */
    private void keepLastPage(long pageId) throws IOException {
        FrameTable frames = engine.frames();
        long key = PageKey.of(fileId, pageId);
        int attempt = 0;
        while (true) {
            // The entry before the file's length: an eviction (not held back by the gate) writes the page before it
            // empties the entry, so a length read after an absent entry includes that write. Read the other way round,
            // an eviction in between left a short length and an absent entry, and the zero page went over its write.
            int entry = table.get(pageId);
            if (swapper.pageCount() > pageId) {
                return; // also after an eviction we waited for: it may have written the page
            }
            if (entry == TranslationTable.ABSENT) {
                if (!table.compareAndSet(pageId, TranslationTable.ABSENT, TranslationTable.FAULTING)) {
                    continue; // a fault took it (only inside an open gate): look again
                }
                try {
                    if (swapper.pageCount() <= pageId) { // again: an eviction may have written it before the claim
                        writeZeroPage(pageId);
                    }
                } finally {
                    endFault(pageId, TranslationTable.ABSENT);
                }
                return;
            }
            if (entry == TranslationTable.FAULTING) {
                attempt = Backoff.pause(attempt); // a fault of the page (only inside an open gate): it ends shortly
                continue;
            }
            int frame = entry - 1;
            if (frames.tryExclusiveLock(frame)) {
                try {
                    if (frames.binding(frame) != key) {
                        continue; // evicted and reused meanwhile: look again
                    }
                    if (!frames.isModified(frame)) {
                        swapper.write(pageId, engine.pageAddress(frame)); // a hole read in: zeros
                        engine.countZeroPageWritten(filePageSize);
                    }
                    return;
                } finally {
                    frames.unlockExclusive(frame);
                }
            }
            if (frames.writeLockCount(frame) > 0 && frames.binding(frame) == key) {
                return; // dirty: the next flush writes it
            }
            // Being evicted: it lets go shortly. Or evicted already, the frame taken for another page (maybe a write
            // cursor's, which says nothing about this page): the entry, read again, tells.
            attempt = Backoff.pause(attempt);
        }
    }

    private void writeZeroPage(long pageId) throws IOException {
        long zeros = UNSAFE.allocateMemory(filePageSize);
        try {
            UNSAFE.setMemory(zeros, filePageSize, (byte) 0);
            swapper.write(pageId, zeros);
            engine.countZeroPageWritten(filePageSize);
        } finally {
            UNSAFE.freeMemory(zeros);
        }
    }

    /**
     * The frames of every resident page at or past {@code pageCount}, exclusively locked. Called with the
     * gate closed and drained, so no entry is FAULTING and no page appears behind the walk. Refuses,
     * releasing what it took, if a write cursor holds one of the pages.
     */
    private IntArrayList lockPagesFrom(long pageCount) {
        FrameTable frames = engine.frames();
        IntArrayList held = new IntArrayList();
        try {
            LongFunction<String> heldByWriter = pageId -> "cannot truncate " + path + " to " + pageCount + " pages: page "
                + pageId + " is held by a write cursor; close the cursors on pages at or past " + pageCount + " first";
            for (long pageId = table.nextPresent(pageCount); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
                int frame = lockResidentPage(pageId, "truncated", heldByWriter);
                if (frame >= 0) {
                    try {
                        held.addInt(frame);
                    } catch (Throwable t) {
                        frames.unlockExclusive(frame); // not in held yet (its growth ran out of memory): released here
                        throw t;
                    }
                }
            }
        } catch (Throwable t) {
            for (int i = 0; i < held.size(); i++) {
                frames.unlockExclusive(held.getInt(i));
            }
            throw t;
        }
        return held;
    }

    /**
     * For an unmap or a truncate, with the gate closed and drained (no fault brings the page in): the frame of page
     * {@code pageId}, exclusively locked and still holding the page, or -1 once the page is not resident. Waits out an
     * eviction or a flush of the page; refuses, with {@code heldByWriter}'s message for the page, while a write cursor
     * holds it. A writer on the frame the entry named counts only while that frame still holds the page: a page evicted
     * while we waited leaves its frame to anyone, such as a write cursor's fault of another file's page, which once
     * refused an unmap or truncate that had nothing left to wait for.
     */
    private int lockResidentPage(long pageId, String operation, LongFunction<String> heldByWriter) {
        FrameTable frames = engine.frames();
        long key = PageKey.of(fileId, pageId);
        int attempt = 0;
        while (true) {
            int entry = table.get(pageId);
            if (entry == TranslationTable.ABSENT) {
                return -1; // evicted meanwhile
            }
            if (entry == TranslationTable.FAULTING) {
                throw new IllegalStateException("page " + pageId + " of " + path + " is being faulted in while the file is "
                    + operation + ": a fault bypassed the file's operation gate");
            }
            int frame = entry - 1;
            if (frames.tryExclusiveLock(frame)) {
                if (frames.binding(frame) == key) {
                    return frame;
                }
                frames.unlockExclusive(frame); // evicted and reused meanwhile: look again
                continue;
            }
            if (frames.writeLockCount(frame) > 0 && frames.binding(frame) == key) {
                throw new IllegalStateException(heldByWriter.apply(pageId));
            }
            attempt = Backoff.pause(attempt); // being evicted, flushed, or just read in by a cursor: it lets go shortly
        }
    }

    // ---- references and unmapping ---------------------------------------------------------------

    /** One mapping closed: tells the owner, which unmaps the file when it was the last. */
    void release() throws IOException {
        owner.release(this);
    }

    /** Guarded by the owner's mapping lock: where its count of maps stood when it mapped this file. */
    void mapOrdinal(long ordinal) {
        mapOrdinal = ordinal;
    }

    /** Guarded by the owner's mapping lock; see {@link #mapOrdinal(long)}. */
    long mapOrdinal() {
        return mapOrdinal;
    }

    /** Guarded by the owner's mapping lock: one more mapping. */
    void retain() {
        references++;
    }

    /** Guarded by the owner's mapping lock; true when the last mapping went away. */
    boolean releaseReference() {
        return --references == 0;
    }

    /**
     * Guarded by the owner's mapping lock: every mapping goes at once (the cache is closing). Returns how
     * many there were, for {@link #restoreReferences} if the unmap is refused.
     */
    long releaseAllReferences() {
        long held = references;
        references = 0;
        return held;
    }

    /** Guarded by the owner's mapping lock: an unmap was refused, so the mappings it took away are back. */
    void restoreReferences(long held) {
        references = held;
    }

    /**
     * Refuses new cursors and operations, waits for faults and flushes in flight, writes the dirty pages,
     * drops every page of the file from the frames, then forces the file. Fails, leaving the file mapped
     * and its dirty pages in the frames, if a page cannot be written or a write cursor still holds one.
     * A force that fails (now, or before: see {@link #force}) unmaps all the same, then throws.
     * Does not close the swapper: the owner does that once this returned. Called under the owner's mapping lock.
     */
    void unmap() throws IOException {
        closed = true;
        gate.close();
        try {
            writeUnwrittenLastPage();
            writePages(false);
            dropPages();
            checkLastPageWritten();
        } catch (Throwable t) {
            try {
                forceAfter(t); // what was written before the failure or refusal is not left unforced
            } finally {
                gate.reopen(); // whatever the force threw: a gate left closed would refuse the file for good
                closed = false;
            }
            throw t;
        }
        // The force last: a page a writer dirtied again while the flush passed it is written by the drop, or by an
        // eviction before it, and the swapper's close need not force. Once the drop is done no page of the file is
        // in a frame, nor being written (an eviction writes before it empties the entry), nor can one come back.
        // A force that fails (now or before: it sticks) does not keep the file mapped: every page is written and
        // dropped already, and a retried close could only force again, whose success would say nothing.
        try {
            force();
        } finally {
            unmapped = true;
        }
    }

    private void dropPages() throws IOException {
        LongFunction<String> heldByWriter = pageId -> "cannot close " + path + ": page " + pageId
            + " is still held by a write cursor; close every cursor first";
        for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
            int frame = lockResidentPage(pageId, "unmapped", heldByWriter);
            if (frame >= 0) {
                try {
                    engine.drop(this, PageKey.of(fileId, pageId), frame);
                } catch (IOException | RuntimeException e) {
                    // The swapper's write, as in a flush: a RuntimeException too comes out as an IOException naming the file.
                    throw failure("flushing " + path + " failed at page " + pageId + " as it was unmapped; its dirty pages"
                        + " stay in the cache: ", e);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "PagedFile[" + path + ", pageSize=" + filePageSize + ", lastPageId=" + lastPageId()
            + (closed ? ", unmapped" : "") + "]";
    }
}
