package io.ratatosk.bench.jmh;

import io.ratatosk.nvm.NvmProfile;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.nvm.NvmTierStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * What the NVM tier's swaps cost, per device profile, against our cache without the tier in the same run:
 * {@link FaultPathBenchmark}'s cache of {@value FaultPathBenchmark#FRAMES} frames over a file
 * {@value #FILE_TO_CACHE} times larger, uniform page ids, the background evictor off so that each operation
 * pays for its own eviction. {@code tier=file} is the reference ({@code pagecache.swap=file}: faults read the
 * file, which sits in the OS page cache); {@code tier=nvm-<profile>} puts the emulated NVM tier, with that
 * profile's latency injected, in front of it, big enough for the whole file. Two passes over the file before
 * the run: after the first, every page is in the frames or in NVM, so every fault is a swap-in; the second
 * puts nearly all of the first pass's last pages through an eviction too, so few clean pages are stored in NVM
 * for the first time during the run.
 *
 * <p>{@code read}: a fault swaps a page in and evicts a clean page, whose copy NVM already holds (no write):
 * the swap-in cost. {@code write}: through a write cursor, so every evicted page is dirty and written to NVM
 * (write-back; the file is written only when the cache closes): a swap-in plus a swap-out per fault. With
 * {@code tier=file} the same operations read, and write back, the file.
 *
 * <p>Secondary results: {@code pagesRead} (file reads; 0 with NVM once warm) and {@code swapIns} (faults
 * NVM served), so the frames' hit ratio is {@code 1 - (pagesRead + swapIns) / ops} on every tier.
 */
public class NvmSwapBenchmark extends PageBenchmark {
    /** The reference tier: our cache with {@code pagecache.swap=file}. */
    public static final String FILE = "file";
    /** Prefix of the NVM tiers: {@code nvm-} and a {@code pagecache.nvm.profile} value. */
    public static final String NVM = "nvm-";
    static final int FILE_TO_CACHE = 4;
    /** NVM slots per page of the file: room for all of it, so the tier never reclaims a slot. */
    private static final double NVM_PER_FILE_PAGE = 1.25;

    /** The tiers at the time of writing; {@code ./bench jmh} replaces them with {@link #tiers()}. */
    @Param({FILE, "nvm-nvme", "nvm-nvme-fast", "nvm-pcm", "nvm-dram"})
    public String tier;

    /** The reference and one NVM tier per profile there is, the reference first. */
    public static List<String> tiers() {
        List<String> tiers = new ArrayList<>();
        tiers.add(FILE);
        for (NvmProfile p : NvmProfile.values()) {
            tiers.add(NVM + p.flagValue());
        }
        return tiers;
    }

    /** Our cache's flags for {@code tier} over a file of {@code pages} pages. */
    static Map<String, String> flags(String tier, long pages) {
        if (FILE.equals(tier)) {
            return Map.of("pagecache.swap", "file");
        }
        if (tier.startsWith(NVM)) {
            // a bad profile name fails in PageCacheConfig, with a message naming the flag and the accepted values
            return Map.of(
                "pagecache.swap", "nvm",
                "pagecache.nvm.profile", tier.substring(NVM.length()),
                "pagecache.nvm.capacity", Long.toString((long) Math.ceil(pages * NVM_PER_FILE_PAGE) * BenchFile.PAGE_SIZE));
        }
        throw new IllegalArgumentException("tier must be " + FILE + " or " + NVM + "<profile>, one of " + tiers()
            + ": tier=" + tier);
    }

    @Setup(Level.Trial)
    public void open() throws IOException {
        int frames = FaultPathBenchmark.FRAMES;
        long pages = (long) frames * FILE_TO_CACHE;
        workload = Workload.open(CacheSide.RATATOSK, pages, frames, HitPathBenchmark.POLICY, false, 2, flags(tier, pages));
        try {
            checkEveryPageIsInNvm();
        } catch (RuntimeException e) {
            workload.close();
            throw e;
        }
    }

    /**
     * Every page was read in the warm-up, so each one is in the frames or, once evicted, in NVM, unless the tier
     * dropped it: then faults of it would read the file and the NVM rows would measure a mix.
     */
    private void checkEveryPageIsInNvm() {
        NvmSwapStore nvm = (NvmSwapStore) ((RatatoskSide) workload.cache()).cache().tier();
        if (nvm == null) {
            return;
        }
        NvmTierStats s = nvm.stats();
        if (s.bypasses() != 0 || s.nvmEvictions() != 0 || s.invalidations() != 0) {
            throw new IllegalStateException("the NVM tier dropped pages during the warm-up (bypasses=" + s.bypasses()
                + ", slots reclaimed=" + s.nvmEvictions() + ", invalidations=" + s.invalidations() + "), so faults would"
                + " read the file; it holds " + s.residentPages() + " of " + workload.pages() + " pages");
        }
    }

    @Benchmark
    public long read(Reader reader) throws IOException {
        return PageOps.read(reader.cursor, reader.ids.next());
    }

    @Benchmark
    public void write(Writer writer) throws IOException {
        PageOps.write(writer.cursor, writer.ids.next());
    }

    /** What this benchmark's threads count beyond {@link IterationCounters}. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class SwapIns {
        /** Pages NVM served during the iteration, as a rate beside ops/us. */
        public long swapIns;
    }

    /** A thread of this benchmark: a {@link ThreadCursor} that also reports the iteration's swap-ins. */
    public abstract static class SwapThread extends ThreadCursor {
        @TearDown(Level.Iteration)
        public void countSwapIns(SwapIns counter) {
            counter.swapIns = workload().takeSwapIns();
        }
    }

    /** A thread's read cursor and page ids. */
    @State(Scope.Thread)
    public static class Reader extends SwapThread {
        @Setup(Level.Trial)
        public void open(NvmSwapBenchmark bench, ThreadParams thread) throws IOException {
            bindReader(bench.workload, PageIds.UNIFORM, thread);
        }
    }

    /** A thread's write cursor and page ids. */
    @State(Scope.Thread)
    public static class Writer extends SwapThread {
        @Setup(Level.Trial)
        public void open(NvmSwapBenchmark bench, ThreadParams thread) throws IOException {
            bindWriter(bench.workload, PageIds.UNIFORM, thread);
        }
    }
}
