package io.ratatosk.pagecache;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.DaemonWorker;
import io.ratatosk.pagecache.internal.HostLog;
import io.ratatosk.pagecache.internal.TranslationTable;
import io.ratatosk.pagecache.warmup.ProfileException;
import io.ratatosk.pagecache.warmup.ResidentProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.agrona.collections.LongArrayList;

/**
 * Warm restarts ({@code pagecache.warmup.enabled}): keeps a {@link ResidentProfile} of each mapped file
 * beside it, written every {@code pagecache.warmup.profile_interval} and when the file is unmapped, and
 * after a file is mapped faults the pages of its profile back in, in file order, on this worker's thread.
 * The reheat takes free frames only, and only down to the background evictor's reserve
 * ({@code pagecache.evictor.keep_free}), so it never evicts; it stops when the cache is that full or the
 * file is unmapped, or at the first page past the file's end; a read that fails (an {@code Error} too) ends that
 * file's reheat. A profile that is stale (another page size, another file, a file now shorter than it was on disk
 * when profiled), truncated or corrupt is ignored with one warning; a missing one is the first map of the file and
 * says nothing. While a file is being reheated its profile is not rewritten, so a restart in the middle of a reheat
 * does not replace a full profile with a partial one; where the store truncated the file meanwhile, it is rewritten cut
 * to the file's new length (so that the next map does not find it stale).
 *
 * <p>A {@link DaemonWorker}: stopped by the cache's close, after every file was unmapped (and profiled).
 */
final class CacheWarmer extends DaemonWorker implements MappingListener {
    /** Pages reheated per step, between which the worker checks for shutdown and writes due profiles. */
    private static final int PAGES_PER_STEP = 256;
    /** How long a reheat waits for its file's gate, closed by a truncate or an unmap, before it looks again. */
    private static final long GATE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EvictionEngine engine;
    private final Supplier<Iterable<PagedFile>> mappedFiles;
    private final long intervalNanos;
    /** Free frames the reheat leaves alone: the evictor's reserve. */
    private final int reserve;
    private final Object lock = new Object();
    /** Guarded by lock. */
    private final ArrayDeque<Reheat> reheats = new ArrayDeque<>();
    /** Guarded by lock: the files whose reheat has not finished, whose profile must not be rewritten yet. */
    private final Set<FileMapping> reheating = Collections.newSetFromMap(new WeakHashMap<>());
    /** Guarded by lock: files a profile could not be written for, warned about once. */
    private final Set<FileMapping> writeWarned = Collections.newSetFromMap(new WeakHashMap<>());
    /**
     * Files whose unmap has written their last profile: a periodic write that found one still mapped and wrote after
     * the unmap had dropped its pages replaced that profile with an empty one. A file whose unmap was refused leaves it
     * again ({@link #unmapRefused}): it stays mapped, and kept here its periodic writes stopped until its next unmap, so a
     * restart after a crash reheated the pages resident at the refused unmap.
     */
    private final Set<FileMapping> unmapping = Collections.newSetFromMap(new WeakHashMap<>());
    private volatile Consumer<String> warnings = CacheWarmer::log;
    private long nextProfileNanos;

    CacheWarmer(EvictionEngine engine, Supplier<Iterable<PagedFile>> mappedFiles, long intervalNanos, int reserve) {
        super("ratatosk-warmup");
        this.engine = engine;
        this.mappedFiles = mappedFiles;
        this.intervalNanos = intervalNanos;
        this.reserve = reserve;
        this.nextProfileNanos = System.nanoTime() + intervalNanos;
    }

    /**
     * The warning goes to the host's logging, whose handler may throw: here that failed the map that read a bad profile
     * and the unmap that could not write one (the listener's calls must not throw), for a hint. It goes to standard error
     * then, with the log's failure.
     */
    private static void log(String message) {
        HostLog.warn("io.ratatosk.pagecache.warmup", message);
    }

    /** For tests: where warnings go instead of the system logger. */
    void warnings(Consumer<String> sink) {
        this.warnings = sink;
    }

    // ---- mapping and unmapping ------------------------------------------------------------------

    /** Reads the file's profile now (so a bad one is warned about by the map), and queues its reheat. */
    @Override
    public void mapped(FileMapping mapping) {
        try {
            // No more page ids than frames: the reheat cannot bring in more, and a profile may list millions.
            ResidentProfile profile = ResidentProfile.readFor(mapping.path(), engine.frameCount());
            if (profile == null) {
                return;
            }
            String stale = staleness(profile, mapping);
            if (stale != null) {
                warnings.accept("ignoring the resident-page profile of " + mapping.path() + ": stale, " + stale);
                return;
            }
            if (profile.size() == 0) {
                return;
            }
            synchronized (lock) {
                // A profile of more pages than frames keeps its first ids only: not the whole of it (see Reheat.writeCut).
                reheats.add(new Reheat(mapping, profile.filePages(), profile.pages(),
                    profile.size() < engine.frameCount()));
                reheating.add(mapping);
            }
            wake();
        } catch (ProfileException e) {
            warnings.accept("ignoring the resident-page profile of " + mapping.path() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            warnings.accept("ignoring the resident-page profile of " + mapping.path() + ": " + e);
        } catch (OutOfMemoryError e) {
            // One large allocation, its bytes or its page ids, that the heap could not give: the profile is a hint, and the
            // map it is read at must not fail for it (the file would stay mapped with a reference its caller never got).
            warnings.accept("ignoring the resident-page profile of " + mapping.path() + ": too large to read into the heap ("
                + e + ")");
        }
    }

    private static String staleness(ResidentProfile profile, FileMapping mapping) {
        if (profile.filePageSize() != mapping.pageSize()) {
            return "written for page size " + profile.filePageSize() + ", the file is mapped with " + mapping.pageSize();
        }
        if (!profile.fileKey().equals(String.valueOf(mapping.identity()))) {
            return "written for another file (" + profile.fileKey() + ", this is " + mapping.identity() + ")";
        }
        long pages = mapping.lastPageId() + 1;
        if (pages < profile.filePages()) {
            return "the file has " + pages + " pages, fewer than the " + profile.filePages() + " it had then";
        }
        return null;
    }

    /** Writes the file's profile as it goes, unless its reheat is unfinished. */
    @Override
    public void unmapping(FileMapping mapping) {
        synchronized (lock) {
            writeProfile(mapping);
            unmapping.add(mapping);
        }
    }

    @Override
    public void unmapRefused(FileMapping mapping) {
        synchronized (lock) {
            unmapping.remove(mapping);
        }
    }

    // ---- the worker -------------------------------------------------------------------------------

    @Override
    protected void step() {
        Reheat reheat;
        synchronized (lock) {
            reheat = reheats.peek();
        }
        if (reheat != null) {
            // An Error out of a page's read (a plug-in's, the JVM's) ends the reheat too, and goes on to be reported once:
            // the next step met the same page again, for as long as the file stayed mapped, and the reheats behind it waited.
            boolean done = true;
            try {
                done = reheat.advance();
            } finally {
                if (done) {
                    synchronized (lock) {
                        reheats.poll();
                        reheating.remove(reheat.mapping);
                    }
                }
            }
        }
        long now = System.nanoTime();
        if (now - nextProfileNanos >= 0) {
            writeProfiles();
            nextProfileNanos = System.nanoTime() + intervalNanos;
            now = System.nanoTime();
        }
        if (reheat == null) {
            long sleep = nextProfileNanos - now;
            sleepUnless(() -> { synchronized (lock) { return reheats.isEmpty(); } }, Math.max(sleep, 1));
        }
    }

    /** Writes the profile of every mapped file now (the periodic write; tests call it too). */
    void writeProfiles() {
        for (PagedFile file : mappedFiles.get()) {
            FileMapping mapping = file.mapping();
            synchronized (lock) {
                if (!mapping.isClosed() && !unmapping.contains(mapping)) {
                    writeProfile(mapping);
                }
            }
        }
    }

    /** Whether no reheat is queued or running, for tests. */
    boolean isIdle() {
        synchronized (lock) {
            return reheats.isEmpty();
        }
    }

    private void writeProfile(FileMapping mapping) {
        synchronized (lock) {
            Reheat reheat = reheating.contains(mapping) ? reheatOf(mapping) : null;
            // A file being reheated keeps its profile unless it shrank below the pages that profile counted (Reheat.writeCut)
            long filePagesNow = reheat == null ? 0 : filePages(mapping);
            if (reheat != null && filePagesNow >= reheat.filePages || !stillNamed(mapping)) {
                return;
            }
            try {
                if (reheat != null) {
                    reheat.writeCut(filePagesNow);
                } else {
                    residentProfile(mapping).writeFor(mapping.path());
                }
            } catch (IOException | RuntimeException | OutOfMemoryError e) {
                // an OutOfMemoryError too (the resident page ids of a large cache): a profile is a hint, and the unmap
                // or close this write runs in must not fail for it
                if (writeWarned.add(mapping)) {
                    warnings.accept("cannot write the resident-page profile of " + mapping.path() + " (warm-up after a"
                        + " restart will not reheat it; pagecache.warmup.enabled=false stops trying): " + e);
                }
            }
        }
    }

    /** Under lock: the reheat queued or running for {@code mapping}, null if none. */
    private Reheat reheatOf(FileMapping mapping) {
        for (Reheat reheat : reheats) {
            if (reheat.mapping == mapping) {
                return reheat;
            }
        }
        return null;
    }

    /**
     * Whether the mapped file is still where it was mapped: a store may delete a file it has mapped (scratch space) or
     * rename it (write {@code x.tmp}, then rename it to {@code x.db}). Its profile then goes nowhere: written under the old
     * name it was litter beside no file, or beside another file of that name later, which warned of a stale profile on
     * every map (each cycle of a write-then-rename).
     */
    private static boolean stillNamed(FileMapping mapping) {
        try {
            return FileRegistry.identityOf(mapping.path()).equals(mapping.identity());
        } catch (IOException e) {
            return false; // gone
        }
    }

    /** The pages of {@code mapping} resident now, in file order; racy by design (a hint, not a record). */
    private ResidentProfile residentProfile(FileMapping mapping) {
        FrameTable frames = engine.frames();
        TranslationTable table = mapping.table();
        LongArrayList pages = new LongArrayList();
        for (long pageId = table.nextPresent(0); pageId >= 0; pageId = table.nextPresent(pageId + 1)) {
            int entry = table.get(pageId);
            if (entry > 0 && frames.binding(entry - 1) == PageKey.of(mapping.fileId(), pageId)) {
                pages.addLong(pageId);
            }
        }
        return new ResidentProfile(mapping.pageSize(), filePages(mapping), String.valueOf(mapping.identity()),
            pages.toLongArray());
    }

    /**
     * The pages the file has on disk, which the next map finds after a crash, where fewer than the cache's: the cache's
     * count, with the pages a growing store had not yet written, made the map after a crash take the file for one that
     * shrank and ignore its whole profile. So did the swapper's count under a swap tier, which counts the dirty copies it
     * holds past the file's end, and loses at a crash: the length of the file at the path is taken too. Its pages past
     * that count reheat as far as the file then holds them. A count that cannot be read is left out.
     */
    private static long filePages(FileMapping mapping) {
        long pages = mapping.lastPageId() + 1;
        try {
            pages = Math.min(pages, mapping.swapper().pageCount());
        } catch (IOException | RuntimeException e) {
            // the others
        }
        try {
            long bytes = Files.size(mapping.path());
            int pageSize = mapping.pageSize();
            pages = Math.min(pages, bytes / pageSize + (bytes % pageSize == 0 ? 0 : 1));
        } catch (IOException | RuntimeException e) {
            // the others
        }
        return pages;
    }

    /** One file's reheat, advanced a step at a time by the worker alone. */
    private final class Reheat {
        final FileMapping mapping;
        /** The file's pages its profile counted. */
        final long filePages;
        final long[] pages;
        /** Whether {@link #pages} is the whole profile, not its first ids alone (one per frame: a larger cache's profile). */
        final boolean whole;
        int next;
        /** The last page whose prefetch was refused with the gate open, -1 if none. */
        long refused = -1;

        Reheat(FileMapping mapping, long filePages, long[] pages, boolean whole) {
            this.mapping = mapping;
            this.filePages = filePages;
            this.pages = pages;
            this.whole = whole;
        }

        /**
         * Writes the profile being reheated cut to the file as it is now: the whole profile, not only the ids the reheat
         * keeps. Of a profile of more pages than the cache has frames the reheat keeps the first, one per frame, and the
         * profile once rewritten of those alone lost the pages after them that the file still has, for good. That whole
         * profile is cut as it streams from the profile file beside the file into the new one (read into the heap, it
         * took 16 bytes an id, of a profile a larger cache wrote, under this lock and an unmap's mapping lock); if it
         * cannot be read, or is no longer this file's, the ids kept are cut instead. {@code filePagesNow}: the file's pages
         * now, fewer than the profile counted (the store truncated it): a profile kept while its file is reheated, but of a
         * file that shrank since, was ignored as stale at the next map, with a warning, after a store truncated a file and
         * closed it before its reheat ended.
         */
        void writeCut(long filePagesNow) throws IOException {
            // The ids cut at the cache's count, not at the count recorded: that is the length on disk (for a crash), which
            // at an unmap's write, before its flush, lacks the pages the store wrote again past the cut; cut there, the
            // profile lost them, though the closed file holds them. Past the file's end after a crash, the reheat ends.
            long pagesNow = mapping.lastPageId() + 1;
            if (!whole) {
                try {
                    if (ResidentProfile.cutFor(mapping.path(), mapping.pageSize(), String.valueOf(mapping.identity()),
                            filePagesNow, pagesNow)) {
                        return;
                    }
                } catch (ProfileException e) {
                    // the ids kept: a cut profile of fewer pages is still better than a stale one
                }
            }
            int kept = 0;
            while (kept < pages.length && pages[kept] < pagesNow) {
                kept++;
            }
            new ResidentProfile(mapping.pageSize(), filePagesNow, String.valueOf(mapping.identity()),
                Arrays.copyOf(pages, kept)).writeFor(mapping.path());
        }

        /** Faults the next pages in; true when done (all in, the cache full, the file's end, or the file unmapped). */
        boolean advance() {
            for (int n = 0; n < PAGES_PER_STEP && next < pages.length; n++, next++) {
                if (!isRunning() || mapping.isUnmapped() || engine.freeFrames() <= reserve) {
                    return true;
                }
                if (mapping.isClosed()) {
                    // An unmap under way, which a write cursor or a failed write may refuse: it once ended the reheat, and
                    // a refused close left the file mapped with the rest of its profile never reheated (and the periodic
                    // write then replaced the profile with the pages reheated so far). Its outcome decides.
                    sleepUnless(() -> mapping.isClosed() && !mapping.isUnmapped(), GATE_PAUSE_NANOS);
                    return false;
                }
                long pageId = pages[next];
                try {
                    if (mapping.prefetch(pageId)) {
                        engine.countReheated();
                    } else if (!mapping.isResident(pageId)) {
                        return refused(pageId);
                    }
                } catch (IOException | RuntimeException e) {
                    warnings.accept("stopping the warm-up of " + mapping.path() + " at page " + pageId + ": " + e);
                    return true;
                }
            }
            return next >= pages.length;
        }

        /**
         * Whether the reheat ends at {@code pageId}, whose prefetch was refused and which is not resident: it does past the
         * file's end (so are the pages after it), and where the page is refused twice running with the file's gate open
         * (no free frame). A truncate keeps the gate closed while it runs: its refusal once ended the reheat, and the rest
         * of the profile, still in the file, faulted in on demand. Now the page is tried again once the gate opens, as is
         * a page refused once (a truncate that ended meanwhile, a free frame another thread took). An unmap closes the
         * gate too: the next look at the mapping waits for its outcome.
         */
        private boolean refused(long pageId) {
            if (pageId > mapping.lastPageId()) {
                return true;
            }
            if (mapping.isGateClosed()) {
                sleepUnless(mapping::isGateClosed, GATE_PAUSE_NANOS);
                return false;
            }
            if (refused != pageId) {
                refused = pageId;
                return false;
            }
            return true;
        }
    }
}
