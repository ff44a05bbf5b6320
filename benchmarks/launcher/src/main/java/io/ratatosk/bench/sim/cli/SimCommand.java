package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.jmh.ThreadCounts;
import io.ratatosk.bench.sim.CacheSize;
import io.ratatosk.bench.sim.JsonReport;
import io.ratatosk.bench.sim.OutputFile;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.bench.sim.ResultTable;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.ScratchFiles;
import io.ratatosk.bench.sim.SimulationProgress;
import io.ratatosk.bench.sim.SimulationSummary;
import io.ratatosk.bench.sim.TimelineTable;
import io.ratatosk.bench.sim.Trace;
import io.ratatosk.bench.sim.TraceFormat;
import io.ratatosk.bench.sim.TraceReader;
import io.ratatosk.bench.sim.TraceResult;
import io.ratatosk.bench.sim.TraceSimulation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./bench sim}: replays traces through the policies and reports hit ratios. */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Replays cache traces through the eviction policies and reports hit ratios.",
        "Policies: the page cache's own classes (driven through the policy SPI), exact LRU, Belady's OPT"
            + " and the Caffeine cache, at several cache sizes. Prints a table per trace (hit %% and %% of OPT);"
            + " with several traces, a summary (geometric mean of hits / OPT, winners)."},
    footer = {"", "Examples:",
        "  ./bench sim --sizes 100,500,1000 ../shared/traces/lirs/cs.trace.gz",
        "  ./bench sim --policies lru,muninn,global-clock:max_usage=7,opt trace.lis.zst",
        "  ./bench sim --trace-dir ../shared/traces --json sim.json --chart sim.png",
        "  ./bench sim --policies best-of,muninn,clock-pro --sizes /3 --timeline 200000 --timeline-chart p3.png P3.lis.zst",
        "Docs: docs/simulator.md"})
public final class SimCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "TRACE", description = "Trace files.")
    private List<Path> traces = new ArrayList<>();

    @Option(names = "--trace-dir", paramLabel = "DIR",
        description = "Run every recognised trace under DIR (recursively), then summarise.")
    private Path traceDir;

    @Option(names = "--format", paramLabel = "FORMAT",
        description = "Force the trace format instead of detecting it from the path: ${COMPLETION-CANDIDATES}.",
        completionCandidates = FormatIds.class)
    private String format;

    @Option(names = "--sizes", paramLabel = "LIST", defaultValue = "/100,/10",
        description = "Cache sizes, comma separated: entries (500) or /N for distinct keys / N. Default: ${DEFAULT-VALUE}.")
    private String sizes;

    @Option(names = "--policies", paramLabel = "LIST",
        description = "Policies, comma separated (default: all but w-tinylfu-exact); name[:flag=value]... sets flags by their short"
            + " name, e.g. global-clock:max_usage=4. --list shows names and flags.")
    private String policies;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON.")
    private Path json;

    @Option(names = "--chart", paramLabel = "FILE", description = "Also draw hit ratios to FILE (.png or .svg).")
    private Path chart;

    @Option(names = "--timeline", paramLabel = "N",
        description = "Also count each replay's hits per N requests, and print them per size after each trace's table"
            + " (and in --json): when a policy's hit ratio moves, e.g. best-of's switches. At most "
            + MAX_TIMELINE_BUCKETS + " buckets a trace (in a run of several, a longer trace gets wider ones, with a note).")
    private Integer timeline;

    @Option(names = "--timeline-chart", paramLabel = "FILE",
        description = "With --timeline: draw each trace and size's timeline to FILE (.png or .svg); several get FILE's"
            + " name plus -TRACE-SIZE.")
    private Path timelineChart;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2",
        description = "Replays run in parallel (each policy instance on one thread); at most " + ThreadCounts.MAX + "."
            + " Default: ${DEFAULT-VALUE}.")
    private int threads;

    @Option(names = "--quiet", description = "No progress on stderr.")
    private boolean quiet;

    @Option(names = "--list", description = "List the policies with their flags, and the trace formats; then exit.")
    private boolean list;

    /** Timeline buckets a trace may have: more is a wall of numbers, not a timeline. */
    static final int MAX_TIMELINE_BUCKETS = 1000;

    private final PolicyCatalog catalog;

    public SimCommand() {
        this(PolicyCatalog.standard());
    }

    SimCommand(PolicyCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            printList(out);
            out.flush();
            return 0;
        }
        TraceFormat forced = format == null ? null : usage("--format", () -> TraceFormat.byId(format));
        List<PolicySpec> specs = usage(() -> catalog.parseList("--policies", policies));
        List<CacheSize> cacheSizes = usage("--sizes", () -> CacheSize.parseList(sizes));
        if (!ThreadCounts.inRange(List.of(threads))) {
            // 99999999 was taken: the pool starts a thread per replay up to it, and a long --sizes list times the
            // policies ran out of native threads, or of heap for their replays' caches, halfway through a trace
            throw new CommandLine.ParameterException(spec.commandLine(), ThreadCounts.outOfRange("--threads", threads));
        }
        if (timeline != null && timeline < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--timeline must be at least 1 request: " + timeline);
        }
        if (timelineChart != null && timeline == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--timeline-chart needs --timeline N");
        }
        int bucket = timeline == null ? 0 : timeline;
        List<Path> files = traceFiles(forced);
        // The folders the outputs' check makes go again if the run writes nothing into them (a check that refuses the
        // next output, every trace refused, a replay that fails, Ctrl-C): a failed run left them behind, empty. One that
        // will not go is said after the run's own failure, not instead of it.
        try (CleanUp madeFolders = CleanUp.closing(ScratchFiles.foldersMadeFor(json, chart, timelineChart))) {
            checkOutputs(files, cacheSizes);
            return replay(out, forced, specs, cacheSizes, bucket, files);
        }
    }

    /** Replays {@code files} and writes the outputs, the options checked. */
    private int replay(PrintWriter out, TraceFormat forced, List<PolicySpec> specs, List<CacheSize> cacheSizes, int bucket,
            List<Path> files) throws IOException, InterruptedException {
        Map<Path, String> names = TraceReader.displayNames(files);
        boolean summarise = traceDir != null || files.size() > 1;

        SimulationProgress progress = quiet ? SimulationProgress.none()
            : new SimulationProgress(System.err, false, System.console() != null);
        List<TraceResult> results = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Map<Path, Exception> refusals = new HashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sim-replay");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Path> readable = summarise ? readableStarts(files, forced, refusals, skipped) : files;
            TraceSimulation simulation = new TraceSimulation(catalog, pool);
            for (Path file : readable) {
                long start = System.nanoTime();
                Trace trace;
                try {
                    // In a run of several, a trace that cannot be read or run is skipped, not the end of the run:
                    // only its start was read before the first replay (readableStarts); reading all of every trace
                    // then would read each twice (their pages and distinct keys are known only once read), or hold
                    // them all in memory.
                    trace = read(file, formatOf(file, forced), names.get(file));
                    progress.traceLoaded(trace, (System.nanoTime() - start) / 1_000_000);
                    usage(() -> { // a policy that cannot run at one of the sizes fails here, not after the other replays
                        simulation.check(trace, specs, cacheSizes);
                        return null;
                    });
                } catch (IOException | CommandLine.ParameterException | IllegalStateException e) {
                    if (!summarise) {
                        throw e;
                    }
                    refusals.put(file, e);
                    skip(file, e, skipped);
                    continue;
                }
                int traceBucket = timelineBucket(trace, bucket, files.size() > 1);
                TraceResult result;
                try {
                    result = simulation.run(trace, specs, cacheSizes, progress, traceBucket);
                } catch (IllegalStateException e) {
                    // a replay that failed or ran out of heap: in a run of several the others' results are kept
                    if (!summarise) {
                        throw e;
                    }
                    refusals.put(file, e);
                    skip(file, e, skipped);
                    continue;
                }
                results.add(result);
                out.println(ResultTable.render(result));
                if (traceBucket > 0) {
                    out.println(TimelineTable.render(result));
                }
                out.flush();
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (results.isEmpty()) { // every trace skipped: the first one's refusal, as a run of that trace alone
            Exception firstSkip = refusals.get(files.get(0));
            if (firstSkip instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) firstSkip;
        }
        SimulationSummary summary = summarise ? SimulationSummary.of(results) : null;
        if (summary != null) {
            out.println(summary.render());
        }
        if (json != null) {
            OutputFile.replace("--json", json, file -> JsonReport.write(file, results, summary));
        }
        if (chart != null) {
            OutputFile.write("--chart", chart, () -> HitRatioChart.write(chart, results)); // whole: ChartFile.save
        }
        if (timelineChart != null) {
            OutputFile.write("--timeline-chart", timelineChart, () -> TimelineChart.write(timelineChart, results));
        }
        out.flush();
        if (!skipped.isEmpty()) {
            // The results above are of the others: a status that says the run was not whole.
            PrintWriter err = spec.commandLine().getErr();
            err.printf(Locale.ROOT, "%s: skipped %d of %d traces (each said why above): %s%n", spec.qualifiedName(),
                skipped.size(), files.size(),
                String.join(", ", skipped));
            err.flush();
            return 1;
        }
        return 0;
    }

    /**
     * Refuses, before any replay, an output file that could only fail once the replays are done: a chart's
     * extension, a JSON file named as compressed (it is written plain), a path that is a folder, a folder that cannot be
     * created or written, a path that is one of the traces (it would be overwritten). Missing folders are created.
     */
    private void checkOutputs(List<Path> traceFiles, List<CacheSize> cacheSizes) {
        if (chart != null) {
            usage(() -> ChartFile.isSvg(chart, "--chart"));
        }
        if (timelineChart != null) {
            usage(() -> ChartFile.isSvg(timelineChart, "--timeline-chart"));
        }
        usage(() -> { // after the extensions: no folder is created for a chart refused
            refuseClash("--json", json, "--chart", chart);
            refuseClash("--json", json, "--timeline-chart", timelineChart);
            refuseClash("--chart", chart, "--timeline-chart", timelineChart);
            refuseTimelineClash("--json", json);
            refuseTimelineClash("--chart", chart);
            OutputFile.check("--json", json, traceFiles);
            OutputFile.check("--chart", chart, traceFiles);
            OutputFile.check("--timeline-chart", timelineChart, traceFiles);
            refuseLongTimelineNames(traceFiles, cacheSizes);
            if (json != null) { // after: a --json that is one of the traces is told so first
                OutputFile.refuseCompressedName("--json", json, "the results are written as plain JSON");
            }
            return null;
        });
    }

    /**
     * Refuses a --timeline-chart whose charts' names, several charts' {@code STEM-TRACE-SIZE.EXT}, may pass a file name's
     * 255 bytes: its own name passed the check, and the charts failed at the run's end, "File name too long". A size of
     * /N, known once the trace is read, is counted at its most, 10 digits.
     */
    private void refuseLongTimelineNames(List<Path> traceFiles, List<CacheSize> cacheSizes) {
        if (timelineChart == null || traceFiles.size() * cacheSizes.size() < 2) {
            return; // one chart, named as given
        }
        int sizeDigits = cacheSizes.stream().mapToInt(s -> s.absolute() > 0 ? Integer.toString(s.absolute()).length()
            : Integer.toString(Integer.MAX_VALUE).length()).max().orElse(0);
        int most = TimelineChart.mostNameBytes(timelineChart, TraceReader.displayNames(traceFiles).values(), sizeDigits);
        if (most > OutputFile.MOST_NAME_BYTES) {
            String name = timelineChart.getFileName().toString();
            throw new IllegalArgumentException("--timeline-chart " + timelineChart + ": its charts' names ("
                + name.substring(0, name.length() - 4) + "-TRACE-SIZE" + name.substring(name.length() - 4) + ") may take "
                + most + " bytes, past the " + OutputFile.MOST_NAME_BYTES + " a file name may have: name it shorter");
        }
    }

    /**
     * Refuses two outputs that name one file: the one written later replaced the other without a word (--json r.svg
     * --chart r.svg left the chart alone; --chart and --timeline-chart, the timeline).
     */
    private static void refuseClash(String option, Path file, String otherOption, Path other) {
        if (file != null && other != null && OutputFile.sameFile(file, other)) {
            throw new IllegalArgumentException(option + " and " + otherOption + " both name " + file + ": one would be"
                + " written over the other; name two files");
        }
    }

    /**
     * Refuses an output that one of --timeline-chart's files may be ({@code --timeline-chart t.png --chart t-x-100.png}):
     * with several traces or sizes, the timeline of trace x at 100 entries was written over the --chart without a word.
     */
    private void refuseTimelineClash(String option, Path file) {
        if (file != null && timelineChart != null && TimelineChart.mayWrite(timelineChart, file)) {
            String name = timelineChart.getFileName().toString();
            throw new IllegalArgumentException(option + " " + file + " may be one of the files --timeline-chart "
                + timelineChart + " stands for (" + name.substring(0, name.length() - 4) + "-TRACE-SIZE"
                + name.substring(name.length() - 4) + ", one per trace and size): one would be written over the other;"
                + " name it otherwise");
        }
    }

    /**
     * The timeline bucket for {@code trace}: {@code bucket}, unless that cuts the trace into more than
     * {@link #MAX_TIMELINE_BUCKETS}. Then a run of one trace is refused before its replay; in a run of several the
     * bucket widens to the least that fits, with a note, so that a folder's traces replayed before this one (their
     * lengths differ by 1,000x) are not lost to a usage error halfway.
     */
    private int timelineBucket(Trace trace, int bucket, boolean severalTraces) {
        if (bucket == 0) {
            return 0;
        }
        long buckets = (trace.requests() + (long) bucket - 1) / bucket;
        if (buckets <= MAX_TIMELINE_BUCKETS) {
            return bucket;
        }
        long least = (trace.requests() + MAX_TIMELINE_BUCKETS - 1) / MAX_TIMELINE_BUCKETS;
        String cut = String.format(Locale.ROOT, "--timeline %d cuts %s (%,d requests) into %,d buckets; at most %,d",
            bucket, trace.name(), trace.requests(), buckets, MAX_TIMELINE_BUCKETS);
        if (!severalTraces) {
            throw new CommandLine.ParameterException(spec.commandLine(), cut + ": use --timeline " + least + " or more");
        }
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "note: %s: its timeline counts per %,d requests%n", cut, least);
        err.flush();
        return (int) least; // at most requests / 1000 + 1, an int as requests are
    }

    private List<Path> traceFiles(TraceFormat forced) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path t : traces) {
            if (t.toString().isEmpty()) { // Java's current folder: "is a folder; --trace-dir  replays the traces in it"
                throw new CommandLine.ParameterException(spec.commandLine(), "an empty TRACE names no trace file");
            }
            if (!Files.isRegularFile(t)) {
                throw new CommandLine.ParameterException(spec.commandLine(), Files.isDirectory(t)
                    ? t + " is a folder; --trace-dir " + t + " replays the traces in it"
                    : Files.exists(t) ? t + " is not a regular file" : "no such trace file: " + t);
            }
            if (!Files.isReadable(t)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot read the trace file " + t);
            }
            if (forced == null && TraceFormat.detect(t).isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot tell the format of " + t
                    + " from its name; use --format, one of: " + TraceFormat.ids());
            }
            files.add(t);
        }
        if (traceDir != null) {
            if (traceDir.toString().isEmpty()) { // a script's unset variable: every trace under the current folder ran
                throw new CommandLine.ParameterException(spec.commandLine(), "--trace-dir '' names no folder ('.' for the"
                    + " current one)");
            }
            if (!Files.isDirectory(traceDir)) {
                throw new CommandLine.ParameterException(spec.commandLine(), Files.exists(traceDir)
                    ? "--trace-dir " + traceDir + " is not a folder; a trace file is named without --trace-dir"
                    : "no such folder: " + traceDir);
            }
            List<Path> found = tracesUnder(traceDir, forced);
            if (found.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "no recognised trace under " + traceDir);
            }
            files.addAll(found);
        }
        if (files.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "name a TRACE file or --trace-dir");
        }
        return once(files);
    }

    /**
     * The traces under {@code dir}, sorted, following links: a --trace-dir that is a link to a folder found nothing
     * ("no recognised trace"), and a linked folder inside it was passed over without a word. A link loop and a folder
     * that cannot be read are passed over with a note (an unreadable folder failed the run with a stack trace). A
     * {@code *.trace} whose format neither its folders nor its name tell is replayed as {@code forced}, or passed over
     * with a note saying so where no --format is given: it was left out without a word, as a README is.
     */
    private List<Path> tracesUnder(Path dir, TraceFormat forced) throws IOException {
        List<Path> found = new ArrayList<>();
        PrintWriter err = spec.commandLine().getErr();
        Files.walkFileTree(dir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && TraceFormat.detect(file).isPresent()) {
                    found.add(file);
                } else if (attrs.isRegularFile() && TraceFormat.namedAsTrace(file)) {
                    if (forced != null) {
                        found.add(file);
                    } else {
                        err.println(spec.qualifiedName() + ": note: passing over " + file + ": neither its folders nor its"
                            + " name tell its format; --format names it, one of: " + TraceFormat.ids());
                        err.flush();
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                err.println(spec.qualifiedName() + ": note: passing over " + file + ": " + (e instanceof FileSystemLoopException
                    ? "a link back to a folder above it" : readFailure(e)));
                err.flush();
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort(null);
        return found;
    }

    /**
     * {@code files} with each file once, by what it is (its file key, the device and inode, where the file system has
     * one, else its real path): the same trace named twice, as a/../a, both by name and under --trace-dir, or by two
     * hard links was replayed and counted in the summary as often.
     */
    private List<Path> once(List<Path> files) throws IOException {
        Map<Object, Path> byIdentity = new LinkedHashMap<>();
        PrintWriter err = spec.commandLine().getErr();
        for (Path file : files) {
            Path real = file.toRealPath();
            Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
            Path first = byIdentity.putIfAbsent(key != null ? key : real, file);
            if (first != null) {
                err.println(spec.qualifiedName() + ": note: " + file + (first.equals(file) ? " is named twice"
                    : " is " + first) + "; replayed once");
                err.flush();
            }
        }
        return List.copyOf(byIdentity.values());
    }

    /**
     * The traces of {@code files} whose start reads ({@link TraceReader#checkStart}); each other is skipped now, saying
     * why, before the first replay: found by its whole read, it was said only after the traces before it had replayed.
     */
    private List<Path> readableStarts(List<Path> files, TraceFormat forced, Map<Path, Exception> refusals,
            List<String> skipped) {
        List<Path> readable = new ArrayList<>();
        for (Path file : files) {
            try {
                sayingOutOfMemory(file, () -> {
                    TraceReader.checkStart(file, formatOf(file, forced));
                    return null;
                });
                readable.add(file);
            } catch (IOException | IllegalStateException e) { // skipped as the whole read's refusal would be
                refusals.put(file, e);
                skip(file, e, skipped);
            }
        }
        return readable;
    }

    /** The format {@code file} is read in: --format's, else the one its path tells (checked with the options). */
    private static TraceFormat formatOf(Path file, TraceFormat forced) {
        return forced != null ? forced : TraceFormat.detect(file).orElseThrow();
    }

    /** Reads a trace; running out of heap on the way is said in one line naming the trace and the heap. */
    private static Trace read(Path file, TraceFormat format, String name) throws IOException {
        return sayingOutOfMemory(file, () -> TraceReader.read(file, format, name));
    }

    /** A read of {@code file}, or of its start (an xz dictionary larger than the heap fails there too). */
    private interface Reading<T> {
        T read() throws IOException;
    }

    /** Runs {@code reading}; running out of heap on the way is said in one line naming the trace and the heap. */
    private static <T> T sayingOutOfMemory(Path file, Reading<T> reading) throws IOException {
        try {
            return reading.read();
        } catch (OutOfMemoryError e) {
            throw new IllegalStateException(String.format(Locale.ROOT, "reading %s ran out of memory (a heap of %,d MiB):"
                + " give the JVM more (JAVA_OPTS=-Xmx...)", file, Runtime.getRuntime().maxMemory() >> 20), e);
        }
    }

    /** Says on stderr that {@code file} is skipped, and why. */
    private void skip(Path file, Exception e, List<String> skipped) {
        skipped.add(file.toString());
        PrintWriter err = spec.commandLine().getErr();
        String why = e instanceof IOException io ? readFailure(io) : String.valueOf(e.getMessage());
        if (why.startsWith(file + ": ")) { // a format error names its file first
            why = why.substring(file.toString().length() + 2);
        }
        err.println(spec.qualifiedName() + ": skipping " + file + ": " + why);
        err.flush();
    }

    /** Why a trace or folder could not be read, in words: an {@link AccessDeniedException}'s message is the bare path. */
    private static String readFailure(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
    }

    private void printList(PrintWriter out) {
        out.println("policies (name[:flag=value]...):");
        for (String name : catalog.names()) {
            List<String> flags = catalog.flagsOf(name);
            out.println("  " + ResultTable.pad(name, 22) + (flags.isEmpty() ? "" : String.join(", ", flags)));
        }
        out.println("formats (--format):");
        for (TraceFormat f : TraceFormat.values()) {
            out.println("  " + ResultTable.pad(f.id(), 14) + f.description());
        }
    }

    /** Turns a refusal of an option's value into a usage error (exit code 2, with the message). */
    private <T> T usage(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** As {@link #usage(Supplier)}, the refusal said after the option it is of: alone, it named none. */
    private <T> T usage(String option, Supplier<T> parse) {
        return usage(() -> {
            try {
                return parse.get();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
            }
        });
    }

    /** The format ids, for picocli's help text. */
    static final class FormatIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(TraceFormat.values()).map(TraceFormat::id).iterator();
        }
    }
}
