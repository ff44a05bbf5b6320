package io.ratatosk.bench.jmh;

import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.OutputFile;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code ./bench jmh}: runs the JMH suite of this package (or the benchmarks matching a pattern) once per
 * thread count and round, with JMH's {@code gc} profiler, merges the forks of all rounds per benchmark,
 * parameters and thread count, and writes the results to one JSON file for {@code ./bench jmh-report}.
 * Anything it does not know is handed to JMH unchanged.
 */
@Command(name = "jmh", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Runs the JMH microbenchmarks, our page cache side by side with Neo4j's Muninn (the peer).",
        "Arguments other than the options below go to JMH as they are: a benchmark pattern (regexp),"
            + " -f, -wi, -i, -w, -r, -p name=v1,v2, -prof ..., -rff FILE. JMH's -t runs one thread count instead"
            + " of --threads. Full mode (default): 3 rounds of 1 fork each (the annotations' setting), 3 x 1 s warmup"
            + " (PolicyFaultPathBenchmark first reads until the JIT compiler is quiet: its policies take long to compile),"
            + " 5 x 1 s measurement. Results: wall-clock ops/us, pagesRead (for hit ratios) and cpuNanos (process CPU"
            + " time, for throughput per CPU second) per benchmark, and the gc profiler's B/op.",
        "The suite leaves out PrimitiveMapBenchmark (our primitive maps against agrona's) and CursorPerReadBenchmark"
            + " (a cursor opened and closed per read): name them to run them."},
    footer = {"", "Examples:",
        "  ./bench jmh --quick",
        "  ./bench jmh HitPath --threads 1 -prof stack",
        "  ./bench jmh PrimitiveMap --threads 1",
        "  ./bench jmh --out bench-out/full.json && ./bench jmh-report bench-out/full.json",
        "JMH's own help: ./bench jmh -- -h. Docs: docs/benchmarks.md"})
public final class JmhCommand implements Callable<Integer> {
    /**
     * Every value a benchmark's {@code side} parameter takes (each benchmark takes some of them); agrona's, the primitive
     * maps' reference, was missing, so {@code -p side=agrona} was refused as an unknown side.
     */
    private static final List<String> SIDES = List.of(CacheSide.RATATOSK, CacheSide.MUNINN, CacheSide.RAW,
        KeyValueCacheBenchmark.CAFFEINE, PrimitiveMapBenchmark.AGRONA);
    /**
     * The suite: every benchmark class in this package but {@link PrimitiveMapBenchmark}, which compares data
     * structures rather than caches, and {@link CursorPerReadBenchmark}, a usage the hit path's targets are not
     * for; both run by name ({@code ./bench jmh PrimitiveMap}).
     */
    static final String SUITE_PATTERN = "io\\.ratatosk\\.bench\\.jmh\\.(?!PrimitiveMapBenchmark\\.|CursorPerReadBenchmark\\.).*Benchmark\\.";

    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "1 round of 1 fork, 2 x 0.5 s warmup, 5 x 0.3 s measurement: the whole"
        + " suite in a few minutes, with wider error bars.")
    private boolean quick;

    @Option(names = "--rounds", paramLabel = "N",
        description = "Runs of the whole selection, one after the other, merged per benchmark: ours and the peer"
            + " alternate in time, so a burst of load from the neighbours hits both. Default: 3, or 1 with --quick.")
    private Integer rounds;

    @Option(names = "--threads", paramLabel = "LIST", split = ",", defaultValue = "1,2",
        description = "Thread counts to run the suite at, one JMH run each. Default: ${DEFAULT-VALUE}.")
    private List<Integer> threads;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "bench-out/jmh.json",
        description = "JSON results of all runs (JMH's format). JMH's -rff FILE does the same. Default: ${DEFAULT-VALUE}.")
    private Path out;

    @Unmatched
    private List<String> jmhArgs = new ArrayList<>();

    @Override
    public Integer call() throws IOException, RunnerException {
        PrintWriter err = spec.commandLine().getErr();
        CommandLineOptions cmd = parseJmhArgs(jmhArgs);
        checkPatterns(cmd); // -l too
        if (cmd.shouldHelp() || cmd.shouldList() || cmd.shouldListWithParams() || cmd.shouldListProfilers()
            || cmd.shouldListResultFormats()) {
            return listOrHelp(cmd);
        }
        if (cmd.getResultFormat().hasValue() && cmd.getResultFormat().get() != ResultFormatType.JSON) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "results are written as JSON for jmh-report; -rf " + cmd.getResultFormat().get() + " is not supported");
        }
        if (threads.isEmpty()) { // "--threads ,," ran nothing and then blamed the benchmark pattern
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads names no thread count");
        }
        if (!ThreadCounts.inRange(threads)) {
            throw new CommandLine.ParameterException(spec.commandLine(), ThreadCounts.outOfRange("--threads", threads));
        }
        if (new LinkedHashSet<>(threads).size() < threads.size()) { // "1,1" ran the same count twice, as long again
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads names a thread count twice: " + threads
                + "; each count runs once (repeat runs with --rounds)");
        }
        // JMH's "-t max" (a thread per CPU) arrives as Threads.MAX, -1: it was refused as "-t must be from 1 to 4096: -1"
        if (cmd.getThreads().hasValue() && cmd.getThreads().get() != Threads.MAX
            && !ThreadCounts.inRange(List.of(cmd.getThreads().get()))) {
            throw new CommandLine.ParameterException(spec.commandLine(), ThreadCounts.outOfRange("-t", cmd.getThreads().get()));
        }
        checkParameters(cmd);
        // JMH takes it: each iteration counted the few operations that fit in its own timing, written as the results
        if (cmd.getMeasurementTime().hasValue() && cmd.getMeasurementTime().get().getTime() == 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-r " + given("-r") + ": a measurement"
                + " iteration of no time measures nothing; give it a time, e.g. -r 1s");
        }
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (given.hasMatchedOption("--out") && cmd.getResult().hasValue()) { // -rff won, --out was never written
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " and -rff "
                + cmd.getResult().get() + " both name the results file: give one");
        }
        if (given.hasMatchedOption("--threads") && cmd.getThreads().hasValue()) { // -t won
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads " + given.matchedOption("--threads")
                .stringValues().stream().reduce((x, y) -> x + "," + y).orElse("") + " and -t "
                + (cmd.getThreads().get() == Threads.MAX ? "max" : cmd.getThreads().get())
                + " both set the thread counts: give one");
        }
        Path results = cmd.getResult().hasValue() ? Path.of(cmd.getResult().get()) : out;
        String resultsOption = cmd.getResult().hasValue() ? "-rff" : "--out";
        if (cmd.getOutput().hasValue() && OutputFile.sameFile(Path.of(cmd.getOutput().get()), results)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-o " + cmd.getOutput().get() + " is the results"
                + " file: JMH's log and the results need two files");
        }
        int roundCount = rounds != null ? rounds : quick ? 1 : 3;
        if (roundCount < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds must be positive: " + roundCount);
        }
        Path log = cmd.getOutput().hasValue() ? Path.of(cmd.getOutput().get()) : null; // JMH's log
        // The top-most folders of the results and the log that the checks below make: gone again if nothing is written
        // there (a refusal after the check, a pattern that matches nothing: --out new/r.json -o log.gz left new/).
        List<Path> made = OutputFile.foldersToMake(results, log);
        Map<String, RunResult> merged = new LinkedHashMap<>();
        // nothing written: a folder made for it, and the ones above it made with it, go; one that will not go is said
        // after the run's own failure, not instead of it
        CleanUp.Step[] deleteMade = made.stream().map(folder -> (CleanUp.Step) () -> {
            if (merged.isEmpty()) {
                OutputFile.deleteIfNoFile(folder);
            }
        }).toArray(CleanUp.Step[]::new);
        try (CleanUp madeFolders = CleanUp.of(deleteMade)) {
            try { // before the first run, not when its results are written: a folder there lost the run
                OutputFile.check(resultsOption, results);
                OutputFile.check("-o", log);
                // both are written plain: a .gz name held plain text that zcat refused (sim --json and ldbc refuse it too)
                OutputFile.refuseCompressedName(resultsOption, results, "the results are written as plain JSON");
                if (log != null) {
                    OutputFile.refuseCompressedName("-o", log, "JMH's log is written as plain text");
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            if (cmd.getForkCount().hasValue() && cmd.getForkCount().get() == 0) {
                // Kept for a quick check of a benchmark; JMH's own warning is lost between the rows of its log.
                err.println(spec.qualifiedName() + ": warning: -f 0 runs the benchmarks inside this JVM, not each in a"
                    + " fork of its own: the sides share one JIT profile and go without the forks' JVM options, so the"
                    + " results are for debugging, not for comparing (jmh-report); give -f 1 or more for those");
                err.flush();
            }
            return run(cmd, roundCount, results, resultsOption, merged);
        }
    }

    private int run(CommandLineOptions cmd, int roundCount, Path results, String resultsOption, Map<String, RunResult> merged)
        throws IOException {
        ChainedOptionsBuilder options = options(cmd, quick);
        List<Integer> threadCounts = cmd.getThreads().hasValue() ? List.of(cmd.getThreads().get()) : threads;
        RunsOutput output = cmd.getOutput().hasValue()
            ? new RunsOutput(Files.newOutputStream(Path.of(cmd.getOutput().get())), true)
            : new RunsOutput(System.out, false);
        try {
            return run(cmd, roundCount, results, resultsOption, merged, options, threadCounts, output);
        } finally {
            output.end();
        }
    }

    /**
     * JMH's output of every run of the command, its log (-o) or stdout: JMH opened the log afresh for each
     * {@link Runner}, so each round and thread count wrote over the runs before, and the log held the last run's alone.
     * Opened once here; the runners' closes only flush it.
     */
    private static final class RunsOutput extends PrintStream {
        private final boolean file;

        RunsOutput(OutputStream out, boolean file) {
            // The log in UTF-8: in the platform's charset (ASCII under LANG=C) JMH's ± and ≈ were written as ?. Stdout
            // keeps the platform's, the terminal's.
            super(out, false, file ? StandardCharsets.UTF_8 : Charset.defaultCharset());
            this.file = file;
        }

        @Override
        public void close() {
            flush(); // a runner's, at the end of its run
        }

        /** The output format of a runner of {@code options}, into this output. */
        OutputFormat format(Options options) {
            return OutputFormatFactory.createFormatInstance(this, options.verbosity().orElse(Defaults.VERBOSITY));
        }

        /** At the end of the command: the log closed, stdout flushed. */
        void end() {
            if (file) {
                super.close();
            } else {
                flush();
            }
        }
    }

    private int run(CommandLineOptions cmd, int roundCount, Path results, String resultsOption, Map<String, RunResult> merged,
            ChainedOptionsBuilder options, List<Integer> threadCounts, RunsOutput output) throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        List<String> failed = new ArrayList<>();
        int started = 0;
        for (int round = 1; round <= roundCount; round++) {
            for (int t : threadCounts) {
                if (roundCount > 1) {
                    spec.commandLine().getOut().println("# bench jmh: round " + round + " of " + roundCount + ", "
                        + (t == Threads.MAX ? "a thread per CPU" : t + (t == 1 ? " thread" : " threads")));
                }
                Collection<RunResult> run;
                try {
                    Options built = options.threads(t).build();
                    StartedBenchmarks watch = new StartedBenchmarks(output.format(built));
                    run = new Runner(built, watch).run();
                    watch.failed(run).forEach(p -> failed.add(p.getBenchmark() + " " + p.getParamsKeys().stream()
                        .map(k -> k + "=" + p.getParam(k)).toList() + " at " + p.getThreads() + " thread(s)"));
                    started += watch.started();
                } catch (NoBenchmarksException e) { // its message is null
                    throw new CommandLine.ParameterException(spec.commandLine(), "no benchmark matches "
                        + String.join(" ", cmd.getIncludes()) + "; ./bench jmh -l lists them");
                } catch (RunnerException e) {
                    err.println("jmh: " + e.getMessage() + (e.getCause() != null ? ": " + e.getCause().getMessage() : ""));
                    return 1;
                }
                for (RunResult r : run) {
                    merged.merge(key(r.getParams()), r, JmhCommand::mergeForks);
                }
                if (!merged.isEmpty()) { // "[ ]" over the last run's results would lose them
                    write(resultsOption, results, merged); // after every run, so an interrupted suite keeps what it measured
                }
            }
        }
        // JMH reports a failure in its output: with -o, in the log, not above on the terminal
        String seeReport = "(see " + (cmd.getOutput().hasValue() ? cmd.getOutput().get() : "above") + ")";
        if (merged.isEmpty()) { // JMH reports a benchmark that threw and goes on: here every one did
            err.println("jmh: every benchmark failed " + seeReport + ": " + results + " is left as it was");
            return 1;
        }
        if (!failed.isEmpty()) { // said in JMH's log alone, between the rows, and the run exited 0 as a whole one
            err.println("jmh: " + failed.size() + " of " + started + " benchmark runs failed " + seeReport + ", not in "
                + results + ": " + String.join("; ", failed));
        }
        spec.commandLine().getOut().println("JMH results: " + results + "\nTable of ratios: ./bench jmh-report " + OutputFile.shellQuoted(results.toString())
            + " (it also rewrites docs/benchmarks.md's results; --print-only to print the table alone)");
        return failed.isEmpty() ? 0 : 1;
    }

    /** JMH's options from the passed-through arguments, with this suite's defaults where they say nothing. */
    static final int QUICK_MEASUREMENT_ITERATIONS = 5;
    static final TimeValue QUICK_MEASUREMENT_TIME = TimeValue.milliseconds(300);

    static ChainedOptionsBuilder options(CommandLineOptions cmd, boolean quick) {
        ChainedOptionsBuilder b = new OptionsBuilder().parent(cmd);
        if (cmd.getIncludes().isEmpty()) {
            b.include(SUITE_PATTERN);
        }
        if (quick) {
            if (!cmd.getForkCount().hasValue()) {
                b.forks(1);
            }
            if (!cmd.getWarmupIterations().hasValue()) {
                b.warmupIterations(2);
            }
            if (!cmd.getWarmupTime().hasValue()) {
                b.warmupTime(TimeValue.milliseconds(500));
            }
            // Five short iterations rather than three long ones, in the same 1.5 s: JMH's 99.9% error uses
            // Student's t, which is 31.6 with 2 degrees of freedom and 8.6 with 4, so the quick mode's
            // error bars shrink about fourfold and its ratios become readable.
            if (!cmd.getMeasurementIterations().hasValue()) {
                b.measurementIterations(QUICK_MEASUREMENT_ITERATIONS);
            }
            if (!cmd.getMeasurementTime().hasValue()) {
                b.measurementTime(QUICK_MEASUREMENT_TIME);
            }
        }
        if (!cmd.getParameter("policy").hasValue()) {
            // every policy there is, not just those the annotation listed when it was written
            b.param("policy", PolicyRegistry.NAMES.toArray(String[]::new));
        } else {
            b.param("policy", defaultFirst(cmd.getParameter("policy").get()).toArray(String[]::new));
        }
        if (!cmd.getParameter("tier").hasValue()) {
            // every NVM profile there is, likewise
            b.param("tier", NvmSwapBenchmark.tiers().toArray(String[]::new));
        }
        if (cmd.getProfilers().stream().noneMatch(p -> p.getKlass().equals("gc"))) {
            b.addProfiler("gc");
        }
        return b;
    }

    /**
     * {@code -p policy=...} as every other tool takes a policy list: {@code default} is the default policy, run first
     * under its real name; a repeat runs once.
     */
    static List<String> defaultFirst(Collection<String> policies) {
        Set<String> ordered = new LinkedHashSet<>();
        for (String policy : PolicyCatalog.defaultFirst(String.join(",", policies))) {
            ordered.add(PolicyCatalog.resolveDefault(policy).strip());
        }
        return List.copyOf(ordered);
    }

    /** The value the user gave JMH's {@code option} ({@code -r 0ms}, {@code -r=0ms}), as written. */
    private String given(String option) {
        for (int i = 0; i < jmhArgs.size(); i++) {
            String arg = jmhArgs.get(i);
            if (arg.equals(option) && i + 1 < jmhArgs.size()) {
                return jmhArgs.get(i + 1);
            }
            if (arg.startsWith(option + "=")) {
                return arg.substring(option.length() + 1);
            }
        }
        return "";
    }

    private CommandLineOptions parseJmhArgs(List<String> args) {
        List<String> pass = new ArrayList<>(args);
        pass.remove("--"); // lets "./bench jmh -- -h" reach JMH's help
        try {
            return new CommandLineOptions(pass.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "JMH: " + asGiven(e.getMessage(), pass));
        }
    }

    /** JMH names an unknown option without its dashes ("bogus is not a recognized option"): the user's word instead. */
    static String asGiven(String message, List<String> args) {
        int space = message == null ? -1 : message.indexOf(' ');
        if (space <= 0 || !message.contains(" is not a recognized option")) {
            return message;
        }
        String word = message.substring(0, space);
        for (String arg : args) {
            String name = arg.split("=", 2)[0];
            if (name.startsWith("-") && name.replaceFirst("^-+", "").equals(word)) {
                return name + message.substring(space);
            }
        }
        return message;
    }

    private static int listOrHelp(CommandLineOptions cmd) throws IOException, RunnerException {
        if (cmd.shouldHelp()) {
            cmd.showHelp();
        } else if (cmd.shouldListProfilers()) {
            cmd.listProfilers();
        } else if (cmd.shouldListResultFormats()) {
            cmd.listResultFormats();
        } else {
            Runner runner = new Runner(options(cmd, false).build());
            if (cmd.shouldListWithParams()) {
                runner.listWithParams(cmd);
            } else {
                runner.list();
            }
        }
        return 0;
    }

    /**
     * What makes two runs the same measurement: benchmark, mode, parameters and thread count
     * ({@link BenchmarkParams#equals} leaves the thread count out).
     */
    static String key(BenchmarkParams p) {
        StringBuilder sb = new StringBuilder(p.getBenchmark()).append('|').append(p.getMode()).append("|t=").append(p.getThreads());
        for (String k : p.getParamsKeys()) {
            sb.append('|').append(k).append('=').append(p.getParam(k));
        }
        return sb.toString();
    }

    /** The forks of two rounds of one measurement as one result. */
    static RunResult mergeForks(RunResult a, RunResult b) {
        List<BenchmarkResult> forks = new ArrayList<>(a.getBenchmarkResults());
        forks.addAll(b.getBenchmarkResults());
        return new RunResult(a.getParams(), forks);
    }

    /** Whole or not at all: a run stopped while the results are written leaves the last whole file. */
    private static void write(String option, Path file, Map<String, RunResult> merged) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        OutputFile.replace(option, file, own -> {
            try {
                ResultFormatFactory.getInstance(ResultFormatType.JSON, own.toString()).writeOut(new ArrayList<>(merged.values()));
            } catch (IllegalStateException e) { // JMH wraps the IOException of its write
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw e;
            }
        });
    }

    /** Each benchmark pattern (-e too) a regular expression: Java's own message spans three lines and names no option. */
    private void checkPatterns(CommandLineOptions cmd) {
        List<String> patterns = new ArrayList<>(cmd.getIncludes());
        patterns.addAll(cmd.getExcludes());
        for (String pattern : patterns) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "benchmark pattern '" + pattern
                    + "' is not a regular expression: " + e.getDescription() + " at index " + e.getIndex());
            }
        }
    }

    /**
     * The values of -p policy and -p tier, which this suite knows: an unknown one failed every benchmark it reached,
     * each with a stack trace, while the others ran.
     */
    private void checkParameters(CommandLineOptions cmd) {
        // JMH drops "-p policy=," without a word, and every value of the parameter ran instead of none
        List<String> args = new ArrayList<>(jmhArgs);
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String p = args.get(i).equals("-p") && i + 1 < args.size() ? args.get(i + 1)
                : args.get(i).startsWith("-p") && args.get(i).length() > 2 ? args.get(i).substring(2) : null;
            int eq = p == null ? -1 : p.indexOf('=');
            if (eq > 0 && p.substring(eq + 1).replace(",", "").isBlank()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "-p " + p + ": names no " + p.substring(0, eq));
            }
            if (eq > 0) {
                names.add(p.substring(0, eq));
            }
        }
        refuseWhatNoBenchmarkTakes(cmd, names);
        if (cmd.getParameter("policy").hasValue()) {
            Collection<String> given = cmd.getParameter("policy").get();
            for (String part : given) { // "default:margin=0.5" was called an unknown policy 'best-of:margin=0.5'
                String policy = PolicyCatalog.resolveDefault(part).strip();
                int colon = policy.indexOf(':');
                if (colon >= 0 && PolicyRegistry.NAMES.contains(policy.substring(0, colon).strip())) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "-p policy=" + String.join(",", given)
                        + ": '" + part.strip() + "' gives " + policy.substring(0, colon).strip() + " flags, which the benchmarks"
                        + " do not take: they run each policy at its defaults; name policies alone (./bench throughput"
                        + " --policies and ./bench demo --policies take flags)");
                }
            }
            for (String policy : defaultFirst(given)) {
                if (!PolicyRegistry.NAMES.contains(policy)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "-p policy=" + String.join(",", given)
                        + ": unknown policy '" + policy + "'; the policies: " + String.join(", ", PolicyRegistry.NAMES)
                        + " (and default)");
                }
            }
        }
        // a side no benchmark has (-p side=Muninn) failed each benchmark's setup in its fork, a stack trace per row
        refuseUnknown(cmd, "side", "sides", SIDES);
        refuseUnknown(cmd, "tier", "tiers", NvmSwapBenchmark.tiers());
        // likewise "-p distribution=Zipf" (PageIds) and "-p hugePages=on" (the flag's parser), in every row's fork
        refuseUnknown(cmd, "distribution", "distributions", List.of(PageIds.UNIFORM, PageIds.ZIPF));
        refuseUnknown(cmd, "hugePages", "values", PageCacheFlags.HUGE_PAGES.choices());
    }

    /**
     * A {@code -p} name that no benchmark of the run takes ({@code -p pagez=256}, {@code -p pages=256 FaultPath}), and a
     * value that is no whole number of at least 1 for a parameter whose every value in the annotation is one ({@code -p
     * pages=0}, {@code -p fileToCache=four}). JMH drops a name no benchmark has without a word, so the run measured
     * every value of the parameter meant (three times as long, none of them the one asked for); a bad number failed
     * each row in its fork with a stack trace. A pattern that selects no benchmark is left to the run to say so.
     */
    private void refuseWhatNoBenchmarkTakes(CommandLineOptions cmd, Set<String> names) {
        if (names.isEmpty()) {
            return;
        }
        List<String> includes = cmd.getIncludes().isEmpty() ? List.of(SUITE_PATTERN) : new ArrayList<>(cmd.getIncludes());
        Set<BenchmarkListEntry> selected = BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(
            new PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT), includes, new ArrayList<>(cmd.getExcludes()));
        if (selected.isEmpty()) {
            return;
        }
        Map<String, List<String>> annotated = new TreeMap<>(); // every parameter of the selection, its values
        for (BenchmarkListEntry benchmark : selected) {
            if (benchmark.getParams().hasValue()) {
                benchmark.getParams().get().forEach((name, values) -> annotated.merge(name, List.of(values),
                    (a, b) -> Stream.concat(a.stream(), b.stream()).distinct().toList()));
            }
        }
        for (String name : names) {
            List<String> values = annotated.get(name);
            if (values == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "-p " + name + ": no benchmark of this run"
                    + " takes a parameter " + name + (annotated.isEmpty() ? "; they take none"
                    : "; theirs: " + String.join(", ", annotated.keySet())));
            }
            if (values.stream().allMatch(v -> v.matches("[0-9]+"))) {
                for (String value : cmd.getParameter(name).get()) {
                    if (!value.strip().matches("0*[1-9][0-9]{0,8}")) {
                        throw new CommandLine.ParameterException(spec.commandLine(), "-p " + name + "="
                            + String.join(",", cmd.getParameter(name).get()) + ": " + name + " is a whole number from 1"
                            + " to 999,999,999 (the benchmarks run " + String.join(", ", values) + "): '" + value + "'");
                    }
                }
            }
        }
    }

    /** Refuses a value of {@code -p name=...} that is none of {@code known}, naming them ("the sides: ..."). */
    private void refuseUnknown(CommandLineOptions cmd, String name, String plural, Collection<String> known) {
        if (!cmd.getParameter(name).hasValue()) {
            return;
        }
        Collection<String> given = cmd.getParameter(name).get();
        for (String value : given) {
            if (!known.contains(value)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "-p " + name + "=" + String.join(",", given)
                    + ": unknown " + name + " '" + value + "'; the " + plural + ": " + String.join(", ", known));
            }
        }
    }
}
