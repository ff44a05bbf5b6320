package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.Backoff;
import io.ratatosk.pagecache.internal.IopsLimiter;
import io.ratatosk.pagecache.internal.TranslationTable;
import io.ratatosk.pagecache.internal.WriteRun;
import io.ratatosk.pagecache.metrics.FlushEvent;
import io.ratatosk.pagecache.metrics.JfrEvents;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * The flush of one file's dirty pages, in page order, with runs of adjacent dirty pages gathered into
 * one vectored write ({@link PageSwapper#write(long, long[], int)}, at most {@link WriteRun#MAX_PAGES}).
 * Each page of a run is flush locked when it joins; the run is written when the next page does not
 * follow it, is clean, or cannot be locked, and every lock is released whatever the write did, with
 * {@code written} telling {@link FrameTable#unlockFlush} whether the page may be marked clean. A page
 * whose flush lock is taken (an eviction writes it, or another flusher) is waited for alone, after the
 * run before it went out: the flusher never waits while it holds locks, so two flushers cannot block
 * each other. Each write call first takes a slot from the {@link IopsLimiter}, before any lock of its run
 * is taken, so a limited flush never holds pages while it waits.
 */
final class CoalescingFlush {
    private final FileMapping file;
    private final EvictionEngine engine;
    private final FrameTable frames;
    private final TranslationTable table;
    private final PageSwapper swapper;
    private final IopsLimiter limiter;
    /** Whether an unmap, close or truncate waits for this flush: then it no longer keeps to the limit. */
    private final BooleanSupplier waitedFor;
    private final WriteRun run = new WriteRun();
    /**
     * Whether a slot of the limiter was taken that no write call has used yet: a run's first page took it and then went
     * alone, or was evicted or written meanwhile. The next write call uses it rather than taking another (each took
     * one, so such a page cost two slots and a limited flush ran below its limit).
     */
    private boolean slotTaken;

    CoalescingFlush(FileMapping file, IopsLimiter limiter) {
        this.file = file;
        this.engine = file.engine();
        this.frames = engine.frames();
        this.table = file.table();
        this.swapper = file.swapper();
        this.limiter = limiter;
        this.waitedFor = file::isGateClosed;
    }

    /** Writes every page of the file that is bound and modified when the walk reaches it. */
    void flushPages() throws IOException {
        try {
            for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
                int entry = table.get(pageId);
                if (entry <= 0) {
                    continue; // absent or being faulted in: the run, if any, ends at the next page that does not follow it
                }
                int frame = entry - 1;
                long key = PageKey.of(file.fileId(), pageId);
                if (frames.binding(frame) != key || !frames.isModified(frame)) {
                    continue;
                }
                if (!run.accepts(pageId)) {
                    writeRun();
                }
                if (run.isEmpty()) {
                    takeSlot(); // before the run's first lock: a limited flush waits holding nothing
                }
                long stamp = frames.tryFlushLock(frame);
                if (stamp == FrameTable.FLUSH_LOCK_FAILED) {
                    writeRun();
                    flushAlone(pageId, frame, key);
                    continue;
                }
                if (frames.binding(frame) != key || !frames.isModified(frame)) {
                    frames.unlockFlush(frame, stamp, false); // evicted or written meanwhile
                    continue;
                }
                run.add(pageId, frame, engine.pageAddress(frame), stamp);
                if (run.isFull()) {
                    writeRun();
                }
            }
            writeRun();
        } finally {
            releaseRun(false); // only after a failure is anything left locked
        }
    }

    /** Writes the run gathered so far in one call, then releases its pages; nothing if it is empty. */
    private void writeRun() throws IOException {
        if (run.isEmpty()) {
            return;
        }
        int size = run.size();
        FlushEvent event = JfrEvents.flush();
        if (size == 1) {
            swapper.write(run.start(), run.addresses()[0]);
        } else {
            swapper.write(run.start(), run.addresses(), size);
        }
        slotTaken = false;
        engine.countFlushedRun(size, file.pageSize());
        if (event != null) {
            commit(event, run.start(), size);
        }
        releaseRun(true);
    }

    /**
     * Commits the run's JFR event, or leaves it out where that fails (an {@link OutOfMemoryError} naming the file while a
     * recording enables it), as {@link JfrEvents} leaves out an event it cannot make: the run is written by then, and a
     * throw here once released its pages as unwritten, dirty, and failed the flush for an event.
     */
    private void commit(FlushEvent event, long start, int pages) {
        try {
            if (event.shouldCommit()) {
                event.file = file.path().toString();
                event.page = start;
                event.pages = pages;
                event.commit();
            }
        } catch (Throwable t) {
            // an event is worth less than the flush it would describe
        }
    }

    private void releaseRun(boolean written) {
        for (int i = 0; i < run.size(); i++) {
            frames.unlockFlush(run.frame(i), run.stamp(i), written);
        }
        run.clear();
    }

    /** Takes a slot of the limiter for the next write call, unless one is taken already and unused. */
    private void takeSlot() {
        if (!slotTaken) {
            limiter.acquire(waitedFor);
            slotTaken = true;
        }
    }

    /**
     * A page another thread holds (an eviction, which writes it anyway, or another flusher): waits for it,
     * then writes it alone if it is still this page and still dirty.
     */
    private void flushAlone(long pageId, int frame, long key) throws IOException {
        takeSlot(); // before the lock, as for a run
        int attempt = 0;
        while (frames.binding(frame) == key && frames.isModified(frame)) {
            long stamp = frames.tryFlushLock(frame);
            if (stamp == FrameTable.FLUSH_LOCK_FAILED) {
                attempt = Backoff.pause(attempt);
                continue;
            }
            boolean written = false;
            try {
                if (frames.binding(frame) == key && frames.isModified(frame)) {
                    slotTaken = false;
                    swapper.write(pageId, engine.pageAddress(frame));
                    written = true;
                    engine.countFlushedRun(1, file.pageSize());
                }
            } finally {
                frames.unlockFlush(frame, stamp, written);
            }
            return;
        }
    }
}
