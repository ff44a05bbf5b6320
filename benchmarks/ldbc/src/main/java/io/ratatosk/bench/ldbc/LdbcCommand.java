package io.ratatosk.bench.ldbc;

import io.ratatosk.bench.ldbc.run.Budget;
import io.ratatosk.bench.ldbc.run.CacheSpec;
import io.ratatosk.bench.ldbc.run.DataCacheLock;
import io.ratatosk.bench.ldbc.run.LdbcChart;
import io.ratatosk.bench.ldbc.run.LdbcDatasets;
import io.ratatosk.bench.ldbc.run.LdbcReport;
import io.ratatosk.bench.ldbc.run.LdbcRun;
import io.ratatosk.bench.ldbc.run.ResultDump;
import io.ratatosk.bench.ldbc.run.RunResult;
import io.ratatosk.bench.ldbc.run.SubstitutionParameters;
import io.ratatosk.bench.ldbc.run.TraceRecorder;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreFile;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.ldbc.update.UpdatePrecheck;
import io.ratatosk.bench.ldbc.update.UpdateStreams;
import io.ratatosk.bench.sim.FlagSettings;
import io.ratatosk.bench.sim.OutputFile;
import io.ratatosk.bench.sim.PageTraceWriter;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.ScratchFiles;
import io.ratatosk.bench.sim.TraceFormat;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bench ldbc}: the LDBC-style read benchmark on the example graph store, policy against policy. */
@Command(name = "ldbc", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Runs LDBC SNB Interactive reads (IS1-IS7, IC1-IC14) on an example graph store whose every"
            + " page goes through the page cache, once per policy and cache size, and reports throughput, latency"
            + " percentiles per query, hit ratio, faults and evictions. Writes summary.json and charts to --out.",
        "With no flags: a generated graph of scale 1 (generated and loaded once into --data-cache), its update stream"
            + " interleaved with the reads, two query threads, a cache of 10%% of the store, the default"
            + " policy against muninn and clock-pro (" + LdbcCommand.DEFAULT_POLICIES + ")."},
    footer = {"", "Examples:",
        "  ./bench ldbc",
        "  ./bench ldbc --data sample --dump-results results.jsonl",
        "  ./bench ldbc --data generated:3 --cache 5%%,10%%,25%% --policies muninn,global-clock:max_usage=7",
        "  ./bench ldbc --record-trace ldbc.pagetrace.gz   (then the ./bench sim command it prints)",
        "Docs: docs/ldbc.md"})
public final class LdbcCommand implements Callable<Integer> {
    static final String DEFAULT_DATA = "generated:1";
    /**
     * The main job's budget: with faults paid on the device (--io auto picks direct IO where it can) a run of the
     * whole workload does about 60 operations a second on a 2-core VM's disk, so three policies of 1,000 warm-up
     * and 2,500 measured operations, plus generation and loading, take about five minutes.
     */
    static final String DEFAULT_WARMUP = "1000";
    static final String DEFAULT_OPS = "2500";
    /**
     * The main job's policies: the default (reported under its own name), muninn (Neo4j's clock, the default
     * before best-of) and clock-pro (the strongest single policy, and best-of's start).
     */
    static final String DEFAULT_POLICIES = "default,muninn,clock-pro";
    /**
     * The sample's default measured reads: enough that the whole update stream (6,920 updates, about
     * 2.73 per complex read and so one per 7 reads) is applied along with them.
     */
    static final String DEFAULT_SAMPLE_OPS = "50000";

    /** The page cache flags this command sets from its own options, which --set must not set too. */
    private static final Map<String, String> OPTION_FOR_FLAG = Map.of(
        "pagecache.memory", "--cache", "pagecache.policy", "--policies", "pagecache.swap", "--swap", "pagecache.io", "--io");

    /**
     * Query threads a run may have: each is a platform thread with its own stream, reader and histograms, started
     * anew for every phase; --threads 99999999 ran out of heap with a stack trace, and far fewer run out of native
     * threads.
     */
    static final int MAX_THREADS = 1024;

    @Spec
    private CommandSpec spec;

    @Option(names = "--data", paramLabel = "DATA", defaultValue = DEFAULT_DATA,
        description = "sample (the shipped LDBC sample), generated:SCALE (scale 1: 10,000 persons, a ~260 MiB store),"
            + " or a folder of LDBC CSV (vanilla layout with substitution_parameters/). Default: ${DEFAULT-VALUE}.")
    private String data;

    @Option(names = "--cache", paramLabel = "SIZE", split = ",", defaultValue = "10%",
        description = "Cache sizes, comma separated or repeated: a share of the store (10%%) or a size (64m, 1g)."
            + " Default: ${DEFAULT-VALUE}.")
    private List<String> cache;

    @Option(names = "--policies", paramLabel = "LIST",
        description = "Policies, comma separated, each name[:flag=value]... (e.g. global-clock:max_usage=7); default"
            + " is pagecache.policy's default, reported under its name; all runs every policy there is."
            + " Default: " + DEFAULT_POLICIES + ".")
    private String policies;

    @Option(names = "--swap", paramLabel = "TIER", defaultValue = "file",
        description = "Behind the frames: file, or nvm (the emulated NVM tier; its flags via --set"
            + " pagecache.nvm.*=..., capacity by default the store's size). Default: ${DEFAULT-VALUE}.")
    private String swap;

    /** The window over which --restart measures the hit ratio of a restarted cache. */
    private static final long RESTART_WINDOW_OPS = 10;

    @Option(names = "--io", paramLabel = "MODE", defaultValue = "auto",
        description = "How the store is read and written (pagecache.io): buffered (through the OS page cache), direct"
            + " (O_DIRECT, faults paid on the device), or auto: direct where the store's file system allows it, else"
            + " buffered, saying so in one line. Default: ${DEFAULT-VALUE}.")
    private String io;

    @Option(names = "--restart", description = "Instead of the usual report: per policy and size, a full run, then a"
        + " restart with and without the warm-up, and the operations each needs to reach 90%% of the steady hit ratio.")
    private boolean restart;

    @Option(names = "--set", paramLabel = "FLAG=VALUE",
        description = "Any other page cache or NVM flag, repeatable, e.g. --set pagecache.evictor.enabled=false; a flag"
            + " given twice with different values is refused.")
    private List<String> settings = new ArrayList<>();

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2",
        description = "Threads running queries, each its own deterministic stream; at most " + MAX_THREADS + "."
            + " Default: ${DEFAULT-VALUE}.")
    private int threads;

    @Option(names = "--updates", paramLabel = "MODE", defaultValue = "interleaved",
        description = "interleaved: apply the data set's update streams (IU1-IU8) between the reads at LDBC's ratio,"
            + " on a copy of the loaded store; none: reads only. Default: ${DEFAULT-VALUE}.")
    private String updates;

    @Option(names = "--warmup", paramLabel = "N|TIME", defaultValue = DEFAULT_WARMUP,
        description = "Warm-up from a cold cache before measuring: operations, or a time (30s). Default: ${DEFAULT-VALUE}.")
    private String warmup;

    @Option(names = "--ops", paramLabel = "N",
        description = "Measured operations (queries; updates come on top) per run. Default: " + DEFAULT_OPS
            + " (" + DEFAULT_SAMPLE_OPS + " with --data sample, so that its whole update stream is applied).")
    private Long ops;

    @Option(names = "--duration", paramLabel = "TIME",
        description = "Measure for this long instead of a number of operations (60s, 2m).")
    private String duration;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
        description = "Seed of the generator and of the query streams. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--out", paramLabel = "DIR",
        description = "Output folder for summary.json and the charts. Default: bench-out/ldbc/<date-time>, a new folder"
            + " (-2, -3, ... after it for runs started in the same second).")
    private Path out;

    @Option(names = "--data-cache", paramLabel = "DIR",
        description = "Where generated data and loaded stores are kept for later runs. Default: .bench/ldbc-data.")
    private Path dataCache;

    @Option(names = "--reload", description = "Generate and load again even if the data cache holds the store.")
    private boolean reload;

    @Option(names = "--dump-results", paramLabel = "FILE",
        description = "Write every query of the first run (warm-up included) with its rows, one JSON object per line.")
    private Path dumpResults;

    @Option(names = "--record-trace", paramLabel = "FILE",
        description = "Record the first run's page accesses (warm-up included) as a page trace (.pagetrace or"
            + " .pagetrace.gz) for ./bench sim.")
    private Path recordTrace;

    @Option(names = "--quiet", description = "No progress on stderr.")
    private boolean quiet;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        List<CacheSpec> caches = usage(() -> named("--cache", () -> CacheSpec.parseList(cache)));
        List<PolicySpec> specs = usage(() -> policies(policies));
        Budget warm = usage(() -> named("--warmup", () -> Budget.parse(warmup)));
        Budget measured = usage(this::measured);
        if (threads < 1 || threads > MAX_THREADS) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.format(Locale.ROOT,
                "--threads must be in [1, %,d]: %,d", MAX_THREADS, threads));
        }
        if (!updates.equals("interleaved") && !updates.equals("none")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--updates must be interleaved or none: " + updates);
        }
        if (!swap.equals("file") && !swap.equals("nvm")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--swap must be file or nvm: " + swap);
        }
        if (restart && swap.equals("nvm")) {
            // The restarts open plain caches: the tier's copies would not survive a restart anyway (it starts empty).
            throw new CommandLine.ParameterException(spec.commandLine(), "--restart measures the file cache's reheat and"
                + " runs without the NVM tier: leave out --swap nvm");
        }
        if (restart && threads != 1 && spec.commandLine().getParseResult().hasMatchedOption("--threads")) {
            // The restarts run one thread, so that both see the same operations in the same order: --threads 8 ran one
            // and reported nothing of the eight asked for.
            throw new CommandLine.ParameterException(spec.commandLine(), String.format(Locale.ROOT, "--restart runs one"
                + " thread of queries (both restarts must see the same operations in the same order): --threads %,d is"
                + " not one; leave it out", threads));
        }
        if (restart && (dumpResults != null || recordTrace != null)) {
            // The restarts have no first run of the usual report to dump or record: the file was never written, and
            // the command ended as if it had been.
            throw new CommandLine.ParameterException(spec.commandLine(), "--restart writes no "
                + (dumpResults != null ? "--dump-results" : "--record-trace") + " (its runs are the full run and the"
                + " two restarts, not the usual report's first run): leave it out, or run without --restart");
        }
        if (!io.equals("auto") && !io.equals("buffered") && !io.equals("direct")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--io must be auto, buffered or direct: " + io);
        }
        Map<String, String> cacheFlags = new LinkedHashMap<>();
        Map<String, String> nvmFlags = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : usage(() -> FlagSettings.parse("--set", settings)).entrySet()) {
            String flag = e.getKey();
            String option = OPTION_FOR_FLAG.get(flag);
            if (option != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), flag + " is set by " + option + ", not --set");
            }
            Optional<String> policyFlag = FlagSettings.policyFlagRefusal(flag, e.getValue());
            if (policyFlag.isPresent()) {
                throw new CommandLine.ParameterException(spec.commandLine(), policyFlag.get());
            }
            if (flag.startsWith("pagecache.nvm.") && !swap.equals("nvm")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--set " + flag + " takes effect with"
                    + " --swap nvm only; this run has --swap " + swap);
            }
            (flag.startsWith("pagecache.nvm.") ? nvmFlags : cacheFlags).put(flag, e.getValue());
        }
        // Every run's flags but the cache's size, before minutes of generating and loading.
        int pageSize = usage(() -> LdbcRun.checkFlags(cacheFlags, nvmFlags, specs, swap.equals("nvm")));
        // And the sizes that do not depend on the store's (64m, not 10%), at that size.
        usage(() -> {
            LdbcRun.checkSizes(cacheFlags, specs, caches, pageSize);
            return null;
        });
        Path root = repositoryRoot();
        Path cacheDir = dataCache != null ? dataCache : root.resolve(".bench").resolve("ldbc-data");
        Path defaultOuts = root.resolve("bench-out").resolve("ldbc");
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path plannedOut = out != null ? out : defaultOuts.resolve(stamp);
        Path[] freshOut = {null};
        // The folders the checks below make for --record-trace and --dump-results go again, as --out's does, if the run
        // writes nothing into them (a check refusing the next path, a bad update stream, Ctrl-C): left behind, empty.
        // One that will not go is said after the run's own failure, not instead of it.
        try (CleanUp madeFolders = CleanUp.closing(ScratchFiles.foldersMadeFor(recordTrace, dumpResults))) {
            // The data's name, and the paths written only once the data is ready and the runs are done: refused now, not
            // after minutes of work. The folders are made now; --out is removed again if the run writes nothing into it.
            Path madeOut = usage(() -> {
                LdbcDatasets.check(data);
                List<Path> inputs = dataFiles();
                refuseClash("--record-trace", recordTrace, "--dump-results", dumpResults);
                for (String report : REPORT_FILES) {
                    refuseClash("--record-trace", recordTrace, "--out", plannedOut.resolve(report));
                    refuseClash("--dump-results", dumpResults, "--out", plannedOut.resolve(report));
                }
                refuseInside("--record-trace", recordTrace, "--data-cache", cacheDir);
                refuseInside("--dump-results", dumpResults, "--data-cache", cacheDir);
                if (out != null) {
                    refuseInside("--out", plannedOut, "--data-cache", cacheDir);
                } else if (resolved(plannedOut).startsWith(resolved(cacheDir))) {
                    // Said as --out's refusal, it named an option the user never gave: --data-cache . in the checkout
                    throw new IllegalArgumentException("the default --out, " + plannedOut + ", is inside --data-cache "
                        + cacheDir + ", the runner's own copies of the data: give --out a folder elsewhere, or a"
                        + " --data-cache that does not hold " + defaultOuts);
                }
                if (recordTrace != null) { // before its folder is made
                    PageTraceWriter.checkName("--record-trace", recordTrace);
                }
                if (dumpResults != null) {
                    ResultDump.checkName("--dump-results", dumpResults);
                }
                OutputFile.check("--record-trace", recordTrace, inputs);
                OutputFile.check("--dump-results", dumpResults, inputs);
                OutputFile.refuseFile("--out", plannedOut); // before the data cache is made
                OutputFile.createFolder("--data-cache", cacheDir);
                if (out != null) {
                    return OutputFile.createFolder("--out", out);
                }
                // Without --out, a folder of this run's own: two runs started in one second shared one, and the later
                // report overwrote the earlier's.
                Path top = OutputFile.createFolder("--out", defaultOuts);
                freshOut[0] = freshFolder(defaultOuts, stamp);
                return top != null ? top : freshOut[0];
            });
            Path outDir = out != null ? out : freshOut[0];
            // Also when the run is stopped (Ctrl-C), which skips finally: no empty bench-out/ldbc/<date-time> left behind.
            try (CleanUp emptyOut = CleanUp.closing(List.of(ScratchFiles.unlessWritten(madeOut)))) {
                return run(stdout, caches, specs, warm, measured, cacheFlags, nvmFlags, pageSize, cacheDir, outDir);
            }
        }
    }

    /**
     * A new folder in {@code parent}, named {@code stamp}, or {@code stamp-2}, {@code stamp-3}, ...
     * where another run has that one.
     */
    static Path freshFolder(Path parent, String stamp) {
        for (int n = 1; ; n++) {
            Path dir = parent.resolve(n == 1 ? stamp : stamp + "-" + n);
            try {
                return Files.createDirectory(dir);
            } catch (FileAlreadyExistsException e) {
                // another run's: the next name
            } catch (IOException e) {
                // said as createFolder says it: an AccessDeniedException's message is the bare path, saying no why
                throw new IllegalArgumentException("--out: cannot create the folder " + dir + ": " + OutputFile.why(dir, e), e);
            }
        }
    }

    /** What the run writes into --out at its end. */
    private static final List<String> REPORT_FILES = List.of("summary.json", "hit-ratio.png", "throughput.png");

    private List<Path> dataFiles() {
        try {
            return LdbcDatasets.inputFiles(data);
        } catch (IOException e) {
            return List.of(); // unreadable: the loader says so, naming the file
        }
    }

    /**
     * Refuses an output inside the data cache: its files are the loaded stores the runs read (a dump over
     * {@code nodes.store} damaged the store every later run reuses), and a --reload deletes whatever is there (an --out
     * there, such as {@code cache/sample/store-updated}, put the report among the store's files, lost at the reload).
     */
    private static void refuseInside(String option, Path file, String folderOption, Path folder) {
        if (file == null) {
            return;
        }
        if (resolved(file).startsWith(resolved(folder))) {
            throw new IllegalArgumentException(option + " " + file + " is inside " + folderOption + " " + folder
                + ", the runner's own copies of the data: name a " + (option.equals("--out") ? "folder" : "file")
                + " elsewhere");
        }
    }

    /** The absolute path, through links where its folders exist (a link into the data cache is inside it too). */
    private static Path resolved(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing == null ? absolute : existing.toRealPath().resolve(existing.relativize(absolute));
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * Refuses two outputs that are one file: both writers would fill it at once (--dump-results and --record-trace),
     * or the report would overwrite the file asked for.
     */
    private static void refuseClash(String option, Path file, String otherOption, Path other) {
        if (file == null || other == null) {
            return;
        }
        if (OutputFile.sameFile(file, other)) {
            throw new IllegalArgumentException(option + " " + file + " is also " + (otherOption.equals("--out")
                ? "where the report's " + other.getFileName() + " goes (--out)" : "given to " + otherOption)
                + ": both would write it; name another file");
        }
    }

    /** The data prepared, the runs and their report: {@link #call} once the flags are checked. */
    private int run(PrintWriter stdout, List<CacheSpec> caches, List<PolicySpec> specs, Budget warm, Budget measured,
                    Map<String, String> cacheFlags, Map<String, String> nvmFlags, int pageSize, Path cacheDir, Path outDir)
        throws IOException {
        ProgressOutput progress = ProgressOutput.to(spec.commandLine().getErr(), quiet);
        if (pageSize > StoreFile.PAGE_SIZE) {
            // Allowed (a frame holds one page of a file whose pages are smaller), but rarely what was meant.
            progress.note("note: pagecache.page_size=%,d holds one %,d-byte store page per frame, so %.1f%% of the page"
                + " memory stays unused: --cache gets %dx fewer frames than with pages of %,d", pageSize, StoreFile.PAGE_SIZE,
                100.0 - 100.0 * StoreFile.PAGE_SIZE / pageSize, pageSize / StoreFile.PAGE_SIZE, StoreFile.PAGE_SIZE);
        }
        try (DataCacheLock lock = DataCacheLock.take(cacheDir, progress)) {
            return run(stdout, caches, specs, warm, measured, cacheFlags, nvmFlags, pageSize, cacheDir, outDir, progress);
        }
    }

    /** {@link #run} with the data cache to this run alone: from preparing the data to the last run on its store. */
    private int run(PrintWriter stdout, List<CacheSpec> caches, List<PolicySpec> specs, Budget warm, Budget measured,
                    Map<String, String> cacheFlags, Map<String, String> nvmFlags, int pageSize, Path cacheDir, Path outDir,
                    ProgressOutput progress) throws IOException {
        LdbcDatasets.Prepared prepared = LdbcDatasets.prepare(data, cacheDir, seed, reload, progress);
        cacheFlags.put("pagecache.io", ioMode(prepared.storeDir(), progress));
        SubstitutionParameters parameters = SubstitutionParameters.load(prepared.source());
        List<Update> updateStream = List.of();
        if (updates.equals("interleaved")) {
            updateStream = UpdateStreams.load(prepared.source());
            if (updateStream.isEmpty()) {
                progress.note("%s has no update streams (update_streams/updateStream_*_{person,forum}.csv): reads only",
                    prepared.name());
            }
        }
        checkAgainstTheStore(prepared, parameters, updateStream, progress);
        long storeBytes = GraphStore.sizeOnDisk(prepared.storeDir());
        for (CacheSpec c : caches) {
            if (c.belowMinimum(storeBytes, pageSize)) {
                // The store in MiB, as the report says it: its size in bytes (13,934,592) had to be counted out
                progress.note("note: --cache %s is less than %d pages of %,d bytes for this %s store: that run gets %d frames",
                    c, CacheSpec.MIN_PAGES, pageSize, LdbcReport.mib(storeBytes), CacheSpec.MIN_PAGES);
            }
        }
        LdbcRun.Settings runnerSettings = new LdbcRun.Settings(prepared.storeDir(), parameters, threads, warm, measured,
            seed, swap.equals("nvm"), cacheFlags, nvmFlags, updateStream);
        LdbcRun runner = new LdbcRun(runnerSettings, progress);
        usage(() -> {
            runner.checkRuns(specs, caches, storeBytes);
            return null;
        });
        if (restart) {
            for (CacheSpec c : caches) {
                for (PolicySpec p : specs) {
                    stdout.println(runner.restart(p, c, storeBytes, RESTART_WINDOW_OPS).line());
                    stdout.flush();
                }
            }
            return 0;
        }
        LdbcReport.Header header = new LdbcReport.Header(String.join(" ", commandLine()), prepared.name(), storeBytes,
            threads, warm, measured, seed, swap);

        if (warm.isDuration() || warm.operations() > 0) {
            // Compiled code for the first run too: one unreported warm-up phase before any run.
            progress.line("warming up the JVM with %s of %s at %s (not reported)", warm, specs.get(0).text(),
                caches.get(0).text());
            new LdbcRun(runnerSettings.measuring(Budget.operations(0)), progress.tasksNamed("JVM warm-up, "))
                .execute(specs.get(0), caches.get(0), storeBytes, null, null);
        }
        List<RunResult> results = new ArrayList<>();
        for (CacheSpec c : caches) {
            for (PolicySpec p : specs) {
                RunResult result = results.isEmpty() ? firstRun(runner, p, c, storeBytes, progress)
                    : runner.execute(p, c, storeBytes, null, null);
                results.add(result);
                stdout.print(LdbcReport.run(result));
                stdout.flush();
            }
        }
        stdout.println();
        stdout.print(LdbcReport.summary(header, results));
        Path json = outDir.resolve("summary.json");
        // Again: another run given the same --out that stopped meanwhile deleted it, as empty, when it ended.
        OutputFile.createFolder("--out", outDir);
        OutputFile.replace("--out", json, file -> LdbcReport.writeJson(file, header, results));
        List<Path> charts = OutputFile.open("--out", outDir, () -> LdbcChart.write(outDir, prepared.name(), results));
        stdout.println("wrote " + json + ", " + charts.get(0).getFileName() + ", " + charts.get(1).getFileName());
        if (recordTrace != null) {
            // A name the simulator does not know as a page trace replays only with the format named.
            String format = TraceFormat.detect(recordTrace).orElse(null) == TraceFormat.PAGETRACE ? "" : "--format pagetrace ";
            stdout.println("replay the trace against OPT: ./bench sim --sizes " + framesList(results) + " --policies "
                + policyList(specs) + ",opt " + format + OutputFile.shellQuoted(recordTrace.toString()));
        }
        stdout.flush();
        return 0;
    }

    /**
     * The first run, which fills --dump-results and --record-trace: each is written to a file of its own beside it and
     * renamed into place when the run is done, as summary.json is. Written in place, a run that failed or was stopped
     * (Ctrl-C) partway left a cut dump and trace under the names asked for (an uncompressed trace replays as a shorter
     * one, without a word), over whatever file was there before.
     */
    private RunResult firstRun(LdbcRun runner, PolicySpec policy, CacheSpec cache, long storeBytes, ProgressOutput progress)
        throws IOException {
        RunResult[] result = {null};
        whole("--dump-results", dumpResults, ownDump -> whole("--record-trace", recordTrace, ownTrace -> {
            try (ResultDump dump = ownDump == null ? null
                    : OutputFile.open("--dump-results", dumpResults, () -> new ResultDump(ownDump));
                 TraceRecorder recorder = ownTrace == null ? null
                    : OutputFile.open("--record-trace", recordTrace, () -> new TraceRecorder(ownTrace))) {
                result[0] = runner.execute(policy, cache, storeBytes, dump, recorder);
                if (recorder != null) {
                    progress.line("recorded %,d page accesses into %s", recorder.pins(), recordTrace);
                }
            }
        }));
        return result[0];
    }

    /**
     * Runs {@code write} on a file of its own that takes {@code file}'s place when it returns ({@link OutputFile#replace}),
     * deleted if it fails, or if the JVM is stopped meanwhile; on null if {@code file} is; on {@code file} itself where
     * that is no plain file.
     */
    private static void whole(String option, Path file, OutputFile.WriteTo write) throws IOException {
        if (file == null) {
            write.run(null);
            return;
        }
        Thread[] hook = {null};
        try {
            OutputFile.replace(file, own -> {
                if (own.equals(file)) { // no plain file (/dev/stdout, a pipe): written through, never deleted
                    write.run(own);
                    return;
                }
                hook[0] = new Thread(() -> {
                    try {
                        Files.deleteIfExists(own);
                    } catch (IOException e) {
                        System.err.println("could not delete " + own + ": " + e.getMessage());
                    }
                }, "delete-partial-" + option.substring(2));
                Runtime.getRuntime().addShutdownHook(hook[0]);
                write.run(own);
            });
        } finally {
            if (hook[0] != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook[0]);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook runs, or has run, anyway
                }
            }
        }
    }

    /**
     * {@code --io} as the page cache's {@code pagecache.io}: auto tries direct IO on one of the store's files
     * (map it with {@code pagecache.io=direct}, read its first page) and falls back to buffered, with one line
     * saying why, where the file system refuses.
     */
    private String ioMode(Path storeDir, ProgressOutput progress) throws IOException {
        if (!io.equals("auto")) {
            return io; // checked before the data was prepared
        }
        Path probe = storeDir.resolve(StoreFile.NODES.fileName());
        Map<String, String> flags = Map.of("pagecache.io", "direct", "pagecache.memory", "1m",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags));
             PagedFile file = cache.map(probe, StoreFile.PAGE_SIZE, false);
             PageCursor cursor = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            cursor.next();
            progress.line("store IO: direct (O_DIRECT, faults paid on the device; --io buffered to go through the OS page cache)");
            return "direct";
        } catch (IOException | RuntimeException e) {
            progress.note("direct IO is refused where the store lies, running buffered: %s", e.getMessage());
            return "buffered";
        }
    }

    /**
     * The update stream's ids and the parameters' persons against the loaded store, before any run, through one small
     * cache of their own (the id index is read once per id, and the runs start with their own caches).
     */
    private void checkAgainstTheStore(LdbcDatasets.Prepared prepared, SubstitutionParameters parameters,
                                      List<Update> updateStream, ProgressOutput progress) throws IOException {
        Map<String, String> flags = Map.of("pagecache.memory", "8m", "pagecache.jmx.enabled", "false",
            "pagecache.warmup.enabled", "false");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags));
             GraphStore store = GraphStore.open(prepared.storeDir(), cache);
             StoreReader reader = store.newReader()) {
            // Every update's ids against the store now, not when a run reaches a bad one minutes in.
            Set<Long> addedPersons = UpdatePrecheck.check(reader, updateStream);
            warnOfUnknownPersons(prepared, parameters, reader, addedPersons, progress);
        }
    }

    /**
     * One line if the substitution parameters name persons the data set lacks: taken from another data set, every
     * complex read would find nothing, and the run would report the speed of "no such person" as a result.
     */
    private void warnOfUnknownPersons(LdbcDatasets.Prepared prepared, SubstitutionParameters parameters,
                                      StoreReader reader, Set<Long> addedPersons, ProgressOutput progress)
        throws IOException {
        SubstitutionParameters.UnknownPersons unknown = parameters.unknownPersons(reader, addedPersons);
        if (!unknown.worthSaying()) {
            return; // the sample's IC13 asks for a pair of unknown persons on purpose: its answer is -1
        }
        progress.warning("%,d of the %,d person ids in %s are no person of %s%s%s",
            unknown.unknown(), unknown.ids(), prepared.source().describeParameters(""), prepared.name(),
            unknown.allUnknown().isEmpty() ? "" : "; " + unknown.allUnknown().stream().map(Enum::name)
                .collect(Collectors.joining(", ")) + " find nothing on any row, and measure only the lookup of an unknown person",
            2L * unknown.unknown() > unknown.ids() ? "; the parameters probably belong to another data set" : "");
    }

    private Budget measured() {
        if (duration != null && ops != null) {
            throw new IllegalArgumentException("give --ops or --duration, not both");
        }
        if (ops != null && ops < 1) { // a run of no operations would report 0 ops/s as a result
            throw new IllegalArgumentException("--ops must be at least 1: " + ops);
        }
        if (duration != null) {
            Budget b = named("--duration", () -> Budget.parse(duration));
            if (!b.isDuration()) { // an operation count, or no time at all (0s)
                throw new IllegalArgumentException("--duration " + duration + " is not a time (60s, 1.5s, 2m)"
                    + (b.operations() > 0 ? ": an operation count is --ops" : ""));
            }
            return b;
        }
        boolean sample = data.strip().equals("sample");
        return Budget.operations(ops != null ? ops : Long.parseLong(sample ? DEFAULT_SAMPLE_OPS : DEFAULT_OPS));
    }

    /** The default list, or the given one; only the page cache's own policies (not lru, opt, caffeine). */
    static List<PolicySpec> policies(String text) {
        PolicyCatalog catalog = PolicyCatalog.standard();
        if (text == null) { // left out; an empty one ("$POLICIES" unset) is refused below, as sim and throughput refuse it
            text = DEFAULT_POLICIES;
        }
        if (text.strip().equals("all")) {
            List<PolicySpec> all = new ArrayList<>();
            all.add(catalog.parse("muninn"));
            all.add(catalog.parse("global-clock:max_usage=7"));
            for (String name : PolicyRegistry.NAMES) {
                if (!name.equals("muninn") && !name.equals("global-clock")) {
                    all.add(catalog.parse(name));
                }
            }
            return all;
        }
        List<PolicySpec> specs = catalog.parsePageCacheList("--policies", text);
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("--policies names no policy: '" + text + "'; leave it out to run "
                + DEFAULT_POLICIES);
        }
        return specs;
    }

    private static String framesList(List<RunResult> results) {
        Set<String> frames = new LinkedHashSet<>();
        results.forEach(r -> frames.add(Integer.toString(r.frames())));
        return String.join(",", frames);
    }

    private static String policyList(List<PolicySpec> specs) {
        List<String> names = new ArrayList<>();
        specs.forEach(s -> names.add(s.text()));
        return String.join(",", names);
    }

    private List<String> commandLine() {
        List<String> words = new ArrayList<>(List.of("./bench"));
        // each a shell word: "--out my dir" ran with another --out, or none, when copied back to a shell
        spec.commandLine().getParseResult().originalArgs().forEach(arg -> words.add(OutputFile.shellQuoted(arg)));
        if (words.size() == 1 || !words.get(1).equals("ldbc")) {
            words.add(1, "ldbc");
        }
        return words;
    }

    /**
     * The repository when run from its ./bench jar (a module's {@code target/*.jar}, the module at most two
     * folders below the one holding {@code ./bench}), else the working directory.
     */
    static Path repositoryRoot() {
        try {
            Path jar = Path.of(LdbcCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path target = jar.getParent();
            if (Files.isRegularFile(jar) && target != null && target.getFileName().toString().equals("target")) {
                Path dir = target.getParent();
                for (int up = 0; dir != null && up <= 2; up++, dir = dir.getParent()) {
                    if (Files.isRegularFile(dir.resolve("bench")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                        return dir;
                    }
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        return Path.of("").toAbsolutePath();
    }

    /** {@code parse}'s refusal with the option named: "--warmup: '-1' is neither ...". */
    private static <T> T named(String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    private <T> T usage(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
