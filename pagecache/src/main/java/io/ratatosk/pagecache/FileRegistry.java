package io.ratatosk.pagecache;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.Failures;
import io.ratatosk.pagecache.internal.SwapperCalls;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The files mapped into one cache: one {@link PagedFile} per file (by identity, see {@link #map}), their
 * file ids, and the mapping lock under which files are mapped and unmapped. Each file it holds is claimed against
 * every other cache of the JVM ({@link JvmFileClaims}) until it leaves. Once {@link #closeAll} succeeded, it maps
 * nothing more.
 */
final class FileRegistry implements MappingOwner {
    private final EvictionEngine engine;
    private final PageSwapperFactory swappers;
    private final Object lock = new Object();
    /** Guarded by lock. */
    private final Map<Object, PagedFile> filesByIdentity = new HashMap<>();
    /** This cache's hold on each registered file against every other cache of the JVM; guarded by lock. */
    private final Map<Object, JvmFileClaims.Claim> claims = new HashMap<>();
    /** Guarded by lock. */
    private final BitSet usedFileIds = new BitSet();
    /** Where the search for a free file id starts: ids go round, so a freed one is reused as late as possible. */
    private int nextFileId;
    /** Guarded by lock. */
    private boolean closed;
    /**
     * The files whose swapper {@link #closeAll} could not close, each with what {@link #releaseClaims} leaves on its
     * claim; made by closeAll, as releaseClaims runs after the swapper factory's close, which may have filled the heap.
     * Guarded by lock.
     */
    private final ArrayList<LeftOpenFile> leftOpenFiles = new ArrayList<>(0); // not the default: see closeAll
    /** Run by {@link #open} as it reads the file's identity again after the open: a test's seam to fail there. */
    static volatile Runnable reidentifying = () -> { };
    /** Run by {@link #open} once the new file is registered: a test's seam to fail there as a full heap would. */
    static volatile Runnable registered = () -> { };
    /** Run by {@link #mappedToFlush} before it takes its list: a test's seam to hold a flushAndForce there. */
    static volatile Runnable listing = () -> { };
    /** Files mapped so far (a new mapping, not a map of a mapped file); written under lock. */
    private volatile long maps;
    /** PagedFile.closes so far that unmapped their file but whose force failed (now or before); written under lock. */
    private volatile long failedForceCloses;
    /**
     * The latest {@link #REMEMBERED_FAILED_CLOSES} of them, close {@code n} at {@code n % REMEMBERED_FAILED_CLOSES}: its
     * file's {@link FileMapping#mapOrdinal}, its file and what its closer was thrown; guarded by lock. Made with the
     * registry: a close that records one may run with the heap full. The map ordinal tells a flushAndForce whether the
     * file was mapped when it began: one mapped after holds nothing the call answers for, and a call that began before
     * a scratch file was mapped, written and closed with a failed force failed over it.
     */
    private final long[] failedCloseMapOrdinals = new long[REMEMBERED_FAILED_CLOSES];
    private final Path[] failedClosePaths = new Path[REMEMBERED_FAILED_CLOSES];
    private final Throwable[] failedCloseFailures = new Throwable[REMEMBERED_FAILED_CLOSES];
    private static final int REMEMBERED_FAILED_CLOSES = 64;
    /**
     * Gives a claim back, for {@link #releaseClaims}: made with the class (the cache's open, the heap free), as a lambda's
     * first run links it, which allocates, and in a JVM's first close with the heap full that OutOfMemoryError came out
     * with every claim kept.
     */
    private static final BiConsumer<Object, JvmFileClaims.Claim> RELEASE = (identity, claim) -> claim.release();
    /** Told of every new mapping and every unmap; set once, before the first map. */
    private volatile MappingListener listener = MappingListener.NONE;

    FileRegistry(EvictionEngine engine, PageSwapperFactory swappers) {
        this.engine = engine;
        this.swappers = swappers;
    }

    /**
     * Maps the file at {@code path} (see {@link PageCache#map(Path, int, boolean)}): the mapping of the
     * same file if there is one, else a new one.
     *
     * @throws IllegalStateException once closed
     */
    PagedFile map(Path path, int filePageSize, boolean create) throws IOException {
        SwapperCalls.refuseInside(engine, "PageCache.map");
        while (true) {
            try {
                return mapUnderLock(path, filePageSize, create);
            } catch (JvmFileClaims.HeldByClosedCache held) {
                // Outside this cache's lock: that close is another cache's swapper's, its storage perhaps slow to take it
                // or no longer answering, and under the lock every map and close of this cache waited for it.
                held.closeAgain();
            }
        }
    }

    private PagedFile mapUnderLock(Path path, int filePageSize, boolean create) throws IOException {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("page cache is closed");
            }
            engine.throwPendingError();
            try (MapTarget target = MapTarget.resolve(path, create)) {
                try {
                    return mapReal(target.real(), filePageSize, create);
                } catch (Throwable t) {
                    target.abandon(t); // a file this map created is not left behind
                    throw t;
                }
            } catch (AccessDeniedException e) {
                throw MapTarget.saysWhy(e);
            }
        }
    }

    /** Under lock: {@link #map(Path, int, boolean)} of the file at its real path {@code real}. */
    private PagedFile mapReal(Path real, int filePageSize, boolean create) throws IOException {
        Object identity = identityOf(real);
        PagedFile existing = filesByIdentity.get(identity);
        if (existing != null && existing.mapping().isClosed()) {
            closeSwapper(existing.mapping()); // its unmap could not close the file: try again before mapping anew
            existing = null;
        }
        if (existing != null) {
            if (existing.pageSize() != filePageSize) {
                throw new IllegalArgumentException(real + " is already mapped with page size " + existing.pageSize()
                    + "; cannot map it again with page size " + filePageSize);
            }
            existing.mapping().retain();
            return existing;
        }
        int fileId = allocateFileId();
        JvmFileClaims.Claim claim = JvmFileClaims.claim(identity, real); // before the open: no other cache opens it meanwhile
        PagedFile file;
        try {
            // Before the open: once the file is registered, only its claim here lets its unmap give the claim back (a put
            // after it that ran out of memory left the file claimed, against every other cache, for good).
            claims.put(identity, claim);
            file = open(real, identity, fileId, filePageSize, create);
        } catch (Throwable t) {
            claims.remove(identity, claim); // a put that failed resizing had inserted it
            claim.release(); // a map that failed half-way must not keep the file from every other cache for good
            throw t;
        }
        try {
            listener.mapped(file.mapping());
        } catch (Throwable t) {
            // The caller never gets this file: left registered, it stayed mapped with a reference nobody held, and the
            // next map's close left it mapped until the cache closed. Unmapped again, unknown to the listener.
            try {
                unmapUnheard(file.mapping());
            } catch (Throwable suppressed) {
                Failures.add(t, suppressed);
            }
            throw t;
        }
        return file;
    }

    /** Under lock: opens the swapper of the file at {@code real} (claimed) and registers its new mapping. */
    private PagedFile open(Path real, Object identity, int fileId, int filePageSize, boolean create) throws IOException {
        PageSwapper swapper;
        // Called under the mapping lock: a create that closed the cache from here unmapped everything and freed the
        // page memory under this map, which then handed out a file of the closed cache.
        SwapperCalls.begin(engine, "the swapper factory's create", real);
        try {
            swapper = swappers.create(real, fileId, filePageSize, create);
        } catch (IllegalArgumentException | IllegalStateException refused) {
            throw refused; // the factory's own refusal (a tier's: closed, a page size it cannot hold), worded for the user
        } catch (RuntimeException e) {
            // A plug-in's bug or an UncheckedIOException: bare, it named neither the file nor the factory
            throw new IOException("cannot map " + real + ": the swapper factory " + swappers + " failed to create its"
                + " swapper: " + e, e);
        } finally {
            SwapperCalls.end();
        }
        if (swapper == null) {
            throw new IllegalStateException("cannot map " + real + ": the swapper factory " + swappers + " returned null");
        }
        FileMapping sharing = mappingWith(swapper);
        if (sharing != null) {
            // Not closed: it is the other file's. Through it this file's pages would go into the other file.
            throw new IllegalStateException("cannot map " + real + ": the swapper factory " + swappers + " returned "
                + swapper + ", the swapper of " + sharing.path() + ", which is mapped; each file needs a swapper of its own");
        }
        PagedFile file = null;
        try {
            // Inside what closes the swapper on any failure: an Error reading the attributes (an OutOfMemoryError) once
            // passed with the swapper left open, a file descriptor for the cache's life.
            if (!identity.equals(identityAfterOpen(real))) {
                // The swapper opened whatever the path named by then, which the registry would have filed under the
                // identity read before: a later map of the path would not have found it, and mapped the file twice.
                throw new IOException("cannot map " + real + ": the file at this path was deleted or replaced (renamed"
                    + " over) while it was being mapped, so which file was opened is unknown; nothing was mapped, map it"
                    + " again");
            }
            FileMapping mapping = new FileMapping(engine, this, fileId, real, identity, filePageSize,
                SwapperCalls.guard(swapper, engine, real));
            file = new PagedFile(mapping);
            mapping.mapOrdinal(maps);
            usedFileIds.set(fileId);
            engine.register(fileId, mapping);
            filesByIdentity.put(identity, file);
            registered.run();
            maps++; // the file is registered: a flushAndForce reading this from now on began with it mapped
        } catch (Throwable t) {
            // Whatever failed (the file replaced, its identity unreadable, an OutOfMemoryError making the file's
            // objects, growing the ids or resizing the map after it inserted the file): nothing of the file stays
            // registered, and its swapper is closed. It once stayed open, its id taken, and the file registered under a
            // reference no caller held.
            unregister(fileId, identity, file);
            closeAfterFailedMap(swapper, t);
            throw t;
        }
        return file;
    }

    /** Under lock: forgets what a map that failed half-way registered of {@code file} (null if it was not made). */
    private void unregister(int fileId, Object identity, PagedFile file) {
        if (file != null) {
            filesByIdentity.remove(identity, file);
            if (engine.owner(fileId) == file.mapping()) {
                engine.forget(fileId);
            }
        }
        usedFileIds.clear(fileId); // free when the map took it
    }

    /** Under lock: unmaps and closes a file whose map failed at its listener, which is not told of it. */
    private void unmapUnheard(FileMapping mapping) throws IOException {
        try {
            mapping.unmap();
        } catch (Throwable t) {
            if (mapping.isUnmapped()) {
                closeAfterFailedUnmap(mapping, t); // a failed force after every page was dropped: closed all the same
            }
            throw t;
        }
        closeSwapper(mapping);
    }

    /** The identity of the file at {@code real} once its swapper opened it, null if there is none any more. */
    private static Object identityAfterOpen(Path real) throws IOException {
        try {
            reidentifying.run();
            return identityOf(real);
        } catch (NoSuchFileException deleted) {
            return null;
        }
    }

    /** Closes the swapper of a map that failed with {@code failure}, the close's own failure suppressed in it. */
    private static void closeAfterFailedMap(PageSwapper swapper, Throwable failure) {
        try {
            swapper.close();
        } catch (Throwable suppressed) {
            Failures.add(failure, suppressed);
        }
    }

    /** Under lock: the registered mapping (live, or dead with its close to retry) whose swapper is {@code swapper}, else null. */
    private FileMapping mappingWith(PageSwapper swapper) {
        for (PagedFile file : filesByIdentity.values()) {
            if (SwapperCalls.unguarded(file.mapping().swapper()) == swapper) {
                return file.mapping();
            }
        }
        return null;
    }

    /** What makes two paths the same file: its file key (device and inode on Unix), else its real path. */
    static Object identityOf(Path real) throws IOException {
        Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
        return key != null ? key : real;
    }

    private int allocateFileId() {
        int id = usedFileIds.nextClearBit(nextFileId);
        if (id > PageKey.MAX_FILE_ID) {
            id = usedFileIds.nextClearBit(0);
        }
        if (id > PageKey.MAX_FILE_ID) {
            throw new IllegalStateException("too many mapped files: at most " + (PageKey.MAX_FILE_ID + 1));
        }
        nextFileId = id + 1;
        return id;
    }

    /** One mapping of {@code mapping} was closed; the last one flushes it, drops its pages and closes it. */
    @Override
    public void release(FileMapping mapping) throws IOException {
        SwapperCalls.refuseInside(engine, "PagedFile.close");
        synchronized (lock) {
            if (engine.owner(mapping.fileId()) != mapping) {
                return; // already unmapped
            }
            if (mapping.isClosed()) {
                closeSwapper(mapping); // an earlier unmap could not close the file: try again
                return;
            }
            if (mapping.releaseReference()) {
                unmap(mapping, 1);
            }
        }
    }

    /**
     * Under lock, for a file whose last reference went: unmaps it, then closes its swapper. If the unmap
     * is refused, the file stays mapped with {@code references} mappings, dirty pages kept: the caller
     * may retry.
     */
    private void unmap(FileMapping mapping, long references) throws IOException {
        try {
            unmapPages(mapping, references);
        } catch (Throwable t) {
            if (mapping.isUnmapped()) {
                // A failed force (now or before: it sticks) after every page was written and dropped: the file is unmapped,
                // as the failure says, so it is closed too (as closeAll does), not left open until a second close.
                closeAfterFailedUnmap(mapping, t);
                // For a flushAndForce that began before this close and takes its list after it (mappedToFlush).
                int slot = (int) (failedForceCloses % REMEMBERED_FAILED_CLOSES);
                failedCloseMapOrdinals[slot] = mapping.mapOrdinal();
                failedClosePaths[slot] = mapping.path();
                failedCloseFailures[slot] = t;
                failedForceCloses++;
            }
            throw t;
        }
        closeSwapper(mapping);
    }

    /** Closes the swapper of a file unmapped by an unmap that threw {@code failure}, the close's failure suppressed in it. */
    private void closeAfterFailedUnmap(FileMapping mapping, Throwable failure) {
        try {
            closeSwapper(mapping); // if it fails, the file stays registered and its close is tried again, as ever
        } catch (Throwable suppressed) {
            Failures.add(failure, suppressed);
        }
    }

    /** {@link #unmap} but for closing the swapper. */
    private void unmapPages(FileMapping mapping, long references) throws IOException {
        try {
            // inside: whatever the listener throws (an OutOfMemoryError building a large cache's profile) must give the
            // references back, or a retried PagedFile.close found none to release and did nothing, silently
            listener.unmapping(mapping);
            mapping.unmap();
        } catch (Throwable t) {
            mapping.restoreReferences(references);
            if (!mapping.isUnmapped()) {
                try {
                    listener.unmapRefused(mapping);
                } catch (Throwable suppressed) {
                    Failures.addOrLeaveOut(t, suppressed);
                }
            }
            throw t;
        }
    }

    /**
     * Under lock, for an unmapped file (no frame holds its pages): closes its swapper and forgets it,
     * freeing its file id. If closing fails the file stays registered (and its id reserved, since the tier
     * behind it may still hold its pages) as a closed mapping, which the next {@code map} of the file,
     * {@code close} of its PagedFile or cache close tries to close again.
     */
    private void closeSwapper(FileMapping mapping) throws IOException {
        try {
            mapping.swapper().close();
        } catch (IOException | RuntimeException e) {
            IOException named;
            try {
                named = new IOException(mapping.path() + " was flushed and unmapped, but closing it failed; it is closed"
                    + " again on its next map, or when the page cache closes: " + e.getMessage(), e);
            } catch (OutOfMemoryError full) {
                throw e; // the heap full (the close may have filled it): its own failure, not the naming's
            }
            throw named;
        }
        engine.forget(mapping.fileId());
        filesByIdentity.remove(mapping.identity());
        usedFileIds.clear(mapping.fileId());
        releaseClaim(mapping.identity());
    }

    /**
     * Whether the swapper of {@code mapping}, whose close failed with {@code failure}, holds pages its file lacks; a
     * plug-in's answer that throws counts as none (and goes into {@code failure}): it cannot keep a cache open for good.
     */
    private static boolean holdsUnwrittenPages(FileMapping mapping, Throwable failure) {
        try {
            return mapping.swapper().holdsUnwrittenPages();
        } catch (Throwable t) {
            Failures.addOrLeaveOut(failure, t);
            return false;
        }
    }

    /** Under lock: another cache may map the file of {@code identity} from now on. */
    private void releaseClaim(Object identity) {
        JvmFileClaims.Claim claim = claims.remove(identity);
        if (claim != null) {
            claim.release();
        }
    }

    /**
     * For another cache's map of a file this closed registry still claims: closes the file's swapper ({@code swapper},
     * unguarded) again, giving the claim back if that succeeds; returns the failure, or null once nothing of the file is
     * left open.
     */
    private Throwable closeAgain(Object identity, PageSwapper swapper) {
        synchronized (lock) {
            PagedFile registered = filesByIdentity.get(identity);
            if (registered == null || SwapperCalls.unguarded(registered.mapping().swapper()) != swapper) {
                return null; // closed meanwhile, by a retried PagedFile.close
            }
            try {
                closeSwapper(registered.mapping());
                return null;
            } catch (Throwable stillOpen) {
                return stillOpen;
            }
        }
    }

    /**
     * A file a closed registry could not close, as its claim holds it until the file closes (a static map, perhaps for the
     * JVM's life): the file's swapper, and the registry only weakly. Holding the registry (a lambda once did), the claim
     * kept the closed cache's engine reachable after the host had dropped the cache: the policy's and the free list's
     * arrays, sized by the frames, and every file's translation table. While the registry lives, its lock orders this
     * close with a retried {@code PagedFile.close} of the file; once it is gone, no one else can close the swapper.
     */
    private static final class LeftOpenFile implements JvmFileClaims.LeftOpen {
        private final WeakReference<FileRegistry> registry;
        private final Object identity;
        /** Unguarded: the guard holds the cache's engine. */
        private final PageSwapper swapper;
        /** Guarded by this: the swapper closed, by this or by the registry. */
        private boolean closed;

        LeftOpenFile(FileRegistry registry, FileMapping mapping) {
            this.registry = new WeakReference<>(registry);
            this.identity = mapping.identity();
            this.swapper = SwapperCalls.unguarded(mapping.swapper());
        }

        @Override
        public synchronized Throwable closeAgain() {
            if (closed) {
                return null;
            }
            FileRegistry owner = registry.get();
            Throwable stillOpen;
            if (owner != null) {
                stillOpen = owner.closeAgain(identity, swapper);
            } else {
                try {
                    swapper.close();
                    stillOpen = null;
                } catch (Throwable t) {
                    stillOpen = t;
                }
            }
            closed = stillOpen == null;
            return stillOpen;
        }
    }

    /** Sets who is told of maps and unmaps ({@link MappingListener}); before the first map. */
    void listener(MappingListener listener) {
        this.listener = listener;
    }

    /** The files mapped now, not being unmapped. */
    List<PagedFile> mapped() {
        synchronized (lock) {
            List<PagedFile> files = new ArrayList<>(filesByIdentity.size());
            for (PagedFile file : filesByIdentity.values()) {
                if (!file.mapping().isClosed()) {
                    files.add(file);
                }
            }
            return files;
        }
    }

    /** How many PagedFile.closes so far unmapped their file with a failed force: where a flushAndForce begins. */
    long failedForceCloses() {
        return failedForceCloses; // not under the lock, which a cache's close holds while it unmaps every file
    }

    /** How many files were mapped so far: where a flushAndForce begins (read before {@link #failedForceCloses}). */
    long maps() {
        return maps; // not under the lock, as failedForceCloses
    }

    /** The mapped files a flushAndForce is to flush, and the failed forces of closes since it began, if any. */
    record ToFlush(List<PagedFile> files, IOException closedMeanwhile) {
    }

    /**
     * {@link #mapped}, for {@link PageCache#flushAndForce}: refused once {@link #closeAll} closed the registry. A flush of
     * every file that waited here for the cache's close found none left and returned normally, also where the close's
     * force of a file modified before the flush began had failed. A file a PagedFile.close unmapped after the call began
     * ({@code failedForceClosesBefore}, as {@link #failedForceCloses} said then) and before this list, whose force
     * failed, is reported as one closed after it: it is in neither, and the call returned normally over pages modified
     * before it began that the close could not make durable. Only a file mapped when the call began ({@code mapsBefore},
     * as {@link #maps} said then): one mapped after it holds no page modified before it.
     */
    ToFlush mappedToFlush(long mapsBefore, long failedForceClosesBefore) {
        listing.run();
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("page cache was closed while flushAndForce began: its close flushed and"
                    + " forced every file, and reported to its own caller what failed");
            }
            long window = failedForceCloses - failedForceClosesBefore;
            long meanwhile = 0;
            int latest = -1;
            for (long close = failedForceCloses - 1; close >= failedForceCloses - Math.min(window,
                    REMEMBERED_FAILED_CLOSES); close--) {
                int slot = (int) (close % REMEMBERED_FAILED_CLOSES);
                if (failedCloseMapOrdinals[slot] < mapsBefore) {
                    meanwhile++;
                    latest = latest < 0 ? slot : latest;
                }
            }
            if (window > REMEMBERED_FAILED_CLOSES) {
                // more than it remembers: the forgotten ones may be of files mapped before the call, so they count
                meanwhile += window - REMEMBERED_FAILED_CLOSES;
                latest = latest < 0 ? (int) ((failedForceCloses - 1) % REMEMBERED_FAILED_CLOSES) : latest;
            }
            IOException closedMeanwhile = meanwhile == 0 ? null : closedMeanwhile(meanwhile, failedClosePaths[latest],
                failedCloseFailures[latest]);
            return new ToFlush(mapped(), closedMeanwhile);
        }
    }

    private static IOException closedMeanwhile(long closes, Path last, Throwable lastFailure) {
        return new IOException((closes == 1 ? last + " was" : closes + " files (the last " + last + ") were")
            + " closed while flushAndForce began, and the close's force failed (" + lastFailure + "), so what was written"
            + " to " + (closes == 1 ? "it" : "them") + " may not be on storage", lastFailure);
    }

    /**
     * Unmaps every file, whatever its number of mappings, and from then on maps nothing. If a file cannot
     * be unmapped, the others still are, and the first failure is thrown (the rest suppressed) with the
     * registry still open. Once every file is unmapped (flushed, its pages dropped), a failed force of it (now or
     * before) and a swapper whose close fails do not keep the registry open: nothing of its file is left to lose, a
     * retried force would prove nothing, and a swapper that never closes would keep the cache, its threads and its
     * memory forever. Those failures are returned (the first, the rest suppressed), null when there were none. Except
     * where the swapper whose close failed still holds pages its file lacks (a tier's dirty copies it could not write
     * back, {@link io.ratatosk.core.PageSwapper#holdsUnwrittenPages}): that failure is thrown with the registry open, as
     * for a dirty page that cannot be written out of a frame, and a retried close tries the swapper's close again.
     */
    Throwable closeAll() throws IOException {
        SwapperCalls.refuseInside(engine, "PageCache.close");
        synchronized (lock) {
            if (closed) {
                return null;
            }
            Throwable unmapFailure = null;
            Throwable closeFailure = null;
            leftOpenFiles.clear(); // a retried close tries every one again
            leftOpenFiles.ensureCapacity(filesByIdentity.size()); // made now (exactly, from 0): a swapper's close may fill the heap
            // Every file is unmapped, and its record in case its swapper would not close made, before the first swapper
            // close, which may fill the heap (as its failure may be that). One file after the other, the next file's
            // unmap and record came after the last one's swapper close, and with the heap full their OutOfMemoryError came
            // out of the close with the cache left open, its threads running and its memory kept.
            List<PagedFile> files = new ArrayList<>(filesByIdentity.values());
            LeftOpenFile[] records = new LeftOpenFile[files.size()];
            // Every record before the first unmap: an unmap may fill the heap (a swapper's force), and a record made
            // after it threw an OutOfMemoryError out of the close with the files unmapped so far left with their swapper
            // (a file handle) open, for the JVM's life unless the close was retried.
            for (int i = 0; i < files.size(); i++) {
                records[i] = new LeftOpenFile(this, files.get(i).mapping());
            }
            LeftOpenFile[] ifLeftOpen = new LeftOpenFile[files.size()]; // null: the file stays mapped
            Throwable[] unmapped = new Throwable[files.size()]; // the failure of an unmap that unmapped the file
            for (int i = 0; i < files.size(); i++) {
                FileMapping mapping = files.get(i).mapping();
                if (!mapping.isClosed()) {
                    try {
                        unmapPages(mapping, mapping.releaseAllReferences());
                    } catch (Throwable t) {
                        if (!mapping.isUnmapped()) {
                            // addOrLeaveOut: nothing that may allocate can end the close before the swappers of the files
                            // unmapped so far are closed
                            unmapFailure = Failures.addOrLeaveOut(unmapFailure, t);
                            continue;
                        }
                        // A failed force (now or before: it sticks) after every page was written and dropped: a
                        // retried close could only force again, whose success says nothing, so the cache closes and
                        // reports it, as for a swapper whose close fails.
                        unmapped[i] = t;
                    }
                }
                ifLeftOpen[i] = records[i];
            }
            for (int i = 0; i < files.size(); i++) {
                if (ifLeftOpen[i] == null) {
                    continue;
                }
                FileMapping mapping = files.get(i).mapping();
                Throwable fileFailure = unmapped[i];
                try {
                    closeSwapper(mapping);
                } catch (Throwable t) {
                    // From here nothing that may allocate can end the close (addOrLeaveOut): see ifLeftOpen
                    fileFailure = Failures.addOrLeaveOut(fileFailure, t);
                    if (holdsUnwrittenPages(mapping, fileFailure)) {
                        // A tier's dirty copies its close could not write back: newer than the file, and in no frame.
                        // Closed, the cache would lose them (the tier's close fails on them as well, and a second close
                        // of the cache does nothing). Kept open, as for a dirty frame that cannot be written: the close
                        // can be retried once the file takes writes again.
                        unmapFailure = Failures.add(unmapFailure, fileFailure);
                        continue;
                    }
                    leftOpenFiles.add(ifLeftOpen[i]);
                }
                if (fileFailure != null) {
                    closeFailure = Failures.addOrLeaveOut(closeFailure, fileFailure);
                }
            }
            if (unmapFailure != null) {
                if (closeFailure != null) {
                    // not itself: one Error instance (the JVM's preallocated OutOfMemoryError) failing both made
                    // addSuppressed throw IllegalArgumentException, which the close reported in the Error's place
                    Failures.add(unmapFailure, closeFailure);
                }
                Failures.rethrow(unmapFailure);
            }
            closed = true;
            return closeFailure; // the claims of files whose swapper would not close wait for releaseClaims
        }
    }

    /**
     * Once {@link #closeAll} succeeded: gives back the claims of the files whose swapper would not close (they stay
     * registered, but this cache maps nothing more). Called after the swapper factory's close: a tier writes back at its
     * close what such a file's own close could not, and another cache that mapped the file before that read pages the
     * tier then wrote over. Where that close failed ({@code factoryClosed} false), the tier may still hold a file's dirty
     * copies for a retry to write: only the files whose swapper now closes are given back, the others once a retried
     * {@code PagedFile.close} closes it (given back all the same, another cache mapped such a file, and the retry wrote
     * the tier's older copies over that cache's pages).
     */
    void releaseClaims(boolean factoryClosed) {
        synchronized (lock) {
            if (!closed) {
                return;
            }
            if (!factoryClosed) {
                // Nothing allocated here (no copy of the files, no iterator, no LeftOpenFile): with the heap full the
                // copy failed, no claim was marked left open, and another cache's map of such a file, which would have
                // closed it again, was refused as if this open cache had it, for the JVM's life.
                for (int i = 0; i < leftOpenFiles.size(); i++) {
                    LeftOpenFile file = leftOpenFiles.get(i);
                    PagedFile registered = filesByIdentity.get(file.identity);
                    if (registered == null) {
                        continue; // closed meanwhile, by a retried PagedFile.close
                    }
                    try {
                        closeSwapper(registered.mapping()); // gives its claim back once it closes (a tier's abandoned file does)
                    } catch (Throwable stillOpen) {
                        // reported by closeAll already; the file stays claimed until its close is retried, by a
                        // PagedFile.close here or by another cache's map of it
                        JvmFileClaims.Claim claim = claims.get(file.identity);
                        if (claim != null) {
                            claim.leftOpen(file);
                        }
                    }
                }
                leftOpenFiles.clear(); // the claims hold those still open: a closed file's swapper is not kept here
                return;
            }
            leftOpenFiles.clear();
            // forEach, not an iterator: nothing allocated, as the cache's close may run with the heap full (a tier's
            // close filling it), and a claim left here kept the file from every other cache for the JVM's life
            claims.forEach(RELEASE);
            claims.clear();
        }
    }
}
