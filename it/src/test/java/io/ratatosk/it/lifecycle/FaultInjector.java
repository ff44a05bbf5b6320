package io.ratatosk.it.lifecycle;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.nvm.NvmDevice;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A disk that fails now and then while {@link #enable switched on}: the cache's own file swappers, with
 * an {@link InjectedIOException} thrown from reads, writes, forces, truncates, page counts and closes at random,
 * and an {@link InjectedError} from all of them but closes. A failing close still closes the file (as close(2) does),
 * then reports; a failing truncate cuts nothing. Behind the
 * NVM tier (which wraps these swappers) it also fails the tier's device: one failure in four is
 * turned into a failed write of the emulated NVM, the next page the tier writes there. It can
 * also be slow ({@link #slowReads}): each read returns a while after it completed, so that faults are
 * in flight when an unmap or a close runs. Decisions come from one seeded stream, so a
 * single-threaded run without the evictor replays them.
 */
final class FaultInjector {
    private final SplittableRandom random;
    private volatile boolean enabled;
    /** Chance, in 1/10000, that an eligible call fails. */
    private volatile int perTenThousand;
    private final AtomicLong injected = new AtomicLong();
    /** Runs of several pages written by the cache's background threads: the evictor's and read-ahead's write-behind. */
    private final AtomicLong writeBehindRuns = new AtomicLong();
    private volatile long readDelayNanos;
    private volatile boolean errors = true;
    /** The NVM device of the current cache, when it has the tier; else null. */
    private volatile NvmDevice nvm;
    /** Each file's latest swapper, by file name: what {@link #forcesOf} answers. */
    private final Map<String, FaultySwapper> swappers = new ConcurrentHashMap<>();

    FaultInjector(long seed) {
        this.random = new SplittableRandom(seed);
    }

    void enable(int perTenThousand) {
        this.perTenThousand = perTenThousand;
        this.enabled = true;
    }

    /** Whether failures may be Errors as well as IOExceptions (by default they may). */
    void errors(boolean on) {
        this.errors = on;
    }

    /** Every read returns {@code nanos} after it completed. */
    void slowReads(long nanos) {
        this.readDelayNanos = nanos;
    }

    void disable() {
        enabled = false;
        NvmDevice device = nvm;
        if (device != null) {
            device.failNextWrites(0);
        }
    }

    /** The NVM device of the cache opened now, or null when it has no tier. */
    void nvm(NvmDevice device) {
        this.nvm = device;
    }

    long writeBehindRuns() {
        return writeBehindRuns.get();
    }

    long injected() {
        return injected.get();
    }

    /** The swapper the latest map of the file named {@code name} opened through this injector, or null. */
    Forces forcesOf(String name) {
        return swappers.get(name);
    }

    /** What the model knows of the forces of one mapping (one swapper: a new map opens a new one). */
    interface Forces {
        /**
         * Whether a force of this mapping failed and the cache has that failure: the operation of the worker whose force
         * failed has returned ({@link FaultInjector#settle}). It then sticks until the file is unmapped.
         */
        boolean forceFailed();

        /** Whether a force of this mapping failed, the failure in the cache or still on its way up to it. */
        boolean anyForceFailed();

        /**
         * The thread whose unmap of this mapping got past its point of no return (its force after the drop: the file is
         * unmapped whatever that force does), or that closed this swapper; null while the file is mapped.
         */
        Thread closedBy();
    }

    /**
     * Called by a worker as each of its operations returns: the forces of that operation that failed are in the cache now
     * (its FileMapping keeps the failure as the exception passes it on its way up), so they count from here on.
     */
    void settle() {
        Thread me = Thread.currentThread();
        for (FaultySwapper swapper : swappers.values()) {
            swapper.settle(me);
        }
    }

    /** A swapper factory over the cache's own file swappers, failing through this injector. A new one per cache. */
    Factory factory() {
        return new Factory();
    }

    /**
     * The swapper factory of one cache: it also counts the write calls its swappers got and the pages they carried, those
     * that returned normally and all of them, to judge the cache's own count of its writes by ({@code PageCacheStats.io}).
     */
    final class Factory implements PageSwapperFactory {
        private final FileSwapperFactory files = new FileSwapperFactory();
        final AtomicLong writeCalls = new AtomicLong();
        final AtomicLong pagesWritten = new AtomicLong();
        final AtomicLong writeCallsTried = new AtomicLong();
        final AtomicLong pagesTried = new AtomicLong();
        /** Of those pages, the ones a flush or close wrote ({@link #insideFlush}): what flushedPages counts. */
        final AtomicLong flushPagesWritten = new AtomicLong();
        final AtomicLong flushPagesTried = new AtomicLong();
        /** Of those calls, an eviction's ({@link #insideEviction}): one each, its victim and any neighbours written behind. */
        final AtomicLong evictionCallsWritten = new AtomicLong();
        final AtomicLong evictionCallsTried = new AtomicLong();
        /** The file page sizes of the read calls that returned normally: at most what bytesRead counts (one per fill). */
        final AtomicLong bytesReadCalls = new AtomicLong();

        /** Counts a write call of {@code pages} pages, {@code written} or not. */
        void wrote(int pages, boolean written) {
            boolean flush = insideFlush();
            boolean eviction = !flush && insideEviction();
            if (flush) {
                flushPagesTried.addAndGet(pages);
            } else if (eviction) {
                evictionCallsTried.incrementAndGet();
            }
            writeCallsTried.incrementAndGet();
            pagesTried.addAndGet(pages);
            if (written) {
                if (flush) {
                    flushPagesWritten.addAndGet(pages);
                } else if (eviction) {
                    evictionCallsWritten.incrementAndGet();
                }
                writeCalls.incrementAndGet();
                pagesWritten.addAndGet(pages);
            }
        }

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            maybeFail("create", file, -1, false);
            FaultySwapper swapper = new FaultySwapper(files.create(file, fileId, filePageSize, create), file, this);
            swappers.put(file.getFileName().toString(), swapper);
            return swapper;
        }

        @Override
        public void close() throws IOException {
            files.close();
        }
    }

    /** Throws, at random while enabled; an Error only where {@code errorsToo}. */
    private void maybeFail(String call, Path file, long pageId, boolean errorsToo) throws IOException {
        if (!enabled) {
            return;
        }
        int roll;
        synchronized (random) {
            roll = random.nextInt(10_000);
        }
        // A force is a rare call: failed four times as often, so that a mapping whose force failed (which sticks) is
        // met by later flushes and closes in most faulty scenarios. A truncate is rarer still (a thread's own file is
        // cut a few dozen times a scenario, half of them while the disk fails): 25 times as often, so that a failed cut is
        // met in most faulty scenarios (at ten times, in fewer than half of them).
        int chance = Math.min(10_000, call.equals("force") ? 4 * perTenThousand
            : call.equals(TRUNCATE) ? 25 * perTenThousand : perTenThousand);
        if (roll >= chance) {
            return;
        }
        injected.incrementAndGet();
        NvmDevice device = nvm;
        if (device != null && roll % 4 == 0) {
            device.failNextWrites(1);
            return;
        }
        String what = "injected " + call + " failure: " + file.getFileName() + (pageId >= 0 ? " page " + pageId : "");
        // One failure in five, of every call that may throw one (of a force too, though failed more often)
        if (errorsToo && errors && roll < chance / 5) {
            throw new InjectedError(what);
        }
        throw new InjectedIOException(what);
    }

    private final class FaultySwapper extends ForwardingPageSwapper implements Forces {
        private final Path file;
        private volatile boolean forceFailed;
        /**
         * The worker whose force failed first, until its operation returns. The injector hears of a failure before the
         * cache does: the mapping keeps it only once the exception has come back up to it. Counted at once, a flush by
         * another thread that began meanwhile and forced before the mapping kept the failure returned normally, and was
         * judged wrong for it.
         */
        private final AtomicReference<Thread> unsettledBy = new AtomicReference<>();
        private volatile Thread closedBy;
        private final Factory counts;

        FaultySwapper(PageSwapper real, Path file, Factory counts) {
            super(real);
            this.file = file;
            this.counts = counts;
        }

        @Override
        public int read(long pageId, long address) throws IOException {
            maybeFail("read", file, pageId, true);
            int read = super.read(pageId, address);
            counts.bytesReadCalls.addAndGet(filePageSize());
            long delay = readDelayNanos;
            if (delay > 0) {
                LockSupport.parkNanos(delay);
            }
            return read;
        }

        @Override
        public void write(long pageId, long address) throws IOException {
            boolean written = false;
            try {
                try {
                    maybeFail("write", file, pageId, true);
                } catch (IOException | Error e) {
                    noteTierFailure();
                    throw e;
                }
                super.write(pageId, address);
                written = true;
            } finally {
                counts.wrote(1, written);
            }
        }

        /**
         * With the NVM tier in front, the mapping's force writes the tier's dirty copies into the file before it forces
         * the file: a write failing there fails the mapping's force, which sticks as any failed force does. The tier's
         * forget (the first step of its close of the file) writes them too: a write failing there fails that close, which
         * unmapped the file all the same and reported the failure, so the swapper counts as closed from it on, as where
         * the forget reached its force ({@link #force}). A retried close that then succeeds owes nothing more: left
         * open, this record took that retry for the close of a mapping whose failed force had never been reported.
         * And where an NVM write tore a dirty copy, the tier writes the frame's version to the file at once
         * ({@code NvmSwapStore.overwrite}): a failure there (an IOException, and since fb66a11 an Error too) leaves the
         * page in neither, which the tier keeps for the mapping's next force to throw, and that failure sticks as any
         * failed force does.
         */
        private void noteTierFailure() {
            StackWalker.getInstance().walk(frames -> {
                frames.filter(f -> f.getClassName().equals(NVM_STORE)).forEach(f -> {
                    if (f.getMethodName().equals(TIER_FORCE)) {
                        failedForce(false);
                    } else if (f.getMethodName().equals(TIER_OVERWRITE)) {
                        failedForce(true); // the tier keeps the lost copy in the same call, for the next force
                    } else if (f.getMethodName().equals(TIER_FORGET) && closedBy == null) {
                        closedBy = Thread.currentThread();
                    }
                });
                return null;
            });
            if (closedBy == null && insideUnmapsForce()) {
                closedBy = Thread.currentThread(); // the tier's write-back inside the unmap's force: see force()
            }
        }

        /**
         * A run of pages in one call (a flush's, a write-behind's): it fails as a whole, before any page is
         * written or, as a device may, after the first pages of the run reached the file.
         */
        @Override
        public void write(long startPageId, long[] addresses, int count) throws IOException {
            if (count > 1 && Thread.currentThread().getName().startsWith("ratatosk-")) {
                writeBehindRuns.incrementAndGet();
            }
            boolean written = false;
            try {
                try {
                    maybeFail("vectored write", file, startPageId, true);
                } catch (IOException | Error e) {
                    noteTierFailure();
                    int half = count > 1 && (startPageId & 1) == 0 ? count / 2 : 0;
                    if (half > 0) {
                        super.write(startPageId, addresses, half);
                    }
                    throw e;
                }
                super.write(startPageId, addresses, count);
                written = true;
            } finally {
                counts.wrote(count, written);
            }
        }

        /**
         * Fails before the file is cut: the cache then promises that nothing changed (PagedFile.truncate: its end, its pages
         * past the cut, dirty ones still to be written), which the model holds it to ({@link #failedAt}).
         */
        @Override
        public void truncate(long pageCount) throws IOException {
            maybeFail(TRUNCATE, file, -1, true);
            super.truncate(pageCount);
        }

        /** Read at map (which then fails), and by a truncate or flush that must see the file reach its new last page. */
        @Override
        public long pageCount() throws IOException {
            maybeFail("pageCount", file, -1, true);
            return super.pageCount();
        }

        /** A file swapper's eviction is its write: injected the same way. */
        @Override
        public void evict(long pageId, long address, boolean dirty) throws IOException {
            if (dirty) {
                write(pageId, address);
            }
        }

        /** As the file swapper's: the evictor's write-behind then runs through this disk's failures too. */
        @Override
        public boolean evictionIsPlainWrite() {
            return true;
        }

        @Override
        public void force() throws IOException {
            // The NVM tier forces a file as it forgets it, the first step of its close: the mapping is being unmapped
            // (gone from the cache even where this force or the close after it fails), and a failure here is the
            // close's, which the file's next map starts afresh from, not this mapping's failed force.
            boolean tierClosing = insideTier(TIER_FORGET);
            // The unmap's own force, after its drop, is its point of no return: the file is unmapped once it ends, whatever
            // it throws, and a flushAndForce waiting on the unmap skips the file from then on. Marked only at the
            // swapper's close (after the unmap, the tier's forget writing back its copies first), the record still said
            // 'mapped' meanwhile, and a flushAndForce that rightly skipped the stuck file was judged wrong.
            if ((tierClosing || insideUnmapsForce()) && closedBy == null) {
                closedBy = Thread.currentThread();
            }
            try {
                // An Error too (the heap full as the swapper builds its report, a plug-in's bug): it passes as it is, and
                // since whether the file was forced is unknown, it sticks as an IOException does (docs/architecture.md)
                maybeFail("force", file, -1, true);
            } catch (IOException | Error e) {
                if (!tierClosing) {
                    failedForce(false);
                }
                throw e;
            }
            super.force();
        }

        /** A force of this mapping failed here; {@code inTheCache}: the cache has the failure by the time this call returns. */
        private void failedForce(boolean inTheCache) {
            if (!forceFailed && !inTheCache) {
                unsettledBy.set(Thread.currentThread());
            }
            forceFailed = true;
        }

        void settle(Thread worker) {
            unsettledBy.compareAndSet(worker, null);
        }

        @Override
        public boolean forceFailed() {
            return forceFailed && unsettledBy.get() == null;
        }

        @Override
        public boolean anyForceFailed() {
            return forceFailed;
        }

        @Override
        public Thread closedBy() {
            return closedBy;
        }

        @Override
        public void close() throws IOException {
            if (closedBy == null) {
                closedBy = Thread.currentThread();
            }
            super.close();
            maybeFail("close", file, -1, false);
        }
    }

    /**
     * Whether this thread writes for a flush or a close (the file's coalescing flush, or the drop of a dirty page as the
     * file is unmapped), not for an eviction, a truncate's new last page or a far fault's zero page.
     */
    private static boolean insideFlush() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().equals(COALESCING_FLUSH)
            || f.getClassName().equals(EVICTION_ENGINE) && f.getMethodName().equals(ENGINE_DROP)));
    }

    /** Whether this thread writes a page out to evict it (EvictionEngine's write-out, with its write-behind run if any). */
    private static boolean insideEviction() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(
            f -> f.getClassName().equals(EVICTION_ENGINE) && f.getMethodName().equals(ENGINE_WRITE_OUT)));
    }

    /** Whether this thread is inside the NVM tier's {@code method} (of {@code NvmSwapStore}); asked only when a fault is injected. */
    private static boolean insideTier(String method) {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(
            f -> f.getClassName().equals(NVM_STORE) && f.getMethodName().equals(method)));
    }

    /**
     * Whether this thread is in the force an unmap makes once every page is written and dropped ({@code FileMapping.force}
     * called by {@code FileMapping.unmap}, not by its {@code forceAfter} for a failed write, which keeps the file mapped).
     */
    private static boolean insideUnmapsForce() {
        return StackWalker.getInstance().walk(frames -> frames.filter(f -> f.getClassName().equals(FILE_MAPPING)).limit(2)
            .map(StackWalker.StackFrame::getMethodName).toList()).equals(List.of(MAPPING_FORCE, MAPPING_UNMAP));
    }

    /**
     * The methods this injector tells apart by name on a failing thread's stack: the NVM tier's force of a mapping, its
     * forget of a file (the first step of its close) and its rescue write of a torn dirty copy; the mapping's force and
     * unmap. Renamed in the library, the injector would no longer see the step, and the model's checks of the sticky
     * failed force would judge by a wrong record: FaultInjectorTest checks that each is still a method of its class.
     */
    static final String TIER_FORCE = "force";
    static final String TIER_FORGET = "forget";
    static final String TIER_OVERWRITE = "overwrite";
    static final String MAPPING_FORCE = "force";
    static final String MAPPING_UNMAP = "unmap";
    /** A class of the tier's own module: moved or renamed, this does not compile. */
    static final String NVM_STORE = NvmSwapStore.class.getName();
    /** Package-private in the page cache, so named by its name; FaultInjectorTest checks it. */
    static final String FILE_MAPPING = "io.ratatosk.pagecache.FileMapping";
    /** Where a flush's or close's writes come from (package-private too): {@link #insideFlush}. */
    static final String COALESCING_FLUSH = "io.ratatosk.pagecache.CoalescingFlush";
    static final String EVICTION_ENGINE = "io.ratatosk.pagecache.EvictionEngine";
    static final String ENGINE_DROP = "drop";
    static final String ENGINE_WRITE_OUT = "writeOut";

    /** An IO failure this injector made up. */
    static final class InjectedIOException extends IOException {
        private static final long serialVersionUID = 1L;

        InjectedIOException(String message) {
            super(message);
        }
    }

    /** An Error this injector made up (a bug in a swapper, say): the cache must not be left with frames locked by it. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String message) {
            super(message);
        }
    }

    /** The swapper call whose injected failure leaves the file as it was: see {@link #failedAt}. */
    static final String TRUNCATE = "truncate";

    /**
     * True if {@code t}, or its cause, or theirs, is a failure this injector made up for the swapper's {@code call} (its
     * message names the call): what {@code t} reports. Not a suppressed one: that is a failure of another step.
     */
    static boolean failedAt(Throwable t, String call) {
        String prefix = "injected " + call + " failure";
        for (int depth = 0; t != null && depth <= 10; t = t.getCause(), depth++) {
            if ((t instanceof InjectedIOException || t instanceof InjectedError) && String.valueOf(t.getMessage()).startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code t}, its causes or suppressed exceptions, or its message, come from an injected fault. */
    static boolean isInjected(Throwable t) {
        return isInjected(t, 0);
    }

    private static boolean isInjected(Throwable t, int depth) {
        if (t == null || depth > 10) {
            return false;
        }
        if (t instanceof InjectedIOException || t instanceof InjectedError
            || (t.getMessage() != null && t.getMessage().contains("injected "))) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (isInjected(s, depth + 1)) {
                return true;
            }
        }
        return isInjected(t.getCause(), depth + 1);
    }
}
