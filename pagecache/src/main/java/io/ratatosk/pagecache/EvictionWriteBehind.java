package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.TranslationTable;
import io.ratatosk.pagecache.internal.WriteRun;
import java.io.IOException;

/**
 * The background evictor's write-out of a dirty victim, with the dirty pages adjacent to it in its file
 * written in the same vectored call: they will be evicted or flushed sooner or later, and one call for
 * the run costs the device about what one call for the victim does. The neighbours stay in their frames,
 * now clean (unless a writer touched them meanwhile: {@link FrameTable#unlockFlush}), so their own
 * eviction later writes nothing. Neighbours are only tried ({@link FrameTable#tryFlushLock}), never
 * waited for, so the evictor holds the victim no longer than the write takes.
 *
 * <p>Only for plain file swappers: a tier in front of the file ({@code pagecache.swap=nvm}) decides where
 * an evicted page goes through its own {@code evict}.
 *
 * <p>Every background sweep evicts through it: the background evictor's, and each read-ahead worker's
 * ({@link ReadAheadWorker}). The run and the gathered neighbours are this object's own scratch, so one
 * write-out at a time: {@link #writeOut} is synchronized. Only background threads wait there, and only
 * for another's write (inside, neighbours are only tried, never waited for, so nothing held inside can
 * block on a thread waiting outside).
 */
final class EvictionWriteBehind {
    private final FileMapping file;
    private final FrameTable frames;
    private final TranslationTable table;
    private final EvictionEngine engine;
    /** The victim's neighbours gathered before it, nearest first. */
    private final long[] beforeAddresses = new long[WriteRun.MAX_PAGES];
    private final int[] beforeFrames = new int[WriteRun.MAX_PAGES];
    private final long[] beforeStamps = new long[WriteRun.MAX_PAGES];
    private final WriteRun run = new WriteRun();
    /** The flush stamp of the page {@link #lockIfDirty} locked last. */
    private long lastStamp;

    EvictionWriteBehind(FileMapping file) {
        this.file = file;
        this.engine = file.engine();
        this.frames = engine.frames();
        this.table = file.table();
    }

    /**
     * Writes the victim (page {@code pageId} in {@code frame}, held exclusively and dirty) with whatever
     * dirty neighbours it can lock, in one call. The caller marks the victim clean; the neighbours are
     * released here, marked clean only if the write succeeded.
     */
    synchronized void writeOut(long pageId, int frame) throws IOException {
        int before = 0;
        for (long p = pageId - 1; p >= 0 && before < WriteRun.MAX_PAGES / 2; p--) {
            int neighbour = lockIfDirty(p);
            if (neighbour < 0) {
                break;
            }
            beforeFrames[before] = neighbour;
            beforeStamps[before] = lastStamp;
            beforeAddresses[before] = engine.pageAddress(neighbour);
            before++;
        }
        for (int i = before - 1; i >= 0; i--) {
            run.add(pageId - 1 - i, beforeFrames[i], beforeAddresses[i], beforeStamps[i]);
        }
        run.add(pageId, frame, engine.pageAddress(frame), 0);
        int victimIndex = before;
        for (long p = pageId + 1; !run.isFull(); p++) {
            int neighbour = lockIfDirty(p);
            if (neighbour < 0) {
                break;
            }
            run.add(p, neighbour, engine.pageAddress(neighbour), lastStamp);
        }
        boolean written = false;
        try {
            if (run.size() == 1) {
                file.swapper().write(pageId, run.addresses()[0]);
            } else {
                file.swapper().write(run.start(), run.addresses(), run.size());
            }
            written = true;
            engine.countWriteBehind(run.size() - 1, file.pageSize());
        } finally {
            for (int i = 0; i < run.size(); i++) {
                if (i != victimIndex) {
                    frames.unlockFlush(run.frame(i), run.stamp(i), written);
                }
            }
            run.clear();
        }
    }

    /** Flush locks page {@code pageId} if it is resident, dirty and lockable now; its frame, else -1. */
    private int lockIfDirty(long pageId) {
        if (pageId > file.maxPageId()) {
            return -1;
        }
        int entry = table.get(pageId);
        if (entry <= 0) {
            return -1;
        }
        int frame = entry - 1;
        long key = PageKey.of(file.fileId(), pageId);
        if (frames.binding(frame) != key || !frames.isModified(frame)) {
            return -1;
        }
        long stamp = frames.tryFlushLock(frame);
        if (stamp == FrameTable.FLUSH_LOCK_FAILED) {
            return -1;
        }
        if (frames.binding(frame) != key || !frames.isModified(frame)) {
            frames.unlockFlush(frame, stamp, false);
            return -1;
        }
        lastStamp = stamp;
        return frame;
    }
}
