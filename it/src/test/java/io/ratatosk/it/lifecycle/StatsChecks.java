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
