package io.ratatosk.bench.jmh;

import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.OutputFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./bench jmh-report FILE.json}: turns JMH's JSON into the table of ratios (ours / peer, and each
 * policy / global-clock), prints it, and writes it with the targets and the chart into
 * {@code docs/benchmarks.md}, between the markers {@value #BEGIN} and {@value #END}; the rest of the
 * document is left as it is.
 */
@Command(name = "jmh-report", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Prints the table of ratios from JMH's JSON results and writes it, with the targets and a chart,"
        + " into the benchmarks document."},
    footer = {"", "Example:", "  ./bench jmh --quick && ./bench jmh-report bench-out/jmh.json"})
public final class JmhReportCommand implements Callable<Integer> {
    static final String BEGIN = "<!-- jmh-report:begin -->";
    static final String END = "<!-- jmh-report:end -->";
    /** The start of the ratio table's header row, as {@link RatioTable#markdown()} writes it. */
    private static final String TABLE_HEADER = "| benchmark | params | threads |";
    /** Said instead of the chart where no row has a ratio to draw. */
    static final String NO_CHART = "No chart: no row has a reference to compare with";

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.json", description = "JMH results (./bench jmh --out, or -rf json -rff).")
    private Path results;

    @Option(names = "--doc", paramLabel = "FILE", defaultValue = "docs/benchmarks.md",
        description = "Markdown document to write the table into. Default: ${DEFAULT-VALUE}.")
    private Path doc;

    @Option(names = "--chart", paramLabel = "FILE", defaultValue = "docs/benchmarks-ratios.png",
        description = "PNG chart of the ratios. Default: ${DEFAULT-VALUE}.")
    private Path chart;

    @Option(names = "--print-only", description = "Print the table; write neither the document nor the chart.")
    private boolean printOnly;

    @Option(names = "--replace", description = "Write the section even if the results lack rows of the table there now"
        + " (a run of a few benchmarks over the whole suite's); without it such a section is left as it is.")
    private boolean replace;

    @Override
    public Integer call() throws IOException {
        refuseNoFile(results);
        List<JmhResult> parsed = JmhResult.read(results); // first: results it cannot read leave no folder made for --doc
        if (parsed.isEmpty()) {
            throw new IOException(results + " holds no results");
        }
        if (printOnly) {
            return report(parsed);
        }
        // The top-most folders the check below makes for --doc and --chart: gone again if the run writes nothing there
        // (a document refused, a chart folder that cannot be written).
        // One that will not go is said after the run's own failure, not instead of it.
        CleanUp.Step[] deleteMade = OutputFile.foldersToMake(doc, chart).stream()
            .map(folder -> (CleanUp.Step) () -> OutputFile.deleteIfNoFile(folder)).toArray(CleanUp.Step[]::new);
        try (CleanUp madeFolders = CleanUp.of(deleteMade)) {
            checkOutputs();
            return report(parsed);
        }
    }

    /**
     * A results path that is no file is the user's: said as Java's FileNotFoundException, an empty one (a script's unset
     * variable) named nothing (" (No such file or directory)") and a folder was "X (Is a directory)", as a failed run.
     */
    private void refuseNoFile(Path file) {
        String problem = file.toString().isEmpty() ? "an empty FILE.json names no results file"
            : Files.isDirectory(file) ? file + " is a folder; name the JMH results file (./bench jmh --out)"
            : !Files.exists(file) ? "no such results file: " + file : null;
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
    }

    /** Prints the table of {@code parsed} and, unless --print-only, writes the document and the chart. */
    private int report(List<JmhResult> parsed) throws IOException {
        RatioTable table = RatioTable.of(parsed);
        String section = section(parsed, table, results.getFileName().toString(), chartLink());
        PrintWriter out = spec.commandLine().getOut();
        out.println(RatioTable.runSummary(parsed));
        out.println();
        out.print(table.markdown());
        out.println();
        if (!table.limitMarkdown().isEmpty()) {
            out.print(table.limitMarkdown());
            out.println();
        }
        out.print(table.targetsMarkdown());
        if (!printOnly && !replace) {
            List<String> dropped = droppedRows(doc, table);
            if (!dropped.isEmpty()) {
                out.flush();
                spec.commandLine().getErr().println("jmh-report: " + results + " has no result for " + dropped.size()
                    + " of the rows in " + doc + " (" + String.join("; ", dropped.subList(0, Math.min(3, dropped.size())))
                    + (dropped.size() > 3 ? "; ..." : "") + "), so writing it would drop them: nothing written."
                    + " --print-only prints the table alone; --replace writes it anyway.");
                return 1;
            }
        }
        if (!printOnly) {
            String updated = withSection(doc, section); // a document it cannot go into leaves the old chart too
            boolean charted = RatioChart.hasBars(table);
            if (charted) {
                OutputFile.replace("--chart", chart, file -> RatioChart.write(file, table));
            }
            write(doc, updated);
            out.println();
            out.println("Wrote " + doc + (charted ? " and " + chart : " (" + NO_CHART + ")"));
        }
        out.flush();
        return 0;
    }

    /**
     * Before anything is read or written: the document and the chart are files that can be written, neither is the
     * results file (by any path) nor the other; a clash wrote the chart or the document over the results.
     */
    private void checkOutputs() {
        if (!spec.commandLine().getParseResult().hasMatchedOption("--doc") && !Files.exists(doc)) {
            // outside the repository's root a new docs/benchmarks.md was made where the user stood, the real one stale
            throw new CommandLine.ParameterException(spec.commandLine(), "no " + doc + " in "
                + Path.of("").toAbsolutePath() + ": run from the repository's root, or name the document with --doc"
                + " (--print-only prints the table alone)");
        }
        try {
            Path chartName = chart.getFileName(); // none for the root folder: a NullPointerException's stack trace
            if (chartName == null || !chartName.toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
                throw new IllegalArgumentException("--chart must name a .png file: " + chart);
            }
            if (OutputFile.sameFile(doc, chart)) {
                throw new IllegalArgumentException("--doc " + doc + " is also --chart " + chart + ": name two files");
            }
            OutputFile.check("--doc", doc, List.of(results));
            OutputFile.check("--chart", chart, List.of(results));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The chart's path as the document links it: relative to the document's folder. */
    private String chartLink() {
        Path docDir = doc.toAbsolutePath().normalize().getParent();
        Path c = chart.toAbsolutePath().normalize();
        return docDir == null ? c.toString() : docDir.relativize(c).toString().replace('\\', '/');
    }

    static String section(List<JmhResult> parsed, RatioTable table, String source, String chartLink) {
        return BEGIN + "\n"
            + "_Generated by `./bench jmh-report " + source + "`; do not edit between the markers._\n\n"
            + "Run: " + RatioTable.runSummary(parsed) + ".\n\n"
            + table.markdown() + "\n"
            + (table.limitMarkdown().isEmpty() ? "" : "Share of the limit: the read hit path's throughput over the same loop on"
                + " one off-heap buffer with no cache (`RawMemoryBenchmark`), same page count and threads:\n\n"
                + table.limitMarkdown() + "\n")
            + "Targets, from the same run:\n\n"
            + table.targetsMarkdown() + "\n"
            + (RatioChart.hasBars(table) ? "![Throughput ratios, ours / reference](" + chartLink + ")\n"
                : NO_CHART + ".\n")
            + END + "\n";
    }

    /** The rows ("benchmark params threads") of the ratio table in {@code doc}'s generated section that {@code table} has not. */
    static List<String> droppedRows(Path doc, RatioTable table) throws IOException {
        if (!Files.exists(doc)) {
            return List.of();
        }
        String text = readDoc(doc);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            return List.of();
        }
        Set<String> kept = new HashSet<>();
        for (RatioTable.Row r : table.rows()) {
            kept.add(rowKey(r.benchmark(), r.params().isEmpty() ? "-" : r.params(), String.valueOf(r.threads())));
        }
        List<String> dropped = new ArrayList<>();
        boolean inTable = false;
        for (String line : text.substring(begin, end).split("\n")) {
            if (line.startsWith(TABLE_HEADER)) {
                inTable = true;
            } else if (inTable && line.startsWith("| ") && !line.startsWith("| ---")) {
                String[] cells = line.split("\\|");
                if (cells.length > 3) {
                    String key = rowKey(cells[1].strip(), cells[2].strip(), cells[3].strip());
                    if (!kept.contains(key)) {
                        dropped.add(key);
                    }
                }
            } else if (inTable && !line.startsWith("| ")) {
                inTable = false;
            }
        }
        return dropped;
    }

    private static String rowKey(String benchmark, String params, String threads) {
        return benchmark + " " + params + " t=" + threads;
    }

    /**
     * {@code doc}'s text with {@code section} in place of its generated one, or appended if it has none (or no file:
     * a new document).
     */
    private static String withSection(Path doc, String section) throws IOException {
        String text = Files.exists(doc) ? readDoc(doc) : "# Benchmarks\n";
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        String updated;
        if (begin >= 0 && end > begin) {
            int after = end + END.length();
            if (after < text.length() && text.charAt(after) == '\n') {
                after++;
            }
            updated = text.substring(0, begin) + section + text.substring(after);
        } else if (begin >= 0 && end >= 0) {
            throw new IOException(doc + " has " + END + " before " + BEGIN + "; fix it by hand");
        } else if (begin >= 0 || end >= 0) {
            throw new IOException(doc + " has only one of the markers " + BEGIN + " and " + END + "; fix it by hand");
        } else {
            updated = text + (text.endsWith("\n") ? "\n" : "\n\n") + "## Results\n\n" + section;
        }
        return updated;
    }

    /** {@code doc}'s text; one that is no UTF-8 text (the chart, swapped with it) failed as "Input length = 1". */
    private static String readDoc(Path doc) throws IOException {
        try {
            return Files.readString(doc, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException("--doc " + doc + " is not UTF-8 text: name the Markdown document", e);
        }
    }

    /** Writes {@code updated} as {@code doc}, creating its folder. */
    private static void write(Path doc, String updated) throws IOException {
        Path parent = doc.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // whole or not at all: a run stopped while it writes leaves the old document, not a cut one
        OutputFile.replace("--doc", doc, file -> Files.writeString(file, updated, StandardCharsets.UTF_8));
    }
}
