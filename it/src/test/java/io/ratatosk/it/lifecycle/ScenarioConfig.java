package io.ratatosk.it.lifecycle;

import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.pagecache.PageCacheConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One short scenario of the model test, drawn from its seed: the files (page size, pages: several times
 * the cache), how many operations each thread runs, whether the disk fails for a while or is slow to
 * read (so faults are in flight when files and caches close), and, for each
 * cache opened in it, the policy (cycling through every policy {@code pagecache.policy} accepts, one
 * more at each reopen), the frame count (16-64, so pages are evicted all the time; one cache in eight
 * large), the evictor, and the page size of the scenario's caches (frames of 4, 8 or 16 KiB; the files'
 * pages are up to 4 KiB). In some scenarios most caches put the emulated NVM tier in front of the files
 * ({@code pagecache.swap=nvm}): often fewer slots than frames, so that pages go into NVM and are written
 * back from it all the time, else more, so that faults come back from it; fast device figures, so a
 * scenario takes about as long as without it. The operations flags vary too (flush IOPS limit, profile interval,
 * warm-up, JMX, keep_free).
 */
record ScenarioConfig(int index, long seed, int threads, List<Integer> filePageSizes, List<Integer> filePages,
                      int opsPerThread, boolean faulty, int faultsPerTenThousand, boolean slowReads, boolean nvm) {
    /** The files' largest page size (own files take it); the cache's frames are this or larger ({@link #cachePageSize}). */
    static final int CACHE_PAGE_SIZE = 4096;
    /** pagecache.page_size of a scenario's caches: 4 KiB in half, else 8 or 16 KiB, so frames are not all 4 KiB. */
    private static final int[] CACHE_PAGE_SIZES = {4096, 4096, 8192, 16384};
    /** The memory of a large cache: above malloc's threshold for memory mapped from (and unmapped back to) the OS. */
    private static final long BIG_MEMORY = 64L << 20;
    static final int MIN_FRAMES = 16;
    static final int MAX_FRAMES = 64;
    /**
     * NVM slots of a cache with the tier: half the time below the frames (16-64), so the tier's clock reclaims
     * slots all the time; else up to a few times the files, so faults are served from NVM.
     */
    static final int MIN_NVM_SLOTS = 4;
    static final int MAX_SMALL_NVM_SLOTS = 48;
    static final int MAX_NVM_SLOTS = 1024;

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
        // drawn last, so that the draws above are those of a seed from before the tier was in the test
        boolean nvm = r.nextInt(100) < 40 && !skips.nvm();
        return new ScenarioConfig(index, seed, threads, pageSizes, pages, ops, faulty, faults, slowReads, nvm);
    }

    /**
     * The page size of every cache of this scenario, from a draw of its own (so that the seeds of earlier runs draw the
     * rest as before): frames larger than the files' pages, so a frame's address is not always that of a 4 KiB frame.
     */
    int cachePageSize() {
        return CACHE_PAGE_SIZES[new SplittableRandom(RunSettings.mix(seed, 8000)).nextInt(CACHE_PAGE_SIZES.length)];
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
            frames = (int) (BIG_MEMORY / cachePageSize());
        }
        boolean evictor = r.nextBoolean();
        Map<String, String> flags = new HashMap<>(Map.of(
            "pagecache.memory", Long.toString((long) frames * cachePageSize()),
            "pagecache.page_size", Integer.toString(cachePageSize()),
            "pagecache.policy", policy(generation),
            "pagecache.evictor.enabled", Boolean.toString(evictor)));
        if (nvm) {
            nvmFlags(new SplittableRandom(RunSettings.mix(seed, 2000 + generation)), cachePageSize(), flags);
        }
        operationsFlags(new SplittableRandom(RunSettings.mix(seed, 4000 + generation)), frames, flags);
        return PageCacheConfig.parse(flags);
    }

    /**
     * The operations side, from a draw of its own so that the seeds of earlier runs draw the rest as before: a flush
     * IOPS limit in one cache of three (low enough that a flush is still running when an unmap or close comes, which
     * must then stop limiting it); profiles written every second in half (the default 60 s never comes within a
     * scenario, so they were written only at unmap); warm-up, or JMX, off in one of four; a keep_free of its own in
     * one of three.
     */
    private static void operationsFlags(SplittableRandom r, int frames, Map<String, String> flags) {
        if (r.nextInt(3) == 0) {
            flags.put("pagecache.flush.iops_limit", Integer.toString(500 + r.nextInt(9500)));
        }
        if (r.nextBoolean()) {
            flags.put("pagecache.warmup.profile_interval", "1s");
        }
        if (r.nextInt(4) == 0) {
            flags.put("pagecache.warmup.enabled", "false");
        }
        if (r.nextInt(4) == 0) {
            flags.put("pagecache.jmx.enabled", "false");
        }
        if (r.nextInt(3) == 0) {
            flags.put("pagecache.evictor.keep_free", Integer.toString(1 + r.nextInt(frames / 2)));
        }
    }

    /**
     * The NVM tier, in three caches of four of an NVM scenario (the others reach the files directly, so that
     * a file goes from caches with the tier to caches without and back): every write policy, remapping,
     * write-aware eviction and prefetching; a latency of nanoseconds to a few microseconds, or only counted.
     */
    private static void nvmFlags(SplittableRandom r, int pageSize, Map<String, String> flags) {
        if (r.nextInt(4) == 0) {
            return;
        }
        int slots = MIN_NVM_SLOTS + r.nextInt((r.nextBoolean() ? MAX_SMALL_NVM_SLOTS : MAX_NVM_SLOTS) - MIN_NVM_SLOTS + 1);
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", Long.toString((long) slots * pageSize));
        flags.put("pagecache.nvm.devices", Integer.toString(1 + r.nextInt(3)));
        flags.put("pagecache.nvm.write_policy", r.nextInt(3) == 0 ? "write-through" : "write-back");
        flags.put("pagecache.nvm.remapping", r.nextBoolean() ? "start-gap" : "none");
        flags.put("pagecache.nvm.write_aware", Boolean.toString(r.nextInt(3) == 0));
        flags.put("pagecache.nvm.prefetch", Integer.toString(r.nextBoolean() ? 0 : 1 + r.nextInt(16)));
        switch (r.nextInt(3)) {
            case 0 -> flags.put("pagecache.nvm.profile", "dram");
            case 1 -> {
                flags.put("pagecache.nvm.profile", "nvme-fast");
                flags.put("pagecache.nvm.inject_latency", "false");
            }
            default -> {
                flags.put("pagecache.nvm.read_latency", (1 + r.nextInt(5)) + "us");
                flags.put("pagecache.nvm.write_latency", (1 + r.nextInt(10)) + "us");
            }
        }
    }

    /**
     * Whether the scenario makes the {@code generation}-th cache's NVM tier itself and gives it to the cache
     * ({@code PageCache.open(config, tier)}), as a host that keeps the tier does: half the caches with the tier, from a
     * draw of its own (so that the seeds of earlier runs draw the rest as before).
     */
    boolean hostTier(int generation, PageCacheConfig cacheConfig) {
        return "nvm".equals(cacheConfig.swap()) && new SplittableRandom(RunSettings.mix(seed, 6000 + generation)).nextBoolean();
    }

    static String describe(PageCacheConfig c) {
        return c.policy() + ", " + c.frames() + " frames, evictor " + (c.evictorEnabled() ? "on" : "off")
            + ("nvm".equals(c.swap()) ? ", nvm " + c.getSize("pagecache.nvm.capacity") / c.pageSize() + " slots "
            + c.getString("pagecache.nvm.write_policy") + (c.getBoolean("pagecache.nvm.write_aware") ? " write-aware" : "")
            + (c.getInt("pagecache.nvm.prefetch") > 0 ? " prefetch " + c.getInt("pagecache.nvm.prefetch") : "") : "")
            + (c.evictorEnabled() ? ", keep_free " + c.keepFree() : "")
            + (c.getInt("pagecache.flush.iops_limit") > 0 ? ", flush iops " + c.getInt("pagecache.flush.iops_limit") : "")
            + (c.getBoolean("pagecache.warmup.enabled") ? ", warm-up every " + c.getString("pagecache.warmup.profile_interval")
                : ", warm-up off") + (c.getBoolean("pagecache.jmx.enabled") ? "" : ", jmx off");
    }

    @Override
    public String toString() {
        return "scenario " + index + " [seed " + seed + ", threads " + threads + ", cache page size " + cachePageSize() + ", file page sizes " + filePageSizes
            + ", pages " + filePages + ", ops/thread " + opsPerThread
            + (faulty ? ", disk faults " + faultsPerTenThousand + "/10000" : "") + (slowReads ? ", slow reads" : "")
            + (nvm ? ", nvm tier" : "") + "]";
    }
}
