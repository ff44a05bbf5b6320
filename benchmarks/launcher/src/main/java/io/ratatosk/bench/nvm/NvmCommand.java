package io.ratatosk.bench.nvm;

import io.ratatosk.bench.jmh.ThreadCounts;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.ScratchFiles;
import io.ratatosk.bench.nvm.NvmRun.Mix;
import io.ratatosk.bench.nvm.NvmRun.Result;
import io.ratatosk.bench.sim.DiskSpace;
import io.ratatosk.bench.sim.OutputFile;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.nvm.NvmDeviceConfig;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bench nvm}: the NVM tier's targets, measured through the real page cache. */
@Command(name = "nvm", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Measures the emulated NVM tier (pagecache.swap=nvm) through the page cache.",
        "reads: DRAM frames and NVM as shares of a file, random whole-page reads, the NVM profile's latency"
            + " injected, against the same frames over the file alone. The file is modeled as a storage device"
            + " with --file-latency-us per page operation in both runs. Prints ops/s and wall time next to the"
            + " modeled device time.",
        "write-aware: pagecache.nvm.write_aware off and on, on read/write mixes (latency counted, not injected):"
            + " NVM writes, misses and dirty evictions."},
    footer = {"", "Examples:",
        "  ./bench nvm",
        "  ./bench nvm --experiment reads --profile nvme-fast --file-latency-us 80",
        "  ./bench nvm --experiment write-aware --mix-ops 500000",
        "Docs: docs/nvm.md"})
public final class NvmCommand implements Callable<Integer> {
    private static final String FILE_NAME = "nvm-bench.db";
    /** The slowest file device modeled: a second per page operation, a hundred times a slow disk's seek. */
    private static final long MAX_FILE_LATENCY_MICROS = 1_000_000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--experiment", paramLabel = "NAME", defaultValue = "all",
        description = "reads, write-aware or all. Default: ${DEFAULT-VALUE}.")
    private String experiment;

    @Option(names = "--pages", paramLabel = "N", defaultValue = "20000", description = "File size in pages. Default: ${DEFAULT-VALUE}.")
    private long pages;

    @Option(names = "--page-size", paramLabel = "BYTES", defaultValue = "8192", description = "Page size. Default: ${DEFAULT-VALUE}.")
    private int pageSize;

    @Option(names = "--dram", paramLabel = "SHARE", defaultValue = "0.10",
        description = "Page frames as a share of the file. Default: ${DEFAULT-VALUE}.")
    private double dram;

    @Option(names = "--nvm", paramLabel = "SHARE", defaultValue = "0.40",
        description = "NVM capacity as a share of the file. Default: ${DEFAULT-VALUE}.")
    private double nvm;

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "nvme",
        description = "pagecache.nvm.profile for the reads experiment. Default: ${DEFAULT-VALUE}.")
    private String profile;

    @Option(names = "--devices", paramLabel = "N", defaultValue = "1",
        description = "pagecache.nvm.devices. Default: ${DEFAULT-VALUE}.")
    private int devices;

    @Option(names = "--file-latency-us", paramLabel = "US", defaultValue = "150",
        description = "Modeled latency of one page read or write of the file, in microseconds (an assumption: a"
            + " SATA-class SSD); 0 leaves the file in the OS page cache. Default: ${DEFAULT-VALUE}.")
    private long fileLatencyMicros;

    @Option(names = "--ops", paramLabel = "N", defaultValue = "40000",
        description = "Measured operations of the reads experiment. Default: ${DEFAULT-VALUE}.")
    private long ops;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "20000",
        description = "Operations before measuring, in the reads experiment. Default: ${DEFAULT-VALUE}.")
    private long warmup;

    @Option(names = "--mix-ops", paramLabel = "N", defaultValue = "400000",
        description = "Measured operations of each write-aware run, after as many to warm up. Default: ${DEFAULT-VALUE}.")
    private long mixOps;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
        description = "Threads issuing operations. Default: ${DEFAULT-VALUE}.")
    private int threads;

    @Option(names = "--policy", paramLabel = "NAME", defaultValue = "muninn",
        description = "pagecache.policy, with overrides as in ./bench sim (e.g. global-clock:max_usage=4); default stands for"
            + " the page cache's default policy. Default: ${DEFAULT-VALUE}.")
    private String policy;
    /** {@link #policy} parsed, set by {@code checkConfiguration} before anything runs. */
    private PolicySpec policySpec;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Workload seed. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--io", paramLabel = "MODE", defaultValue = "buffered",
        description = "How the file is read and written: buffered or direct (O_DIRECT; pagecache.io). Default: ${DEFAULT-VALUE}.")
    private String io;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "Where to create the file, in a folder of its own deleted after the run (default: the temporary directory).")
    private Path dir;

    @Override
    public Integer call() throws Exception {
        if (!List.of("all", "reads", "write-aware").contains(experiment)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--experiment must be reads, write-aware or all: " + experiment);
        }
        checkFlags();
        long frames = Math.max(2, Math.round(pages * dram));
        long slots = Math.max(1, Math.round(pages * nvm));
        checkConfiguration(frames, slots);
        if (dir != null) {
            try {
                // an empty one (a script's unset variable) was the current folder, used without a word
                OutputFile.refuseFile("--dir", dir);
                OutputFile.check("--dir", dir.resolve(FILE_NAME));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        // A folder of our own, in --dir too: a file there already (nvm-bench.db the user keeps) is neither overwritten
        // nor deleted. Deleted also when the run is stopped (Ctrl-C).
        ScratchFiles scratch = ScratchFiles.create(dir, "ratatosk-nvm");
        Path workDir = scratch.folder();
        Path path = workDir.resolve(FILE_NAME);
        try (CleanUp deleteScratch = CleanUp.closing(List.of(scratch))) { // its failure said after the run's
            DiskSpace.require(workDir, DiskSpace.bytes(pages, pageSize), "--pages " + pages + " x --page-size " + pageSize);
            NvmRun.createFile(path, pages, pageSize);
            out.printf(Locale.ROOT, "file %d pages of %d bytes; frames %d (%.0f%%), NVM %d slots (%.0f%%); policy %s; %d thread(s); seed %d%n",
                pages, pageSize, frames, 100.0 * frames / pages, slots, 100.0 * slots / pages, policySpec.text(), threads, seed);
            out.flush();
            if (!experiment.equals("write-aware")) {
                reads(out, path, frames, slots);
            }
            if (!experiment.equals("reads")) {
                writeAware(out, path, frames, slots);
            }
        }
        out.flush();
        return 0;
    }

    /** Each number in its range, named, before a file is written: none of these can give a meaningful run. */
    private void checkFlags() {
        List<String> wrong = new ArrayList<>();
        require(wrong, ThreadCounts.inRange(List.of(threads)), ThreadCounts.outOfRange("--threads", threads));
        require(wrong, pages >= 10, "--pages must be at least 10: " + pages);
        // above 1 the cache (or the tier) is larger than the file: nothing of the tier left to measure
        require(wrong, dram > 0 && dram <= 1, "--dram must be a share above 0 and at most 1 (0.10 for 10%): " + dram);
        require(wrong, nvm > 0 && nvm <= 1, "--nvm must be a share above 0 and at most 1 (0.40 for 40%): " + nvm);
        require(wrong, ops >= 1, "--ops must be at least 1: " + ops);
        require(wrong, warmup >= 0, "--warmup must be 0 or more: " + warmup);
        require(wrong, mixOps >= 1, "--mix-ops must be at least 1: " + mixOps);
        // in nanoseconds, times every file read, it overflowed: the modeled time came out negative, with status 0
        require(wrong, fileLatencyMicros >= 0 && fileLatencyMicros <= MAX_FILE_LATENCY_MICROS, "--file-latency-us must be"
            + " from 0 to " + MAX_FILE_LATENCY_MICROS + " (a second): " + fileLatencyMicros);
        if (!wrong.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", wrong));
        }
    }

    private static void require(List<String> wrong, boolean ok, String message) {
        if (!ok) {
            wrong.add(message);
        }
    }

    /**
     * The page cache and NVM flags both runs will use (--policy, --profile, --devices, --io, --page-size), parsed
     * before the file is written, so that a typo is a usage error up front, not a failure after the first run.
     */
    private void checkConfiguration(long frames, long slots) {
        try {
            policySpec = PolicyCatalog.standard().parsePageCachePolicy(policy);
            PageCacheConfig.parse(flags(frames, slots, "file"));
            NvmDeviceConfig.from(PageCacheConfig.parse(flags(frames, slots, "nvm")));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            if (message.startsWith("pagecache.memory=") || message.startsWith("pagecache.nvm.capacity=")) {
                // flags the user never wrote: say which of theirs they come from
                message += String.format(Locale.ROOT, " (pagecache.memory is --pages %,d x --dram %s, pagecache.nvm.capacity"
                    + " --pages x --nvm %s, in pages of --page-size %d)", pages, dram, nvm, pageSize);
            } else {
                message = optionGiven(message) + message;
            }
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    /**
     * "--devices 0: " where {@code refusal} is that of a page cache flag one option sets as it is (--devices is
     * pagecache.nvm.devices, --policy the policy's flags), or of --policy itself: said alone, it named a flag the user
     * never wrote ('pagecache.clock.max_usage=99' for max_usage=99). Empty for any other refusal.
     */
    private String optionGiven(String refusal) {
        if (policySpec == null) { // the catalog refused --policy, its name or one of its flags
            return "--policy " + policy + ": ";
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("pagecache.page_size", "--page-size " + pageSize);
        options.put("pagecache.nvm.devices", "--devices " + devices);
        options.put("pagecache.nvm.profile", "--profile " + profile);
        options.put("pagecache.io", "--io " + io);
        options.put("pagecache.policy", "--policy " + policy);
        policySpec.flags().keySet().forEach(flag -> options.put(flag, "--policy " + policy));
        for (Map.Entry<String, String> each : options.entrySet()) {
            if (refusal.startsWith(each.getKey() + "=")) {
                return each.getValue() + ": ";
            }
        }
        return "";
    }

    /** {@code pages} of --page-size in bytes, at most Long.MAX_VALUE: it overflowed to a negative pagecache.memory. */
    private long bytes(long pages) {
        return Math.multiplyHigh(pages, pageSize) != 0 || pages * pageSize < 0 ? Long.MAX_VALUE : pages * pageSize;
    }

    private Map<String, String> flags(long frames, long slots, String swap) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(bytes(frames)));
        flags.put("pagecache.page_size", String.valueOf(pageSize));
        flags.put("pagecache.policy", policySpec.name());
        flags.putAll(policySpec.flags());
        flags.put("pagecache.swap", swap);
        flags.put("pagecache.nvm.capacity", String.valueOf(bytes(slots)));
        flags.put("pagecache.nvm.devices", String.valueOf(devices));
        flags.put("pagecache.nvm.profile", profile);
        flags.put("pagecache.io", io);
        return flags;
    }

    private void reads(PrintWriter out, Path path, long frames, long slots) throws Exception {
        long fileLatency = fileLatencyMicros * 1_000;
        out.printf(Locale.ROOT, "%nreads: uniform random page reads; %d warm-up and %d measured operations; file device %d us per page;"
            + " NVM profile %s, latency injected%n", warmup, ops, fileLatencyMicros, profile);
        Result file = NvmRun.run("file only", flags(frames, slots, "file"), fileLatency, path, pages, Mix.RANDOM_READS,
            warmup, ops, threads, seed);
        Result tier = NvmRun.run("nvm " + profile, flags(frames, slots, "nvm"), fileLatency, path, pages, Mix.RANDOM_READS,
            warmup, ops, threads, seed);
        out.printf(Locale.ROOT, "%-14s %10s %9s %7s %8s %10s %10s %10s %12s %12s %12s %9s%n", "config", "ops/s", "wall ms", "hit %",
            "nvm-in %", "file rd", "nvm rd", "nvm wr", "nvm model ms", "nvm inj ms", "file model ms", "energy J");
        for (Result r : List.of(file, tier)) {
            long pins = r.hits() + r.faults();
            out.printf(Locale.ROOT, "%-14s %10.0f %9.1f %7.2f %8.2f %10d %10d %10d %12.1f %12.1f %12.1f %9.4f%n", r.label(),
                r.opsPerSecond(), r.wallNanos() / 1e6, 100.0 * r.hits() / pins, 100.0 * r.swapIns() / pins, r.fileReads(),
                r.nvmReads(), r.nvmWrites(), r.nvmModeledNanos() / 1e6, r.nvmInjectedNanos() / 1e6,
                r.fileModeledNanos() / 1e6, r.nvmEnergyJoules());
        }
        out.printf(Locale.ROOT, "nvm vs file only: %.2fx the ops/s; modeled device time per op: file only %.1f us, nvm %.1f us"
                + " (file %.1f + nvm %.1f); wall time per op: %.1f us vs %.1f us%n",
            tier.opsPerSecond() / file.opsPerSecond(), file.fileModeledNanos() / 1e3 / file.ops(),
            (tier.fileModeledNanos() + tier.nvmModeledNanos()) / 1e3 / tier.ops(), tier.fileModeledNanos() / 1e3 / tier.ops(),
            tier.nvmModeledNanos() / 1e3 / tier.ops(), file.wallNanos() / 1e3 / file.ops(), tier.wallNanos() / 1e3 / tier.ops());
        long nvmRead = NvmDeviceConfig.from(PageCacheConfig.parse(flags(frames, slots, "nvm"))).readLatencyNanos();
        out.printf(Locale.ROOT, "modeled time of the reads a fault waits for (the evictor writes NVM off that path), per op:"
                + " file only %.1f us, nvm %.1f us (%s)%n", file.faultPathModeledNanos(0) / 1e3 / file.ops(),
            tier.faultPathModeledNanos(nvmRead) / 1e3 / tier.ops(),
            times(file.faultPathModeledNanos(0), tier.faultPathModeledNanos(nvmRead)));
        out.flush();
    }

    private void writeAware(PrintWriter out, Path path, long frames, long slots) throws Exception {
        out.printf(Locale.ROOT, "%nwrite-aware: 30%% writes, %d warm-up and %d measured operations per run; latency counted, not injected;"
            + " file device not modeled%n", mixOps, mixOps);
        out.printf(Locale.ROOT, "%-22s %-11s %10s %10s %10s %10s %8s %10s %8s%n", "mix", "write-aware", "misses", "dirty ev",
            "nvm writes", "nvm wr/kop", "budget", "skips", "ops/s");
        for (Mix mix : List.of(Mix.WRITES_ON_A_HOT_TENTH, Mix.UNIFORM_WRITES)) {
            List<Result> results = new ArrayList<>();
            for (boolean aware : new boolean[] {false, true}) {
                Map<String, String> flags = flags(frames, slots, "nvm");
                flags.put("pagecache.nvm.inject_latency", "false");
                flags.put("pagecache.nvm.write_aware", String.valueOf(aware));
                Result r = NvmRun.run(mix.name(), flags, 0, path, pages, mix, mixOps, mixOps, threads, seed);
                results.add(r);
                out.printf(Locale.ROOT, "%-22s %-11s %10d %10d %10d %10.1f %8d %10d %8.0f%n", mix.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                    aware, r.faults(), r.dirtyEvictions(), r.nvmWrites(), r.nvmWrites() * 1000.0 / r.ops(),
                    r.nvmAfter().writeAwareBudget(), r.nvmAfter().dirtySkips() - r.nvmBefore().dirtySkips(), r.opsPerSecond());
                out.flush();
            }
            Result plain = results.get(0);
            Result aware = results.get(1);
            out.printf(Locale.ROOT, "  write-aware vs plain: NVM writes %+.1f%%, misses %+.1f%%, dirty evictions %+.1f%%%n",
                change(plain.nvmWrites(), aware.nvmWrites()), change(plain.faults(), aware.faults()),
                change(plain.dirtyEvictions(), aware.dirtyEvictions()));
        }
    }

    /** {@code from / to} as "2.50x"; no ratio where nothing was modeled (--file-latency-us 0 and no NVM read). */
    private static String times(long from, long to) {
        return from == 0 || to == 0 ? "no ratio: " + (from == 0 ? "file only" : "nvm") + " modeled no time"
            : String.format(Locale.ROOT, "%.2fx", (double) from / to);
    }

    private static double change(long from, long to) {
        return from == 0 ? 0 : 100.0 * (to - from) / from;
    }
}
