package io.ratatosk.it.lifecycle;

import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.pagecache.PageCacheConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One short scenario of the model test, drawn from its seed: the files (page size, pages: several times
 * the cache), how many operations each thread runs, whether the disk fails for a while or is slow to
 * read (so faults are in flight when files and caches close), and, for each
 * cache opened in it, the policy (cycling through every policy {@code pagecache.policy} accepts, one
 * more at each reopen), the frame count (16-64, so pages are evicted all the time; one cache in eight
 * large) and the evictor.
 */
record ScenarioConfig(int index, long seed, int threads, List<Integer> filePageSizes, List<Integer> filePages,
                      int opsPerThread, boolean faulty, int faultsPerTenThousand, boolean slowReads) {
    static final int CACHE_PAGE_SIZE = 4096;
    static final int MIN_FRAMES = 16;
    static final int MAX_FRAMES = 64;
    /** 64 MiB of 4k frames: above the size from which malloc always maps memory from the OS and unmaps it when freed. */
    static final int BIG_FRAMES = 16384;

    static ScenarioConfig draw(int index, long seed, int threads, Skips skips) {
        SplittableRandom r = new SplittableRandom(seed);
        int files = 2 + r.nextInt(2);
        int[] sizes = {4096, 4096, 4096, 2048, 1024};
        List<Integer> pageSizes = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            pageSizes.add(sizes[r.nextInt(sizes.length)]);
            pages.add(64 + r.nextInt(400));
        }
        int ops = 1000 + r.nextInt(2000);
        boolean faulty = r.nextInt(100) < 30 && !skips.faults();
        int faults = 30 + r.nextInt(170);
        boolean slowReads = r.nextInt(100) < 35 && !skips.slowReads();
        return new ScenarioConfig(index, seed, threads, pageSizes, pages, ops, faulty, faults, slowReads);
    }

    /** The policy of the {@code generation}-th cache opened in this scenario. */
    String policy(int generation) {
        return PolicyRegistry.NAMES.get(Math.floorMod(index + generation, PolicyRegistry.NAMES.size()));
    }

    /** The configuration of the {@code generation}-th cache opened in this scenario. */
    PageCacheConfig cacheConfig(int generation) {
        SplittableRandom r = new SplittableRandom(RunSettings.mix(seed, 1000 + generation));
        int minFrames = Math.max(MIN_FRAMES, 2 * threads + 8);
        int frames = minFrames + r.nextInt(MAX_FRAMES - minFrames + 1);
        if (r.nextInt(8) == 0) {
            // now and then a large cache: its memory goes back to the OS when freed, so a read through a
            // cursor that outlived it faults (crashes) instead of reading stale bytes
            frames = BIG_FRAMES;
        }
        boolean evictor = r.nextBoolean();
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", Long.toString((long) frames * CACHE_PAGE_SIZE),
            "pagecache.page_size", Integer.toString(CACHE_PAGE_SIZE),
            "pagecache.policy", policy(generation),
            "pagecache.evictor.enabled", Boolean.toString(evictor)));
    }

    static String describe(PageCacheConfig c) {
        return c.policy() + ", " + c.frames() + " frames, evictor " + (c.evictorEnabled() ? "on" : "off");
    }

    @Override
    public String toString() {
        return "scenario " + index + " [seed " + seed + ", threads " + threads + ", file page sizes " + filePageSizes
            + ", pages " + filePages + ", ops/thread " + opsPerThread
            + (faulty ? ", disk faults " + faultsPerTenThousand + "/10000" : "") + (slowReads ? ", slow reads" : "") + "]";
    }
}
