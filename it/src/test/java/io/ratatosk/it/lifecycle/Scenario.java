package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.nvm.NvmTierStats;
import io.ratatosk.pagecache.NvmCacheStats;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.writeaware.WriteAwareEviction;
import io.ratatosk.pagecache.writeaware.WriteAwareInternals;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the workers of one scenario share: the files and their model, the current cache generation
 * (closed by any worker, reopened by whoever closed it, with the next policy, after checking on disk
 * that every acknowledged write is there), the failure record, the watchdog and the fault injector.
 */
final class Scenario {
    final ScenarioConfig config;
    final RunSettings settings;
    /** The files every thread maps, reads and writes. */
    final List<FileModel> files = new ArrayList<>();
    /**
     * One file per thread that only that thread maps (a truncate to a middle page, a read or a write at the end, an
     * unmap under its cursors: what the model can only know exactly where no other thread writes or holds the file).
     */
    final List<FileModel> privateFiles = new ArrayList<>();
    /** Both. */
    final List<FileModel> allFiles = new ArrayList<>();
    final PathSpellings spellings;
    final Failures failures;
    final Watchdog watchdog;
    final FaultInjector injector;
    final List<OpLog> logs = new ArrayList<>();
    final AtomicInteger reopens = new AtomicInteger();
    final AtomicLong ops = new AtomicLong();
    final AtomicLong closedRejections = new AtomicLong();
    final AtomicLong farRefusals = new AtomicLong();
    final AtomicLong farWrites = new AtomicLong();
    final AtomicLong injectedSurfaced = new AtomicLong();
    /** NVM swap-ins, swap-outs, write-backs and prefetches of the closed caches: the tier must have worked. */
    final AtomicLong nvmSwapIns = new AtomicLong();
    final AtomicLong nvmSwapOuts = new AtomicLong();
    final AtomicLong nvmWriteBacks = new AtomicLong();
    final AtomicLong nvmPrefetched = new AtomicLong();
    final AtomicLong dirtySkips = new AtomicLong();
    /** Records read or written through a cursor and its link, both pages judged by the model. */
    final AtomicLong linkedRecords = new AtomicLong();
    /** Calls on closed cursors, each refused with IllegalStateException. */
    final AtomicLong closedCursorRefusals = new AtomicLong();
    /** Flushes, flushAndForce calls and closes that met a mapping whose force had failed before, and threw. */
    final AtomicLong stuckForcesReported = new AtomicLong();
    /** Truncates of a thread's own file that returned, moves past its end checked, unmaps under its cursors checked. */
    final AtomicLong ownTruncates = new AtomicLong();
    /** Truncates of a thread's own file whose cut failed (injected), checked to have changed nothing. */
    final AtomicLong ownCutsFailed = new AtomicLong();
    final AtomicLong ownEndChecks = new AtomicLong();
    final AtomicLong ownUnmapsUnderCursors = new AtomicLong();
    /** Calls with a bad argument, each refused with IllegalArgumentException naming it. */
    final AtomicLong badInputsRefused = new AtomicLong();
    /** Reads of a thread's own file whose page (the parent's, or only its link's) a truncate cut under them, reported so. */
    final AtomicLong readsCutUnder = new AtomicLong();
    final AtomicLong linkedReadsCutUnder = new AtomicLong();
    /** Truncates of a shared file to a middle page that returned, were refused for a held page, and reads cut under them. */
    final AtomicLong sharedTruncates = new AtomicLong();
    final AtomicLong sharedTruncatesRefused = new AtomicLong();
    /** Copies through PageCursor.copyTo, each judged byte for byte. */
    final AtomicLong copies = new AtomicLong();
    /** Copies into a write cursor on no page (each copying nothing), a closed one or a read cursor (each refused). */
    final AtomicLong copiesIntoNoPage = new AtomicLong();
    /** The host's closes of the NVM tier it gave a cache: under the open cache (each refused), and after its close. */
    final AtomicLong hostTierClosesRefused = new AtomicLong();
    final AtomicLong hostTierClosesAfter = new AtomicLong();
    /** Checks of what setCursorException, checkAndClearCursorException and clearCursorException promise. */
    final AtomicLong cursorExceptionChecks = new AtomicLong();
    final AtomicLong sharedReadsCutUnder = new AtomicLong();
    /** Cursors closed on two threads at once (or a parent here and its link there); touches of shared files. */
    final AtomicLong cursorsClosedOnTwoThreads = new AtomicLong();
    final AtomicLong touches = new AtomicLong();
    /** Maps of a thread's own file, mapped, refused: by a second cache, or with another page size. */
    final AtomicLong secondCacheMapsRefused = new AtomicLong();
    final AtomicLong otherPageSizeMapsRefused = new AtomicLong();
    /** Flushes of a thread's own file after which the disk was read and judged, the file still mapped. */
    final AtomicLong ownFlushesOnDisk = new AtomicLong();
    private final List<String> policiesUsed = new CopyOnWriteArrayList<>();
    /** Every cache opened in the scenario, to check at its end that none still counts a cursor open. */
    final List<CacheGeneration> generations = new CopyOnWriteArrayList<>();
    private volatile CacheGeneration current;
    private int nextGeneration;

    Scenario(ScenarioConfig config, RunSettings settings, Path root, Failures failures, Watchdog watchdog) throws IOException {
        this.config = config;
        this.settings = settings;
        this.failures = failures;
        this.watchdog = watchdog;
        this.spellings = new PathSpellings(root, !settings.skips().links());
        this.injector = new FaultInjector(RunSettings.mix(config.seed(), 77));
        injector.errors(!settings.skips().errors());
        if (config.slowReads()) {
            injector.slowReads(100_000);
        }
        for (int f = 0; f < config.filePages().size(); f++) {
            String name = "s" + config.index() + "-f" + f;
            long tag = RunSettings.mix(config.seed(), 500 + f) | 1L;
            files.add(new FileModel(f, name, tag, config.filePageSizes().get(f), config.filePages().get(f), config.threads(),
                spellings.spellingsOf(name), spellings::label));
        }
        for (int t = 0; t < config.threads(); t++) {
            // from draws of their own, so that the seeds of earlier runs draw the shared files as before
            SplittableRandom r = new SplittableRandom(RunSettings.mix(config.seed(), 600 + t));
            String name = "s" + config.index() + "-own" + t;
            privateFiles.add(new FileModel(files.size() + t, name, r.nextLong() | 1L, ScenarioConfig.CACHE_PAGE_SIZE,
                8 + r.nextInt(25), 1, t, spellings.spellingsOf(name), spellings::label));
        }
        allFiles.addAll(files);
        allFiles.addAll(privateFiles);
        for (int t = 0; t < config.threads(); t++) {
            logs.add(new OpLog("thread t" + t));
        }
        logs.add(new OpLog("driver"));
    }

    /** Whether the disk fails for a while in this scenario. */
    boolean faulty() {
        return config.faulty();
    }

    OpLog driverLog() {
        return logs.get(config.threads());
    }

    // ---- cache generations ------------------------------------------------------------------------

    /** Opens the first cache. */
    synchronized void start() {
        current = open();
    }

    private CacheGeneration open() {
        int number = nextGeneration++;
        PageCacheConfig cacheConfig = config.cacheConfig(number);
        FaultInjector.Factory files = config.faulty() || config.slowReads() ? injector.factory() : null;
        NvmSwapStore hostTier = config.hostTier(number, cacheConfig)
            ? new NvmSwapStore(NvmDeviceConfig.from(cacheConfig), files != null ? files : new FileSwapperFactory()) : null;
        PageCache cache = hostTier != null ? PageCache.open(cacheConfig, hostTier)
            : files != null ? PageCache.open(cacheConfig, files) : PageCache.open(cacheConfig);
        if (hostTier != null && cache.tier() != hostTier) {
            throw fail("PageCache.open(config, tier) put " + cache.tier() + " in front of the files, not the tier it was given",
                null);
        }
        injector.nvm(cache.tier() instanceof NvmSwapStore nvm && config.faulty() ? nvm.device() : null);
        pinWriteAwareBudget(cache, number);
        policiesUsed.add(cacheConfig.policy());
        boolean forcesTracked = config.faulty();
        CacheGeneration g = new CacheGeneration(number, cache, ScenarioConfig.describe(cacheConfig)
            + (hostTier != null ? ", the host's tier" : ""), allFiles.size(), forcesTracked, hostTier,
            cache.tier() == null ? files : null);
        generations.add(g);
        return g;
    }

    /** The current cache; while it is closed and not yet replaced, waits for its replacement. */
    CacheGeneration current() {
        CacheGeneration g = current;
        while (g.closed && !failures.any()) {
            LockSupport.parkNanos(100_000);
            g = current;
        }
        return g;
    }

    CacheGeneration currentNow() {
        return current;
    }

    /** Closes {@code g}, counting the attempt; exceptions are the caller's to judge. */
    void close(CacheGeneration g) throws IOException {
        g.closesStarted.incrementAndGet();
        boolean leftOpen = false;
        try {
            try {
                g.cache.close();
            } catch (Throwable e) {
                if (g.cache.isClosed()) {
                    // Every file was flushed and unmapped; only a swapper's close failed after that (an injected
                    // close failure), or the tier's close writing back its dirty copies (an injected Error too: left
                    // out here, the model took the closed cache for open): the cache closed all the same, and says so.
                    closed(g);
                } else {
                    leftOpen = true;
                }
                throw e;
            }
            closed(g);
        } finally {
            g.closesFinished.incrementAndGet();
            if (leftOpen) {
                checkBeanBack(g);
            }
        }
    }

    /**
     * A close that failed or was refused left {@code g} open: the bean it took out is back (PageCache.close), unless another
     * close of {@code g} is under way (it takes the bean out too), or began before the look ended.
     */
    private void checkBeanBack(CacheGeneration g) {
        int started = g.closesStarted.get();
        ObjectName name = g.cache.mbeanName();
        if (started != g.closesFinished.get() || name == null || ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            return;
        }
        if (g.closesStarted.get() == started && !g.cache.isClosed()) {
            throw fail("a close of " + g + " that failed or was refused left the cache open, but not its MBean " + name
                + " registered", null);
        }
    }

    /**
     * Bookkeeping of a closed generation, once: its tier's counters, and the check that the tier kept nothing (a close
     * that threw after closing may be followed by another, which does nothing).
     */
    private synchronized void closed(CacheGeneration g) {
        if (g.closed) {
            return;
        }
        g.closed = true;
        NvmCacheStats nvm = g.cache.stats().nvm();
        nvmSwapIns.addAndGet(nvm.swapIns());
        nvmSwapOuts.addAndGet(nvm.swapOuts());
        nvmWriteBacks.addAndGet(nvm.writeBacks());
        nvmPrefetched.addAndGet(nvm.prefetched());
        dirtySkips.addAndGet(nvm.dirtySkips());
        checkTierEmptied(g);
        checkBeanGone(g);
        closeHostTierAfter(g);
    }

    /**
     * A closed cache's MBean is out of the server: left in, it keeps the closed cache reachable and its name taken. No
     * other cache of the scenario with a bean is open now (the next opens after this), so none can have taken the name.
     */
    private void checkBeanGone(CacheGeneration g) {
        ObjectName name = g.cache.mbeanName();
        if (name != null && ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            throw fail(g + " closed, but its MBean " + name + " is still registered", null);
        }
    }

    /**
     * The open cache {@code g}, with no close of it under way (every worker stopped), shows its MBean where
     * {@code pagecache.jmx.enabled} asks for one, under {@code mbeanName()}, saying what its stats() say: also after
     * closes of it that were refused (each took the bean out and put it back).
     */
    void checkBeanShown(CacheGeneration g) throws Exception {
        ObjectName name = g.cache.mbeanName();
        boolean enabled = g.cache.config().getBoolean("pagecache.jmx.enabled");
        if (!enabled) {
            if (name != null) {
                throw fail(g + " has pagecache.jmx.enabled=false, but mbeanName() is " + name, null);
            }
            return;
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        if (name == null || !server.isRegistered(name)) {
            throw fail(g + ", open, has no MBean registered (mbeanName() " + name + ") after " + g.closesFinished.get()
                + " refused or failed closes", null);
        }
        Object frames = server.getAttribute(name, "Frames");
        Object policy = server.getAttribute(name, "Policy");
        if (!Integer.valueOf(g.cache.frameCount()).equals(frames) || !g.cache.stats().policy().equals(policy)) {
            throw fail("the MBean " + name + " of " + g + " says frames " + frames + ", policy " + policy + ": another cache's", null);
        }
    }

    /**
     * The host closes the tier it gave {@code g} after {@code g} closed it (the tier outliving its cache): a second close
     * does nothing, and neither does one of its device, the tier's to close.
     */
    private void closeHostTierAfter(CacheGeneration g) {
        if (g.hostTier == null) {
            return;
        }
        try {
            g.hostTier.close();
            g.hostTier.device().close();
        } catch (IOException | RuntimeException | Error e) {
            if (!(faulty() && FaultInjector.isInjected(e))) {
                throw fail("the host's close of the NVM tier of " + g + ", which the cache closed with itself, threw " + e, e);
            }
        }
        hostTierClosesAfter.incrementAndGet();
    }

    /** A closed cache's NVM tier made every file durable and forgot it: no slot may hold a page any more. */
    private void checkTierEmptied(CacheGeneration g) {
        if (!(g.cache.tier() instanceof NvmSwapStore tier)) {
            return;
        }
        NvmTierStats stats = tier.stats();
        if (stats.residentPages() != 0) {
            throw fail(g + " closed, but its NVM tier still holds " + stats.residentPages() + " pages (" + stats.dirtyPages()
                + " dirty)", null);
        }
        try {
            tier.checkInvariants();
        } catch (IllegalStateException e) {
            throw fail(g + " closed, but its NVM tier's bookkeeping is wrong: " + e.getMessage(), e);
        }
    }

    /**
     * After a successful close of {@code g}: if it is still the current cache, checks on disk that every
     * acknowledged write is there and opens the next cache (the next policy). Whoever gets here first does it.
     */
    synchronized void reopenAfter(CacheGeneration g, String who) {
        if (current != g || !g.closed) {
            return;
        }
        try {
            verifyOnDisk("after closing " + g + " (by " + who + ")", false);
        } finally {
            if (!failures.any()) {
                current = open();
                reopens.incrementAndGet();
            }
        }
    }

    String policiesUsed() {
        return String.join(" > ", policiesUsed);
    }

    // ---- checking -----------------------------------------------------------------------------

    /**
     * Reads every slot of every file straight from the file and judges it against the model. Call only
     * while no cache has the files mapped. {@code exact}: nothing is in flight, so every page must hold
     * exactly its last started version where that was acknowledged.
     */
    void verifyOnDisk(String when, boolean exact) {
        for (FileModel f : allFiles) {
            verifyOnDisk(f, when, exact);
        }
    }

    /**
     * {@link #verifyOnDisk(String, boolean)} of one file: also while the cache has it mapped, where nothing writes it (a
     * thread's own file, which its thread just flushed) or where {@code exact} is false.
     */
    void verifyOnDisk(FileModel f, String when, boolean exact) {
        Path path = spellings.real(f.name);
        long[] words = new long[PageImage.words(f.pageSize)];
        ByteBuffer buf = ByteBuffer.allocate(f.pageSize);
        if (!Files.exists(path)) {
            for (int s = 0; s < f.slots(); s++) {
                if (f.acked(s) > 0) {
                    throw fail("on disk " + when + ": " + f.name + " does not exist, but " + f.describe(s)
                        + " was acknowledged", null);
                }
            }
            return;
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            for (int s = 0; s < f.slots(); s++) {
                // a truncate whose bookkeeping is not done yet (its thread held back after the cut) is excused
                FileModel.Seen seen = f.seen(s);
                long pageId = f.pageId(s);
                buf.clear();
                long position = pageId * f.pageSize;
                while (buf.hasRemaining()) {
                    int n = ch.read(buf, position + buf.position());
                    if (n < 0) {
                        break;
                    }
                }
                while (buf.hasRemaining()) {
                    buf.put((byte) 0);
                }
                PageImage.fromBytes(buf, words);
                long version;
                try {
                    version = PageImage.versionOf(words, f.tag, pageId);
                } catch (PageImage.DamagedPage e) {
                    throw fail("on disk " + when + ": " + f.describe(s) + " " + e.getMessage(), null);
                }
                String wrong = f.judge(s, version, seen);
                if (wrong == null && exact && f.acked(s) == f.started(s) && version != f.acked(s)) {
                    wrong = "holds version " + version + " instead of " + f.acked(s) + " (nothing was in flight)";
                }
                if (wrong != null) {
                    throw fail("on disk " + when + ": " + f.describe(s) + " " + wrong, null);
                }
            }
        } catch (IOException e) {
            throw fail("on disk " + when + ": cannot read " + path + ": " + e, e);
        }
    }

    /**
     * Write-aware eviction picks its budget once an epoch of 25,000 references has passed, which a model cache
     * never lives to see, so left alone it would never pass over a dirty frame here: each generation with it
     * pins one budget instead (from a draw of its own, so the seeds of earlier runs draw the rest as before).
     */
    private void pinWriteAwareBudget(PageCache cache, int generation) {
        if (PageCacheInternals.policy(cache) instanceof WriteAwareEviction aware) {
            int[] budgets = WriteAwareInternals.budgets();
            SplittableRandom r = new SplittableRandom(RunSettings.mix(config.seed(), 3000 + generation));
            WriteAwareInternals.forceBudget(aware, budgets[r.nextInt(budgets.length)]);
        }
    }

    /** Records a failure with the scenario's context (seed, replay flags) and returns it to throw. */
    AssertionError fail(String message, Throwable cause) {
        CacheGeneration g = current;
        return failures.fail(message + "\n  in " + config + "\n  cache " + (g == null ? "none" : g.toString())
            + "\n  policies so far: " + policiesUsed() + "\n  master seed " + settings.seed()
            + "; replay with " + settings.replayFlags(config.index()), cause);
    }

    String summary() {
        return config + ": " + ops.get() + " ops, " + reopens.get() + " reopens, policies " + policiesUsed()
            + ", " + closedRejections.get() + " operations refused as closed, far writes " + farWrites.get()
            + " (refused " + farRefusals.get() + ")" + (faulty() ? ", " + injector.injected() + " faults injected, "
            + injectedSurfaced.get() + " surfaced, write-behind runs " + injector.writeBehindRuns() + ", failed forces met"
            + " again " + stuckForcesReported.get() : "") + ", linked records " + linkedRecords.get() + ", calls on closed"
            + " cursors refused " + closedCursorRefusals.get() + ", own files: truncates " + ownTruncates.get()
            + (faulty() ? " (cuts failed, nothing changed: " + ownCutsFailed.get() + ")" : "")
            + ", ends checked " + ownEndChecks.get() + ", unmaps under cursors " + ownUnmapsUnderCursors.get()
            + ", reads cut under them " + readsCutUnder.get() + " (only the link's " + linkedReadsCutUnder.get() + ")"
            + ", bad inputs refused " + badInputsRefused.get() + ", shared files: truncates " + sharedTruncates.get()
            + " (refused for a held page " + sharedTruncatesRefused.get() + "), reads cut under them " + sharedReadsCutUnder.get()
            + ", touches " + touches.get() + ", copies " + copies.get() + " (into no page or refused "
            + copiesIntoNoPage.get() + "), cursor exception checks " + cursorExceptionChecks.get() + ","
            + " the host's tier closes refused under its cache " + hostTierClosesRefused.get() + " and done after it "
            + hostTierClosesAfter.get() + ", cursors closed on two threads at once " + cursorsClosedOnTwoThreads.get() + ", maps of a mapped file refused in"
            + " a second cache " + secondCacheMapsRefused.get() + " and with another page size " + otherPageSizeMapsRefused.get()
            + ", own files read from disk after a flush " + ownFlushesOnDisk.get()
            + (config.nvm() ? ", nvm swap-ins " + nvmSwapIns.get() + ", swap-outs "
            + nvmSwapOuts.get() + ", write-backs " + nvmWriteBacks.get() + ", prefetched " + nvmPrefetched.get() + ", dirty frames passed over " + dirtySkips.get() : "");
    }

    String dumpLogs() {
        StringBuilder sb = new StringBuilder();
        for (OpLog log : logs) {
            sb.append(log.dump());
        }
        return sb.toString();
    }
}
