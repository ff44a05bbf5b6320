package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.NvmCacheStats;
import io.ratatosk.pagecache.PageCacheStats;

/**
 * One thread's snapshots of {@code PageCache.stats()}, each judged against what must hold while other threads work: a
 * snapshot is not atomic across counters, so only relations of single counters are checked. Every count is at least 0,
 * and none goes down between two snapshots of one cache (counted by this thread, or by the workers the driver joined);
 * {@code frames} is the configured frame count and {@code freeFrames} within [0, frames]; {@code hitRatio()} within
 * [0, 1]; without the NVM tier, {@code nvm} is {@link NvmCacheStats#NONE}.
 */
final class StatsChecks {
    private final Scenario sc;
    private final String who;
    /** The cache of {@link #last}, or null before the first snapshot. */
    private CacheGeneration lastGen;
    private PageCacheStats last;
    private int expectedFrames;
    private boolean expectTier;

    StatsChecks(Scenario sc, String who) {
        this.sc = sc;
        this.who = who;
    }

    /** Takes a snapshot of {@code g} (open when asked: a closed cache's counters are its close's business) and judges it. */
    void snapshot(CacheGeneration g, String where) {
        if (g.closed) {
            return;
        }
        PageCacheStats now = g.cache.stats();
        if (g != lastGen) {
            // once per cache: the configuration is drawn again from the scenario's seed, which draws nothing else
            var config = sc.config.cacheConfig(g.number);
            expectedFrames = config.frames();
            expectTier = "nvm".equals(config.swap());
            lastGen = g;
            last = null;
        }
        String wrong = wrong(now);
        if (wrong == null && last != null) {
            wrong = wentDown(last, now);
        }
        if (wrong != null) {
            throw sc.fail(who + ": stats() of " + g + " " + where + ": " + wrong + "\n  before: " + last + "\n  now:    "
                + now, null);
        }
        last = now;
    }

    /** This checker's last snapshot of {@code g}, or null. */
    PageCacheStats lastOf(CacheGeneration g) {
        return g == lastGen ? last : null;
    }

    /** Whether {@code earlier} (another thread's, which happened before this one's last snapshot) is above it. */
    void notBelow(PageCacheStats earlier, String whose) {
        if (earlier == null || last == null) {
            return;
        }
        String wrong = wentDown(earlier, last);
        if (wrong != null) {
            throw sc.fail(who + ": stats() of " + lastGen + " below " + whose + "'s last snapshot: " + wrong + "\n  "
                + whose + ": " + earlier + "\n  " + who + ": " + last, null);
        }
    }

    /**
     * Judges {@code g}, closed and with every cursor on it closed (so that its counters are final and its cursors' counts
     * published), against what the counters promise of each other and of the model's pins: hits plus faults at least the
     * {@code next()} calls the model counted as moved ({@link CacheGeneration#pins}: every one is a hit or a fault);
     * every page written is counted in {@code io.pagesWritten}, whether an eviction's ({@code evictionWrites}) or a flush's
     * or close's ({@code flushedPages}), in at most as many write calls; {@code bytesWritten} is a file page for each;
     * every frame is free again; the NVM tier's counters agree ({@link #nvmAtRest}); and where the injector's swappers
     * counted what the files got ({@link CacheGeneration#swapperWrites}), the write counters, flushedPages and
     * evictionWrites lie between what those swappers' calls wrote and what they were asked to, and bytesRead is at most
     * what they read. Throws the failure.
     */
    static void atRest(Scenario sc, CacheGeneration g) {
        PageCacheStats s = g.cache.stats();
        long pins = g.pins.sum();
        int min = minPageSize(sc);
        long written = s.io().pagesWritten();
        String wrong = null;
        if (s.hits() + s.faults() < pins) {
            wrong = "hits " + s.hits() + " + faults " + s.faults() + " < " + pins + ", the next() calls of the model that moved"
                + " its cursors onto a page: each is a hit or a fault";
        } else if (s.evictionWrites() + s.flushedPages() > written) {
            wrong = "evictionWrites " + s.evictionWrites() + " + flushedPages " + s.flushedPages() + " > io.pagesWritten "
                + written + ", which counts every page written";
        } else if (s.io().writeCalls() > written) {
            wrong = "io.writeCalls " + s.io().writeCalls() + " > io.pagesWritten " + written + ": each call writes a page or more";
        } else if (s.bytesWritten() < written * min || s.bytesWritten() > written * ScenarioConfig.CACHE_PAGE_SIZE) {
            wrong = "bytesWritten " + s.bytesWritten() + " is not that of io.pagesWritten " + written + " pages of "
                + min + " to " + ScenarioConfig.CACHE_PAGE_SIZE + " bytes";
        } else if (s.bytesRead() < s.faults() * min) {
            wrong = "bytesRead " + s.bytesRead() + " < faults " + s.faults() + " times the smallest page, " + min
                + " bytes: every fault reads its page";
        } else if (s.freeFrames() != s.frames()) {
            wrong = "freeFrames " + s.freeFrames() + " of " + s.frames() + ": every file was unmapped, every page dropped";
        }
        if (wrong == null) {
            wrong = nvmAtRest(s.nvm());
        }
        FaultInjector.Factory files = g.swapperWrites;
        if (wrong == null && files != null) {
            // every write call that returned normally is counted, and no other: between those and all the calls tried
            if (written < files.pagesWritten.get() || written > files.pagesTried.get()) {
                wrong = "io.pagesWritten " + written + ", but the files' swappers wrote " + files.pagesWritten.get()
                    + " pages in calls that returned normally (" + files.pagesTried.get() + " tried)";
            } else if (s.io().writeCalls() < files.writeCalls.get() || s.io().writeCalls() > files.writeCallsTried.get()) {
                wrong = "io.writeCalls " + s.io().writeCalls() + ", but the files' swappers got " + files.writeCalls.get()
                    + " write calls that returned normally (" + files.writeCallsTried.get() + " tried)";
            } else if (s.flushedPages() < files.flushPagesWritten.get() || s.flushedPages() > files.flushPagesTried.get()) {
                wrong = "flushedPages " + s.flushedPages() + ", but flushes and closes wrote " + files.flushPagesWritten.get()
                    + " pages to the files' swappers in calls that returned normally (" + files.flushPagesTried.get() + " tried)";
            } else if (s.bytesRead() > files.bytesReadCalls.get()) {
                wrong = "bytesRead " + s.bytesRead() + ", but the files' swappers read " + files.bytesReadCalls.get() + " bytes of"
                    + " pages in calls that returned normally: a page is counted once it was read";
            } else if (s.evictionWrites() < files.evictionCallsWritten.get() || s.evictionWrites() > files.evictionCallsTried.get()) {
                wrong = "evictionWrites " + s.evictionWrites() + ", but evictions made " + files.evictionCallsWritten.get()
                    + " write calls to the files' swappers that returned normally (" + files.evictionCallsTried.get() + " tried)";
            }
        }
        if (wrong != null) {
            throw sc.fail("stats() of " + g + ", closed with every cursor: " + wrong + "\n  " + s, null);
        }
    }

    /**
     * What the NVM tier's counters promise of each other (NvmCacheStats), once they no longer move: a swap-out, dirty or
     * not, writes the device, a swap-in reads it and is a file read avoided, a prefetched page is a swap-in too, and the
     * file writes avoided are the dirty swap-outs less the write-backs, at least 0. Null where they hold.
     */
    private static String nvmAtRest(NvmCacheStats n) {
        if (n.dirtySwapOuts() > n.swapOuts()) {
            return "nvm dirtySwapOuts " + n.dirtySwapOuts() + " > swapOuts " + n.swapOuts() + ", of which they are some";
        } else if (n.swapOuts() > n.writes()) {
            return "nvm swapOuts " + n.swapOuts() + " > writes " + n.writes() + ": each writes the page into NVM";
        } else if (n.swapIns() > n.reads()) {
            return "nvm swapIns " + n.swapIns() + " > reads " + n.reads() + ": each reads the page from NVM";
        } else if (n.fileReadsAvoided() != n.swapIns()) {
            return "nvm fileReadsAvoided " + n.fileReadsAvoided() + " != swapIns " + n.swapIns() + ": each is a file read avoided";
        } else if (n.prefetched() > n.swapIns()) {
            return "nvm prefetched " + n.prefetched() + " > swapIns " + n.swapIns() + ", which count them too";
        } else if (n.fileWritesAvoided() != Math.max(0, n.dirtySwapOuts() - n.writeBacks())) {
            return "nvm fileWritesAvoided " + n.fileWritesAvoided() + " is not dirtySwapOuts " + n.dirtySwapOuts()
                + " - writeBacks " + n.writeBacks() + ", at least 0";
        }
        return null;
    }

    /** The smallest page size of the scenario's files. */
    private static int minPageSize(Scenario sc) {
        int min = ScenarioConfig.CACHE_PAGE_SIZE;
        for (FileModel f : sc.allFiles) {
            min = Math.min(min, f.pageSize);
        }
        return min;
    }

    private String wrong(PageCacheStats s) {
        if (s.frames() != expectedFrames) {
            return "frames " + s.frames() + ", but the cache was configured with " + expectedFrames;
        }
        if (s.freeFrames() < 0 || s.freeFrames() > s.frames()) {
            return "freeFrames " + s.freeFrames() + " outside [0, frames " + s.frames() + "]";
        }
        if (!expectTier && !s.nvm().equals(NvmCacheStats.NONE)) {
            return "nvm is not NvmCacheStats.NONE in a cache without the NVM tier";
        }
        double ratio = s.hitRatio();
        if (!(ratio >= 0 && ratio <= 1)) {
            return "hitRatio() " + ratio + " outside [0, 1]";
        }
        int min = minPageSize(sc);
        if (s.bytesRead() < s.faults() * min) {
            return "bytesRead " + s.bytesRead() + " < faults " + s.faults() + " times the smallest page, " + min
                + " bytes: every fault a cursor counts read its page before";
        }
        long[] c = counts(s);
        for (int i = 0; i < c.length; i++) {
            if (c[i] < 0) {
                return NAMES[i] + " is " + c[i];
            }
        }
        return null;
    }

    private static String wentDown(PageCacheStats before, PageCacheStats now) {
        long[] b = counts(before);
        long[] n = counts(now);
        for (int i = 0; i < b.length; i++) {
            if (n[i] < b[i]) {
                return NAMES[i] + " went down from " + b[i] + " to " + n[i] + ": it counts, so it never goes down";
            }
        }
        return null;
    }

    private static final String[] NAMES = {"hits", "faults", "backgroundEvictions", "cooperativeEvictions", "evictionWrites",
        "flushedPages", "bytesRead", "bytesWritten", "evictionErrors", "io.pagesWritten", "io.writeCalls", "io.pagesReheated",
        "nvm.swapIns", "nvm.swapOuts", "nvm.writeBacks"};

    /** The counters among the stats (not fileWritesAvoided: a difference, at least 0, which may go down). */
    private static long[] counts(PageCacheStats s) {
        return new long[] {s.hits(), s.faults(), s.backgroundEvictions(), s.cooperativeEvictions(), s.evictionWrites(),
            s.flushedPages(), s.bytesRead(), s.bytesWritten(), s.evictionErrors(), s.io().pagesWritten(), s.io().writeCalls(),
            s.io().pagesReheated(), s.nvm().swapIns(), s.nvm().swapOuts(), s.nvm().writeBacks()};
    }
}
