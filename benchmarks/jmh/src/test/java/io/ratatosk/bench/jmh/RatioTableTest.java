package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** From JMH's JSON to the rows, targets and the document section of {@code ./bench jmh-report}. */
class RatioTableTest {
    @TempDir
    Path dir;

    /** One JMH entry; scores are per iteration (two iterations), cpu in CPU-ns per µs. */
    private static String entry(String benchmark, int threads, String params, double[] ops, double error,
                                double[] cpu, Double pagesRead, Double bytesPerOp) {
        return entry(benchmark, threads, params, ops, error, cpu, pagesRead, bytesPerOp, Map.of());
    }

    /** @param counters further secondary results: name to the value of both iterations, in ops/us */
    private static String entry(String benchmark, int threads, String params, double[] ops, double error,
                                double[] cpu, Double pagesRead, Double bytesPerOp, Map<String, Double> counters) {
        double mean = Arrays.stream(ops).average().orElseThrow();
        StringBuilder secondary = new StringBuilder();
        counters.forEach((name, v) -> secondary.append(metric(name, new double[] {v, v}, "ops/us")).append(","));
        if (pagesRead != null) {
            secondary.append(metric("pagesRead", new double[] {pagesRead, pagesRead}, "ops/us"));
        }
        if (secondary.length() > 0 && secondary.charAt(secondary.length() - 1) == ',') {
            secondary.setLength(secondary.length() - 1);
        }
        if (cpu != null) {
            secondary.append(secondary.length() > 0 ? "," : "").append(metric("cpuNanos", cpu, "ops/us"));
        }
        if (bytesPerOp != null) {
            secondary.append(secondary.length() > 0 ? "," : "")
                .append(metric("gc.alloc.rate.norm", new double[] {bytesPerOp, bytesPerOp}, "B/op"));
        }
        return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"io.ratatosk.bench.jmh." + benchmark + "\",\"mode\":\"thrpt\","
            + "\"threads\":" + threads + ",\"forks\":1,\"jdkVersion\":\"17\",\"vmName\":\"OpenJDK\",\"vmVersion\":\"17\","
            + "\"warmupIterations\":2,\"warmupTime\":\"500 ms\",\"measurementIterations\":2,\"measurementTime\":\"500 ms\","
            + "\"params\":{" + params + "},"
            + "\"primaryMetric\":{\"score\":" + mean + ",\"scoreError\":" + (Double.isNaN(error) ? "\"NaN\"" : error)
            + ",\"scoreUnit\":\"ops/us\",\"rawData\":[" + raw(ops) + "]},"
            + "\"secondaryMetrics\":{" + secondary + "}}";
    }

    private static String metric(String name, double[] values, String unit) {
        double mean = Arrays.stream(values).average().orElseThrow();
        return "\"" + name + "\":{\"score\":" + mean + ",\"scoreError\":0.0,\"scoreUnit\":\"" + unit + "\",\"rawData\":["
            + raw(values) + "]}";
    }

    private static String raw(double[] values) {
        return Arrays.stream(values).mapToObj(Double::toString).collect(Collectors.joining(",", "[", "]"));
    }

    private static double[] d(double... v) {
        return v;
    }

    private Path sample() throws IOException {
        return results("jmh.json",
            // wall 12 vs 8; per CPU: ours used a whole CPU, the peer was descheduled half the time: 12 vs 16
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\"", d(8, 8), 0.8, d(500, 500), 0.0, 0.0),
            entry("FaultPathBenchmark.read", 2, "\"side\":\"ratatosk\",\"fileToCache\":\"4\",\"distribution\":\"uniform\"",
                d(0.5, 0.5), Double.NaN, null, 0.375, 24.0),
            entry("FaultPathBenchmark.read", 2, "\"side\":\"muninn\",\"fileToCache\":\"4\",\"distribution\":\"uniform\"",
                d(0.4, 0.4), 0.04, null, 0.3, 56.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"clock\"", d(9, 9), 0.9, d(1000, 1000), 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"global-clock\"", d(10, 10), 1.0, d(1000, 1000), 0.0, 0.0));
    }

    /** JMH's JSON of the given entries, in a file of the test's folder. */
    private Path results(String name, String... entries) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "[" + String.join(",", entries) + "]");
        return file;
    }

    /**
     * A run of -f 0 (inside the launcher's JVM) has one row of raw data per round, as forks have: two rounds were
     * reported as "forks 2", the run's settings line for results no fork made.
     */
    @Test
    void aRunWithoutForksIsReportedAsForksZero() throws IOException {
        String inProcess = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000),
            0.0, 0.0).replace("\"forks\":1", "\"forks\":0");
        assertTrue(RatioTable.runSummary(JmhResult.read(results("f0.json", inProcess))).contains("; forks 0, warmup"));
        String forked = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000),
            0.0, 0.0);
        assertTrue(RatioTable.runSummary(JmhResult.read(results("f1.json", forked))).contains("; forks 1, warmup"));
    }

    @Test
    void oursIsPairedWithThePeerOfTheSameParametersAndThreads() throws IOException {
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(sample())).rows();
        assertEquals(4, rows.size());

        RatioTable.Row read = rows.get(0);
        assertEquals("HitPathBenchmark.read", read.benchmark());
        assertEquals("muninn", read.reference());
        assertEquals(1.5, read.wallRatio().mean(), 1e-9);
        // relative errors 0.05 and 0.1 in quadrature
        assertEquals(1.5 * Math.sqrt(0.05 * 0.05 + 0.1 * 0.1), read.wallRatio().error(), 1e-9);
        assertEquals(1.0, read.oursHitRatio(), 1e-9);

        RatioTable.Row fault = rows.get(1);
        assertEquals("fileToCache=4 distribution=uniform", fault.params(), "in the order JMH wrote them");
        assertEquals(2, fault.threads());
        assertEquals(0.25, fault.oursHitRatio(), 1e-9);
        assertEquals(0.25, fault.peerHitRatio(), 1e-9);
        assertEquals(1.25, fault.wallRatio().mean(), 1e-9);
        assertTrue(Double.isNaN(fault.wallRatio().error()), "JMH's \"NaN\" error (one iteration) stays unknown");
    }

    @Test
    void theReadHitPathIsSharedOutOfTheRawLimitAtTheSamePagesAndThreads() throws IOException {
        Path file = results("limit.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"hugePages\":\"auto\",\"pages\":\"256\"", d(6, 6), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"hugePages\":\"auto\",\"pages\":\"256\"", d(4, 4), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("RawMemoryBenchmark.read", 1, "\"pages\":\"256\"", d(10, 10), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("RawMemoryBenchmark.read", 2, "\"pages\":\"256\"", d(20, 20), 0.0, d(2000, 2000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"4096\"", d(3, 3), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"4096\"", d(2, 2), 0.0, d(1000, 1000), 0.0, 0.0));
        RatioTable table = RatioTable.of(JmhResult.read(file));

        List<RatioTable.LimitRow> limits = table.limitRows();
        assertEquals(1, limits.size(), "only pages=256 at one thread has a raw run beside it: " + limits);
        RatioTable.LimitRow row = limits.get(0);
        assertEquals("hugePages=auto pages=256", row.params(), "the hit row's parameters");
        assertEquals(0.6, row.oursShare().mean(), 1e-9);
        assertEquals(0.4, row.peerShare().mean(), 1e-9);
        assertTrue(table.limitMarkdown().contains("| hugePages=auto pages=256 | 1 | 10.000 | **0.60** | 0.40 (muninn) |"),
            table.limitMarkdown());

        String targets = table.targetsMarkdown();
        assertTrue(targets.contains("| read hit, 256 pages: ours / raw >= 0.6 | 1 | yes | lowest 0.60 at hugePages=auto pages=256"
            + " t=1 |"), targets);
        assertTrue(targets.contains("| read hit, 4,096 pages: ours / raw >= 0.5 | 1 | **no** | not measured"), targets);
    }

    /**
     * {@code -p hugePages=auto,off} makes two read hit rows of one page count, both divided by the one raw row of it:
     * the share table labelled each by its page count alone, two rows "pages=256 | 1" with different shares and
     * nothing saying which was which, and the target's lowest share did not say which either.
     */
    @Test
    void eachShareOfTheLimitNamesTheHitRowItDivides() throws IOException {
        Path file = results("huge.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"hugePages\":\"auto\",\"pages\":\"256\"", d(6, 6), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"hugePages\":\"auto\",\"pages\":\"256\"", d(4, 4), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"hugePages\":\"off\",\"pages\":\"256\"", d(5, 5), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"hugePages\":\"off\",\"pages\":\"256\"", d(4, 4), 0.0, d(1000, 1000), 0.0, 0.0),
            entry("RawMemoryBenchmark.read", 1, "\"pages\":\"256\"", d(10, 10), 0.0, d(1000, 1000), 0.0, 0.0));
        RatioTable table = RatioTable.of(JmhResult.read(file));

        List<RatioTable.LimitRow> limits = table.limitRows();
        assertEquals(List.of("hugePages=auto pages=256", "hugePages=off pages=256"),
            limits.stream().map(RatioTable.LimitRow::params).toList(), "each share is labelled by the hit row it divides");
        String markdown = table.limitMarkdown();
        assertTrue(markdown.contains("| hugePages=auto pages=256 | 1 | 10.000 | **0.60** | 0.40 (muninn) |"), markdown);
        assertTrue(markdown.contains("| hugePages=off pages=256 | 1 | 10.000 | **0.50** | 0.40 (muninn) |"), markdown);
        String targets = table.targetsMarkdown();
        assertTrue(targets.contains("| read hit, 256 pages: ours / raw >= 0.6 | 2 | **no** | lowest 0.50 at hugePages=off"
            + " pages=256 t=1 |"), targets);
    }

    @Test
    void perCpuThroughputDiscountsTimeASideSpentDescheduled() throws IOException {
        RatioTable.Row read = RatioTable.of(JmhResult.read(sample())).rows().get(0);
        assertEquals(12.0, read.oursPerCpu().mean(), 1e-9);
        assertEquals(16.0, read.peerPerCpu().mean(), 1e-9);
        assertEquals(0.75, read.cpuRatio().mean(), 1e-9);
        assertEquals(0.75, read.ratio().mean(), 1e-9, "targets are judged per CPU where it was measured");
        RatioTable.Row fault = RatioTable.of(JmhResult.read(sample())).rows().get(1);
        assertFalse(fault.cpuRatio().known());
        assertEquals(1.25, fault.ratio().mean(), 1e-9, "and on wall-clock throughput where it was not");
    }

    @Test
    void eachPolicyIsComparedWithGlobalClockWhichComesFirst() throws IOException {
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(sample())).rows();
        assertEquals("policy=global-clock", rows.get(2).params());
        assertEquals(1.0, rows.get(2).ratio().mean(), 1e-9);
        assertEquals("policy=clock", rows.get(3).params());
        assertEquals("global-clock", rows.get(3).reference());
        assertEquals(0.9, rows.get(3).ratio().mean(), 1e-9);
    }

    @Test
    void targetsSayWhichRatiosAreMetAndWhatWasNotMeasured() throws IOException {
        List<RatioTable.Target> targets = RatioTable.of(JmhResult.read(sample())).targets();
        assertFalse(targets.get(0).met(), "read: 0.75x per CPU < 1.5x, though 1.5x wall");
        assertTrue(targets.get(2).met(), "fault 1.25x >= 1.0x");
        assertTrue(targets.get(1).rows().isEmpty(), "write was not run");
        assertFalse(targets.get(1).met());
        assertTrue(targets.get(4).met(), "0.001 B/op is JMH's noise, not an allocation");
    }

    @Test
    void theDefaultPoliciesHitAndFaultPathsAreTargetsAgainstGlobalClock() throws IOException {
        Path file = results("policies.json",
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"global-clock\"", d(10, 10), 1.0, d(1000, 1000), 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"best-of\"", d(9.5, 9.5), 0.95, d(1000, 1000), 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"clock\"", d(5, 5), 0.5, d(1000, 1000), 0.0, 0.0),
            // the fault path has a second parameter: each frames value is its own comparison
            entry("PolicyFaultPathBenchmark.read", 1, "\"frames\":\"4096\",\"policy\":\"global-clock\"", d(2, 2), 0.2, d(1000, 1000), 0.4, 0.0),
            entry("PolicyFaultPathBenchmark.read", 1, "\"frames\":\"4096\",\"policy\":\"best-of\"", d(1, 1), 0.1, d(1000, 1000), 0.2, 0.0),
            entry("PolicyFaultPathBenchmark.read", 1, "\"frames\":\"65536\",\"policy\":\"global-clock\"", d(2, 2), 0.2, d(1000, 1000), 0.4, 0.0),
            entry("PolicyFaultPathBenchmark.read", 1, "\"frames\":\"65536\",\"policy\":\"best-of\"", d(1.9, 1.9), 0.19, d(1000, 1000), 0.3, 0.0));
        List<RatioTable.Target> targets = RatioTable.of(JmhResult.read(file)).targets();
        RatioTable.Target hit = targets.stream().filter(t -> t.description().contains("read hit >= 0.9x global-clock")).findFirst().orElseThrow();
        RatioTable.Target fault = targets.stream().filter(t -> t.description().contains("fault path >= 0.9x global-clock")).findFirst().orElseThrow();
        assertEquals(1, hit.rows().size(), "only the default policy's row counts, not clock's");
        assertTrue(hit.met(), "0.95x");
        assertEquals(2, fault.rows().size(), "best-of at each frame count, each against global-clock at the same");
        assertFalse(fault.met(), "0.5x at 4096 frames (0.95x at 65536)");
        assertTrue(fault.evidence().contains("0.50") && fault.evidence().contains("frames=4096"), fault.evidence());
    }

    @Test
    void theReportCommandPrintsTheTableAndReplacesOnlyItsSectionOfTheDocument() throws IOException {
        Path doc = dir.resolve("benchmarks.md");
        Files.writeString(doc, "# Benchmarks\n\nMethod.\n\n" + JmhReportCommand.BEGIN + "\nold\n" + JmhReportCommand.END
            + "\n\nFindings.\n");
        Path chart = dir.resolve("ratios.png");
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new JmhReportCommand()); // as ./bench jmh-report runs it
        cl.setOut(new PrintWriter(out));
        int exit = cl.execute(sample().toString(), "--doc", doc.toString(), "--chart", chart.toString());

        assertEquals(0, exit, out.toString());
        assertTrue(out.toString().contains(
            "| HitPathBenchmark.read | - | 1 | muninn | 12.000 ± 0.600 | 8.000 ± 0.800 | 1.50 ± 0.17 | 12.000 | 16.000 | **0.75** |"),
            out.toString());
        String text = Files.readString(doc);
        assertTrue(text.startsWith("# Benchmarks\n\nMethod.\n\n" + JmhReportCommand.BEGIN), text);
        assertTrue(text.endsWith(JmhReportCommand.END + "\n\nFindings.\n"), text);
        assertFalse(text.contains("old"));
        assertTrue(text.contains("![Throughput ratios, ours / reference](ratios.png)"), text);
        assertTrue(Files.size(chart) > 1000);
        assertTrue(text.toLowerCase(Locale.ROOT).contains("targets"));
    }

    @Test
    void aRunOfFewerBenchmarksLeavesTheDocumentsTableAloneUnlessToldToReplaceIt() throws IOException {
        Path doc = dir.resolve("benchmarks.md");
        Path chart = dir.resolve("ratios.png");
        assertEquals(0, report(sample(), doc, chart, new StringWriter()), "the whole run writes its table");
        String whole = Files.readString(doc);

        StringWriter err = new StringWriter();
        assertEquals(1, report(nvmSample(), doc, chart, err), "a run that lacks the table's rows is refused");
        assertEquals(whole, Files.readString(doc), "and the document is left as it was");
        assertTrue(err.toString().contains("HitPathBenchmark.read - t=1") && err.toString().contains("--replace"), err.toString());

        assertEquals(0, report(nvmSample(), doc, chart, new StringWriter(), "--print-only"), "printing alone is fine");
        assertEquals(whole, Files.readString(doc));
        assertEquals(0, report(nvmSample(), doc, chart, new StringWriter(), "--replace"));
        String replaced = Files.readString(doc);
        assertTrue(replaced.contains("| NvmSwapBenchmark.read |") && !replaced.contains("| HitPathBenchmark.read |"), replaced);
        assertEquals(0, report(nvmSample(), doc, chart, new StringWriter()), "the same rows again replace without asking");
    }

    /** {@code ./bench jmh-report} on {@code results} into {@code doc}; its stderr goes to {@code err}. */
    private static int report(Path results, Path doc, Path chart, StringWriter err, String... more) {
        CommandLine cl = new CommandLine(new JmhReportCommand());
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(List.of(results.toString(), "--doc", doc.toString(), "--chart", chart.toString()));
        args.addAll(List.of(more));
        return cl.execute(args.toArray(String[]::new));
    }

    private Path nvmSample() throws IOException {
        return results("nvm.json",
            // 4x the frames, uniform: 1/4 hits on every tier; NVM faults are swap-ins, the file's are file reads
            entry("NvmSwapBenchmark.read", 1, "\"tier\":\"file\"", d(0.4, 0.4), 0.04, d(1000, 1000), 0.3, 0.0),
            entry("NvmSwapBenchmark.read", 1, "\"tier\":\"nvm-nvme\"", d(0.01, 0.01), 0.002, d(100, 100), 0.0, 1.0,
                Map.of("swapIns", 0.0075)),
            entry("NvmSwapBenchmark.read", 1, "\"tier\":\"nvm-dram\"", d(0.2, 0.2), 0.02, d(1000, 1000), 0.0, 0.0,
                Map.of("swapIns", 0.15)),
            entry("NvmSwapBenchmark.write", 1, "\"tier\":\"file\"", d(0.2, 0.2), 0.02, d(1000, 1000), 0.15, 0.0),
            entry("NvmSwapBenchmark.write", 1, "\"tier\":\"nvm-pcm\"", d(0.05, 0.05), 0.005, d(1000, 1000), 0.0, 0.0,
                Map.of("swapIns", 0.0375)));
    }

    @Test
    void eachNvmTierIsComparedWithTheFileTierOnWallClockAtTheSameHitRatio() throws IOException {
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(nvmSample())).rows();
        assertEquals(List.of("NvmSwapBenchmark.read tier=nvm-nvme", "NvmSwapBenchmark.read tier=nvm-dram",
            "NvmSwapBenchmark.write tier=nvm-pcm"), rows.stream().map(r -> r.benchmark() + " " + r.params()).toList(),
            "one row per NVM tier; the file tier is their reference, not a row");
        RatioTable.Row nvme = rows.get(0);
        assertEquals("file", nvme.reference());
        assertEquals(0.025, nvme.wallRatio().mean(), 1e-9);
        assertFalse(nvme.cpuRatio().known(), "parked and spun device waits make CPU time incomparable across profiles");
        assertFalse(nvme.oursPerCpu().known());
        assertEquals(0.025, nvme.ratio().mean(), 1e-9, "so the wall ratio is the one the summary and chart use");
        assertEquals(0.25, nvme.oursHitRatio(), 1e-9, "swap-ins are misses of the frames too");
        assertEquals(0.25, nvme.peerHitRatio(), 1e-9);
    }

    @Test
    void theNvmTiersAreSummarizedAsInformationNotAsATarget() throws IOException {
        RatioTable table = RatioTable.of(JmhResult.read(nvmSample()));
        RatioTable.Target nvm = table.targets().get(table.targets().size() - 1);
        assertTrue(nvm.information());
        assertFalse(nvm.met());
        assertEquals(3, nvm.rows().size());
        assertEquals("wall ratio read 0.025 ± 0.006 (tier=nvm-nvme t=1) to 0.50 ± 0.07 (tier=nvm-dram t=1);"
            + " write 0.25 ± 0.04 (tier=nvm-pcm t=1)", nvm.evidence());
        assertTrue(table.targetsMarkdown().contains("(information, no target) | 3 | - | wall ratio read"),
            table.targetsMarkdown());
        assertTrue(RatioTable.of(JmhResult.read(sample())).targets().stream()
            .filter(RatioTable.Target::information).allMatch(t -> t.rows().isEmpty() && !t.met()), "not run: no rows");
    }

    @Test
    void aFileTierRunAloneIsShownWithoutARatio() throws IOException {
        Path file = results("file-only.json",
            entry("NvmSwapBenchmark.read", 1, "\"tier\":\"file\"", d(0.4, 0.4), 0.04, d(1000, 1000), 0.3, 0.0));
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(file)).rows();
        assertEquals(1, rows.size());
        assertEquals("tier=file", rows.get(0).params());
        assertFalse(rows.get(0).hasPeer());
    }

    @Test
    void ourPrimitiveMapsAreComparedWithAgronas() throws IOException {
        Path file = results("maps.json",
            entry("PrimitiveMapBenchmark.ghosts", 1, "\"side\":\"ratatosk\"", d(20, 20), 1.0, d(1000, 1000), null, 0.0),
            entry("PrimitiveMapBenchmark.ghosts", 1, "\"side\":\"agrona\"", d(16, 16), 0.8, d(1000, 1000), null, 0.0));
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(file)).rows();
        assertEquals(1, rows.size());
        assertEquals("agrona", rows.get(0).reference());
        assertEquals(1.25, rows.get(0).ratio().mean(), 1e-9);
    }

    /** A cut-off or foreign file names itself and where it stops being JSON, on one line. */
    @Test
    void aFileThatIsNotJsonIsRefusedNamingItAndWhere() throws IOException {
        Path cut = Files.writeString(dir.resolve("cut.json"), "[{\"benchmark\": \"x\",\n");
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(cut));
        assertTrue(e.getMessage().startsWith(cut + " is not JMH JSON output: "), e.getMessage());
        assertTrue(e.getMessage().contains("(line 2, column "), e.getMessage());
        assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("REDACTED"), "one line: " + e.getMessage());
        Path text = Files.writeString(dir.resolve("notes.json"), "root:x:0:0\n");
        e = assertThrows(IOException.class, () -> JmhResult.read(text));
        assertTrue(e.getMessage().startsWith(text + " is not JMH JSON output: Unrecognized token 'root'"), e.getMessage());
    }

    /** Two runs' files joined (cat a.json b.json): the second's rows were dropped without a word, status 0. */
    @Test
    void resultsJoinedAfterTheFirstArrayAreRefused() throws IOException {
        String read = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.0);
        String write = entry("HitPathBenchmark.write", 1, "\"side\":\"ratatosk\"", d(6, 6), 0.6, d(1000, 1000), 0.0, 0.0);
        Path joined = Files.writeString(dir.resolve("joined.json"), "[" + read + "]\n[" + write + "]\n");
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(joined));
        assertEquals(joined + " goes on after its array of results (line 2, column 1): one JMH run's results per file,"
            + " not several joined", e.getMessage());
        StringWriter err = new StringWriter();
        assertEquals(1, report(joined, dir.resolve("benchmarks.md"), dir.resolve("ratios.png"), err));
        assertFalse(Files.exists(dir.resolve("benchmarks.md")), "nothing written");

        Path spaced = Files.writeString(dir.resolve("spaced.json"), "[" + read + "]\n\n");
        assertEquals(1, JmhResult.read(spaced).size(), "white space after the array is no second value");
    }

    /**
     * Results of one benchmark with the policy (or side) and without it, as in files of two versions of a benchmark put
     * together: one without a policy after one with it threw a NullPointerException, one without a side after ours and
     * the peer was dropped from the table. Each is now a row; those with the choice are compared as before.
     */
    @Test
    void resultsWithAndWithoutTheChoiceParameterAreEachARow() throws IOException {
        Path policies = results("policies.json",
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"clock\"", d(9, 9), 0.9, d(1000, 1000), 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "", d(7, 7), 0.7, d(1000, 1000), 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"global-clock\"", d(10, 10), 1.0, d(1000, 1000), 0.0, 0.0));
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(policies)).rows();
        assertEquals(List.of("policy=global-clock", "policy=clock", ""), rows.stream().map(RatioTable.Row::params).toList());
        assertEquals(0.9, rows.get(1).ratio().mean(), 1e-9);
        assertFalse(rows.get(2).hasPeer(), "no policy: nothing to compare it with");
        assertEquals(7, rows.get(2).ours().mean(), 1e-9);

        Path sides = results("sides.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"256\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"256\"", d(8, 8), 0.8, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"pages\":\"256\"", d(5, 5), 0.5, d(1000, 1000), 0.0, 0.0));
        rows = RatioTable.of(JmhResult.read(sides)).rows();
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(1.5, rows.get(0).wallRatio().mean(), 1e-9);
        assertEquals(5, rows.get(1).ours().mean(), 1e-9);
        assertFalse(rows.get(1).hasPeer());
    }

    /**
     * Muninn run alone (-p side=muninn) was a row like ours, without a word of whose it was: beside RawMemoryBenchmark
     * its throughput met "ours / raw" and its allocation failed "0 B/op (ours)". Sides that are neither ours nor a
     * reference (another project's side=left) were dropped: a table with no row, status 0.
     */
    @Test
    void anotherSideRunWithoutOursIsARowNamingItAndNoneOfOurTargets() throws IOException {
        Path file = results("muninn.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"256\"", d(8, 8), 0.8, d(1000, 1000), 0.0, 40.0),
            entry("RawMemoryBenchmark.read", 1, "\"pages\":\"256\"", d(10, 10), 0.0, d(1000, 1000), 0.0, 0.0));
        RatioTable table = RatioTable.of(JmhResult.read(file));
        RatioTable.Row muninn = table.rows().get(0);
        assertEquals("side=muninn pages=256", muninn.params());
        assertFalse(muninn.hasPeer());
        assertEquals(List.of(), table.limitRows(), "Muninn's share of the raw loop is not ours");
        String targets = table.targetsMarkdown();
        assertTrue(targets.contains("| read hit, 256 pages: ours / raw >= 0.6 | 0 | - | not measured"), targets);
        assertTrue(targets.contains("| 0 B/op on every hit path (ours) | 0 | - | not measured"), targets);

        Path foreign = results("foreign.json",
            entry("SplitBenchmark.run", 1, "\"side\":\"left\"", d(8, 8), 0.8, null, null, null),
            entry("SplitBenchmark.run", 1, "\"side\":\"right\"", d(6, 6), 0.6, null, null, null),
            entry("KeyValueCacheBenchmark.get", 1, "\"side\":\"ratatosk\"", d(5, 5), 0.5, null, null, null),
            entry("KeyValueCacheBenchmark.get", 1, "\"side\":\"muninn\"", d(4, 4), 0.4, null, null, null),
            entry("KeyValueCacheBenchmark.get", 1, "\"side\":\"caffeine\"", d(2, 2), 0.2, null, null, null));
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(foreign)).rows();
        assertEquals(List.of("SplitBenchmark.run side=left", "SplitBenchmark.run side=right",
            "KeyValueCacheBenchmark.get  vs muninn", "KeyValueCacheBenchmark.get side=caffeine"),
            rows.stream().map(r -> r.benchmark() + " " + r.params() + (r.hasPeer() ? " vs " + r.reference() : "")).toList(),
            "every result a row: ours against the first reference, the rest alone");
    }

    @Test
    void theKeyValueHitRatioIsOneMinusComputesPerOperationOfGetOrCompute() throws IOException {
        Path file = results("kv.json",
            entry("KeyValueCacheBenchmark.getOrCompute", 2, "\"side\":\"ratatosk\"", d(5, 5), 0.5, null, null, 6.0,
                Map.of("computes", 0.7)),
            entry("KeyValueCacheBenchmark.getOrCompute", 2, "\"side\":\"caffeine\"", d(4, 4), 0.4, null, null, 50.0,
                Map.of("computes", 0.48)),
            // get computes nothing, so its computes say nothing about its misses
            entry("KeyValueCacheBenchmark.get", 2, "\"side\":\"ratatosk\"", d(12, 12), 1.2, null, null, 0.0,
                Map.of("computes", 0.0)),
            entry("KeyValueCacheBenchmark.get", 2, "\"side\":\"caffeine\"", d(12, 12), 1.2, null, null, 0.0,
                Map.of("computes", 0.0)));
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(file)).rows();

        RatioTable.Row getOrCompute = rows.get(0);
        assertEquals("KeyValueCacheBenchmark.getOrCompute", getOrCompute.benchmark());
        assertEquals("caffeine", getOrCompute.reference());
        assertEquals(0.86, getOrCompute.oursHitRatio(), 1e-9);
        assertEquals(0.88, getOrCompute.peerHitRatio(), 1e-9);
        RatioTable.Row get = rows.get(1);
        assertEquals("KeyValueCacheBenchmark.get", get.benchmark());
        assertTrue(Double.isNaN(get.oursHitRatio()) && Double.isNaN(get.peerHitRatio()), "not 100%: get counts no misses");
        String table = RatioTable.of(JmhResult.read(file)).markdown();
        assertTrue(table.contains("| 86.0% / 88.0% | 6.00 / 50.00 |"), table);
        assertTrue(table.contains("| - | 0 / 0 |"), table);
    }

    /** ./bench jmh passes -tu through: ops/s (counters too) is shown in ops/us, not as a throughput a million times higher. */
    @Test
    void throughputInOtherTimeUnitsIsShownInOpsPerMicrosecond() throws IOException {
        Path file = results("units.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12e6, 12e6), 0.6e6, d(1000e6, 1000e6), 0.0, 0.001)
                .replace("\"ops/us\"", "\"ops/s\""),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\"", d(0.008, 0.008), 0.0008, d(0.5, 0.5), 0.0, 0.0)
                .replace("\"ops/us\"", "\"ops/ns\""));
        RatioTable.Row read = RatioTable.of(JmhResult.read(file)).rows().get(0);
        assertEquals(12, read.ours().mean(), 1e-9);
        assertEquals(0.6, read.ours().error(), 1e-9);
        assertEquals(8, read.peer().mean(), 1e-9);
        assertEquals(1.5, read.wallRatio().mean(), 1e-9);
        assertEquals(0.75, read.cpuRatio().mean(), 1e-9, "12 vs 16 ops per CPU-us, as in ops/us");
        assertEquals(1.0, read.oursHitRatio(), 1e-9);
        assertTrue(RatioTable.of(JmhResult.read(file)).markdown().contains("| 12.000 ± 0.600 | 8.000 ± 0.800 |"));
    }

    /** -bm avgt gives ms/op: shown under "ops/µs" it would read as a throughput. Refused, naming the result. */
    @Test
    void resultsInAnotherModeAreRefusedNamingThem() throws IOException {
        Path file = results("avgt.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001)
                .replace("\"mode\":\"thrpt\"", "\"mode\":\"avgt\"").replace("\"scoreUnit\":\"ops/us\",\"rawData\":[[12",
                    "\"scoreUnit\":\"ms/op\",\"rawData\":[[12"));
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(file));
        assertEquals(file + ": HitPathBenchmark.read side=ratatosk t=1 is in mode avgt, ms/op; the table compares throughput"
            + " (mode thrpt, ops/s, ops/ms, ops/us or ops/ns): run it with -bm thrpt", e.getMessage());
    }

    /**
     * A thread count that is no whole number of at least 1 is refused naming the entry: "x", true and 1.5 were read as
     * 1 thread and 0 or -2 as they are, a row of a measurement no run made.
     */
    @Test
    void aThreadCountThatIsNoPositiveWholeNumberIsRefused() throws IOException {
        String good = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001);
        assertEquals(1, JmhResult.read(results("good.json", good)).get(0).threads());
        for (String threads : new String[] {"\"x\"", "true", "1.5", "0", "-2", "null", "\"2\""}) {
            Path file = results("threads.json", good.replace("\"threads\":1,", "\"threads\":" + threads + ","));
            IOException e = assertThrows(IOException.class, () -> JmhResult.read(file), threads);
            assertEquals(file + ": io.ratatosk.bench.jmh.HitPathBenchmark.read has the thread count " + threads
                + ", not a whole number of at least 1", e.getMessage());
        }
    }

    /**
     * A negative score error (the half-width of JMH's confidence interval, never below 0) is refused naming the entry:
     * it was printed as "12.000 ± -1.000" and written into the document.
     */
    @Test
    void aNegativeScoreErrorIsRefused() throws IOException {
        String good = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001);
        assertTrue(good.contains("\"scoreError\":0.6,"), good);
        Path file = results("error.json", good.replace("\"scoreError\":0.6,", "\"scoreError\":-1,"));
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(file));
        assertEquals(file + ": HitPathBenchmark.read side=ratatosk t=1 has the score error -1, not a half-width of 0 or"
            + " more", e.getMessage());
    }

    /** A score that is no number of operations was shown as "-" or as a negative throughput. */
    @Test
    void aScoreThatIsNotANumberOfOperationsIsRefused() throws IOException {
        String good = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001);
        for (String score : new String[] {"\"abc\"", "-5", "\"NaN\""}) {
            Path file = results("score.json", good.replace("\"primaryMetric\":{\"score\":12.0",
                "\"primaryMetric\":{\"score\":" + score));
            IOException e = assertThrows(IOException.class, () -> JmhResult.read(file), score);
            assertEquals(file + ": HitPathBenchmark.read side=ratatosk t=1 has the score " + score
                + ", not a number of operations", e.getMessage());
        }
    }

    /**
     * A reference that measured no operation made the ratio "Infinity ± Infinity", met every target it was in, and the
     * chart library threw "Series data ... cannot be equal to Double.POSITIVE_INFINITY!!!" after the table was printed.
     */
    @Test
    void aScoreOfNoOperationIsRefusedNamingIt() throws IOException {
        Path file = results("zero.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\"", d(0, 0), 0.0, d(1000, 1000), 0.0, 0.0));
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(file));
        assertEquals(file + ": HitPathBenchmark.read side=muninn t=1 has the score 0.0: no operation measured, no throughput"
            + " to compare", e.getMessage());
        Path doc = dir.resolve("benchmarks.md");
        Path chart = dir.resolve("ratios.png");
        StringWriter err = new StringWriter();
        assertEquals(1, report(file, doc, chart, err));
        assertTrue(err.toString().contains("no operation measured"), err.toString());
        assertFalse(Files.exists(doc) || Files.exists(chart), "nothing written");
    }

    /** The same measurement twice made two rows and counted twice in the targets. */
    @Test
    void aResultListedTwiceIsRefused() throws IOException {
        String one = entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001);
        String other = entry("HitPathBenchmark.read", 2, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.001);
        Path file = results("twice.json", one, other, one);
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(file));
        assertEquals(file + " lists HitPathBenchmark.read side=ratatosk t=1 twice (entries 1 and 3): keep one", e.getMessage());
    }

    /** The same measurement with its parameters in another order was taken for two: two rows of it, one paired. */
    @Test
    void aResultListedTwiceWithItsParametersInAnotherOrderIsRefused() throws IOException {
        Path file = results("swapped.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"256\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"256\"", d(8, 8), 0.8, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"pages\":\"256\",\"side\":\"ratatosk\"", d(6, 6), 0.6, d(1000, 1000), 0.0, 0.0));
        IOException e = assertThrows(IOException.class, () -> JmhResult.read(file));
        assertEquals(file + " lists HitPathBenchmark.read pages=256 side=ratatosk t=1 twice (entries 1 and 3): keep one",
            e.getMessage());
    }

    /**
     * A run with no row to compare (one policy alone, the file tier alone) made the chart library throw a stack trace
     * after it had cut the old chart to 0 bytes. Now no chart is drawn, the old one is kept and the section says why.
     */
    @Test
    void aRunWithNoRatioDrawsNoChartAndKeepsTheOldOne() throws IOException {
        Path file = results("alone.json",
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"muninn\"", d(9, 9), 0.9, d(1000, 1000), 0.0, 0.0));
        Path doc = dir.resolve("benchmarks.md");
        Path chart = Files.writeString(dir.resolve("ratios.png"), "the last run's chart");
        StringWriter err = new StringWriter();
        assertEquals(0, report(file, doc, chart, err), err.toString());
        assertEquals("the last run's chart", Files.readString(chart));
        String text = Files.readString(doc);
        assertTrue(text.contains("| PolicyHitPathBenchmark.read | policy=muninn | 1 |"), text);
        assertFalse(text.contains("![Throughput ratios"), text);
        assertTrue(text.contains("No chart: no row has a reference to compare with."), text);
    }

    /** --doc or --chart naming the results file (or each other) wrote over the results: refused before any write. */
    @Test
    void aDocumentOrChartThatIsTheResultsFileIsRefused() throws IOException {
        Path file = sample();
        String before = Files.readString(file);
        Path doc = dir.resolve("benchmarks.md");
        Path chart = dir.resolve("ratios.png");
        StringWriter err = new StringWriter();
        assertEquals(2, report(file, file, chart, err));
        assertTrue(err.toString().contains("--doc " + file + " is an input of this run"), err.toString());
        assertEquals(before, Files.readString(file));
        assertFalse(Files.exists(chart), "nothing written");

        Path png = Files.copy(file, dir.resolve("jmh.png"));
        err = new StringWriter();
        assertEquals(2, report(png, doc, dir.resolve(".").resolve("jmh.png"), err));
        assertTrue(err.toString().contains("--chart " + dir.resolve(".").resolve("jmh.png") + " is an input of this run"),
            err.toString());
        assertEquals(before, Files.readString(png));
        assertFalse(Files.exists(doc), "nothing written");

        err = new StringWriter();
        assertEquals(2, report(file, chart, chart, err));
        assertTrue(err.toString().contains("--doc " + chart + " is also --chart"), err.toString());
        assertFalse(Files.exists(chart), "nothing written");
    }

    /**
     * A results file that is no file was said as Java's FileNotFoundException: an empty one (a script's unset variable)
     * as "bench jmh-report:  (No such file or directory)", naming nothing, a folder as "X (Is a directory)"; exit 1, as
     * a failed run. They are usage errors naming the file, before anything is made.
     */
    @Test
    void aResultsFileThatIsNoFileIsAUsageErrorNamingIt() throws IOException {
        Path doc = Files.writeString(dir.resolve("benchmarks.md"), "# Benchmarks\n");
        Path chart = dir.resolve("charts/ratios.png");
        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put("", "an empty FILE.json names no results file");
        refusals.put(dir.toString(), dir + " is a folder; name the JMH results file (./bench jmh --out)");
        refusals.put(dir.resolve("nosuch.json").toString(), "no such results file: " + dir.resolve("nosuch.json"));
        for (Map.Entry<String, String> each : refusals.entrySet()) {
            StringWriter err = new StringWriter();
            assertEquals(2, report(Path.of(each.getKey()), doc, chart, err), err.toString());
            assertTrue(err.toString().contains(each.getValue()), err.toString());
            assertFalse(Files.exists(chart.getParent()), "nothing made");
        }
    }

    /** --doc naming a folder failed with "Is a directory" and no path, after the chart had been written. */
    @Test
    void aDocumentThatIsAFolderIsRefusedNamingItBeforeTheChartIsWritten() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("docs"));
        Path chart = dir.resolve("ratios.png");
        StringWriter err = new StringWriter();
        assertEquals(2, report(sample(), folder, chart, err));
        assertTrue(err.toString().contains("--doc " + folder + " is a folder"), err.toString());
        assertFalse(Files.exists(chart), "nothing written");
    }

    /** A --chart with no file name (the root folder, /) failed with a NullPointerException's stack trace. */
    @Test
    void aChartNamedTheRootFolderIsAUsageError() throws IOException {
        Path root = dir.getRoot();
        StringWriter err = new StringWriter();
        assertEquals(2, report(sample(), dir.resolve("benchmarks.md"), root, err));
        assertTrue(err.toString().contains("--chart must name a .png file: " + root), err.toString());
        assertFalse(Files.exists(dir.resolve("benchmarks.md")), "nothing written");
    }

    /**
     * A document whose markers are out of order was said to have "only one of the markers", and was refused only after
     * the new chart had replaced the old one: the chart then showed a run the document did not.
     */
    @Test
    void aDocumentWithMarkersOutOfOrderIsRefusedBeforeTheChartIsWritten() throws IOException {
        String text = "# Benchmarks\n" + JmhReportCommand.END + "\nnotes\n" + JmhReportCommand.BEGIN + "\n";
        Path doc = Files.writeString(dir.resolve("benchmarks.md"), text);
        Path chart = Files.writeString(dir.resolve("ratios.png"), "the last run's chart");
        StringWriter err = new StringWriter();
        assertEquals(1, report(sample(), doc, chart, err));
        assertTrue(err.toString().contains(doc + " has " + JmhReportCommand.END + " before " + JmhReportCommand.BEGIN
            + "; fix it by hand"), err.toString());
        assertEquals(text, Files.readString(doc));
        assertEquals("the last run's chart", Files.readString(chart));
    }

    /**
     * Run outside the repository's root, the default docs/benchmarks.md was made anew where the user stood (a stray
     * docs folder with a document of one section and a chart) while the real document was left stale, with status 0.
     * The module's folder, where Maven runs this test, has no docs folder: the default document is not there.
     */
    @Test
    void theDefaultDocumentMissingWhereTheUserStandsIsAUsageError() throws IOException {
        Path here = Path.of("docs");
        assumeFalse(Files.exists(here), "this test needs a working folder without docs/");
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new JmhReportCommand());
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        try {
            assertEquals(2, cl.execute(sample().toString()));
            assertTrue(err.toString().contains("no docs/benchmarks.md in " + Path.of("").toAbsolutePath()
                + ": run from the repository's root, or name the document with --doc (--print-only prints the table"
                + " alone)"), err.toString());
            assertFalse(Files.exists(here), "no docs folder made");
        } finally {
            io.ratatosk.bench.sim.OutputFile.deleteTree(here); // not there before: made by this run, if at all
        }
    }

    /** A --doc that is no text (the chart, swapped with it) failed with "Input length = 1", naming nothing. */
    @Test
    void aDocumentThatIsNotTextIsRefusedNamingIt() throws IOException {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', (byte) 0xff, (byte) 0xfe, 0};
        Path doc = Files.write(dir.resolve("ratios-old.png"), png);
        Path chart = dir.resolve("ratios.png");
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new JmhReportCommand());
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        IOException e = assertThrows(IOException.class, () -> JmhReportCommand.droppedRows(doc, RatioTable.of(JmhResult.read(sample()))));
        assertEquals("--doc " + doc + " is not UTF-8 text: name the Markdown document", e.getMessage());
        assertEquals(1, report(sample(), doc, chart, err));
        assertTrue(err.toString().contains("--doc " + doc + " is not UTF-8 text"), err.toString());
        assertTrue(java.util.Arrays.equals(png, Files.readAllBytes(doc)));
        assertFalse(Files.exists(chart), "nothing written");
    }

    /** A results file that cannot be read left the folders made for --doc and --chart behind, empty. */
    @Test
    void unreadableResultsMakeNoFolderForTheDocument() throws IOException {
        StringWriter err = new StringWriter();
        assertEquals(2, report(dir.resolve("missing.json"), dir.resolve("new/doc.md"), dir.resolve("charts/r.png"), err));
        assertTrue(err.toString().contains("missing.json"), err.toString());
        assertFalse(Files.exists(dir.resolve("new")) || Files.exists(dir.resolve("charts")), "no folder made");
        Path notJson = Files.writeString(dir.resolve("notes.json"), "not JSON");
        assertEquals(1, report(notJson, dir.resolve("new/doc.md"), dir.resolve("charts/r.png"), err));
        assertFalse(Files.exists(dir.resolve("new")) || Files.exists(dir.resolve("charts")), "no folder made");
    }

    /**
     * A document refused (markers out of order, rows it would drop) or a chart that cannot be written left the folders
     * made for the other output behind, empty.
     */
    @Test
    void aRefusedRunLeavesNoFolderMadeForTheOutputs() throws IOException {
        String text = "# Benchmarks\n" + JmhReportCommand.END + "\nnotes\n" + JmhReportCommand.BEGIN + "\n";
        Path doc = Files.writeString(dir.resolve("benchmarks.md"), text);
        StringWriter err = new StringWriter();
        assertEquals(1, report(sample(), doc, dir.resolve("charts/new/r.png"), err));
        assertTrue(err.toString().contains("before"), err.toString());
        assertFalse(Files.exists(dir.resolve("charts")), "no folder made for the chart");

        Path unwritable = Path.of("/proc/r.png");
        assumeTrue(Files.isDirectory(unwritable.getParent()), "a folder that takes no new files");
        err = new StringWriter();
        assertEquals(2, report(sample(), dir.resolve("docs/new/benchmarks.md"), unwritable, err));
        assertTrue(err.toString().contains("--chart"), err.toString());
        assertFalse(Files.exists(dir.resolve("docs")), "no folder made for the document");
    }

    /**
     * The same where the folder made for the chart cannot be deleted (a folder that takes no deletion): the clean-up's
     * failure was thrown instead of the document's refusal, "/x/new: Operation not permitted" and a stack trace.
     */
    @Test
    void aRefusedRunSaysWhyThoughItsFolderWouldNotGo() throws Exception {
        Path appendOnly = Files.createDirectory(dir.resolve("append-only"));
        String markersOutOfOrder = "# Benchmarks\n" + JmhReportCommand.END + "\nnotes\n" + JmhReportCommand.BEGIN + "\n";
        Path doc = Files.writeString(dir.resolve("benchmarks.md"), markersOutOfOrder);
        Exception[] thrown = {null};
        int exit;
        try (var undeletable = FailedCleanUpTest.appendOnly(appendOnly)) {
            exit = FailedCleanUpTest.execute(new JmhReportCommand(), thrown, sample().toString(), "--doc", doc.toString(),
                "--chart", appendOnly.resolve("new/r.png").toString());
        }
        assertEquals(1, exit);
        assertTrue(thrown[0].getMessage().contains("before"), thrown[0].getMessage());
        FailedCleanUpTest.assertCleanUpFailureFor(thrown[0], appendOnly.resolve("new"));
    }

    /**
     * A row measured at one thread count and not at another (its two-thread run failed, or was not made) has no bar at
     * the other: the chart drew a ratio of 0 there, ours as if nothing to the peer's.
     */
    @Test
    void aRowMissingAtAThreadCountHasNoBarThereNotARatioOfZero() throws IOException {
        Path file = results("partial.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"256\"", d(12, 12), 0.6, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"256\"", d(8, 8), 0.8, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 2, "\"side\":\"ratatosk\",\"pages\":\"256\"", d(20, 20), 1.0, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 2, "\"side\":\"muninn\",\"pages\":\"256\"", d(10, 10), 1.0, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"4096\"", d(9, 9), 0.9, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"4096\"", d(9, 9), 0.9, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 2, "\"side\":\"ratatosk\",\"pages\":\"4096\"", d(9, 9), 0.9, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\",\"pages\":\"8192\"", d(6, 6), 0.3, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\",\"pages\":\"8192\"", d(4, 4), 0.4, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 2, "\"side\":\"ratatosk\",\"pages\":\"8192\"", d(6, 6), 0.6, null, 0.0, 0.0),
            entry("HitPathBenchmark.read", 2, "\"side\":\"muninn\",\"pages\":\"8192\"", d(3, 3), 0.6, null, 0.0, 0.0));
        RatioTable table = RatioTable.of(JmhResult.read(file));
        org.knowm.xchart.CategoryChart chart = RatioChart.build(table);

        List<String> groups = List.of("HitPath.read pages=256 vs muninn (wall clock)",
            "HitPath.read pages=4096 vs muninn (wall clock)", "HitPath.read pages=8192 vs muninn (wall clock)");
        org.knowm.xchart.CategorySeries one = chart.getSeriesMap().get("1 thread");
        org.knowm.xchart.CategorySeries two = chart.getSeriesMap().get("2 threads");
        assertEquals(groups, List.copyOf(one.getXData()));
        assertEquals(Arrays.asList(1.5, 1.0, 1.5), List.copyOf(one.getYData()));
        List<? extends Number> twoThreads = List.copyOf(two.getYData());
        assertEquals(2.0, twoThreads.get(0).doubleValue(), 1e-9);
        assertTrue(Double.isNaN(twoThreads.get(1).doubleValue()),
            "pages=4096 has no ratio at two threads (Muninn's run is missing): no bar, not one of 0: " + twoThreads);
        assertEquals(2.0, twoThreads.get(2).doubleValue(), 1e-9);
        List<Double> errors = List.copyOf(two.getExtraValues()).stream().map(Number::doubleValue).toList();
        assertEquals(0.0, errors.get(1), "and no error bar: " + errors);
        assertEquals(2.0 * Math.sqrt(0.1 * 0.1 + 0.2 * 0.2), errors.get(2), 1e-9, "the 8,192-page bar's error bar is its own");
        RatioChart.write(dir.resolve("partial.png"), table); // XChart draws it, without that bar
        assertTrue(Files.size(dir.resolve("partial.png")) > 0);
    }

    /**
     * The chart's title said every bar but the NVM tiers' was throughput per CPU second, while a row without the cpuNanos
     * counter (the key-value cache's, a fault path run without it) is charted on wall-clock throughput: each such bar
     * now says so.
     */
    @Test
    void aBarWhoseRatioIsWallClockSaysSo() throws IOException {
        Path file = results("kv.json",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", d(12, 12), 0.6, d(1000, 1000), 0.0, 0.0),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\"", d(8, 8), 0.8, d(500, 500), 0.0, 0.0),
            entry("KeyValueCacheBenchmark.get", 1, "\"side\":\"ratatosk\"", d(30, 30), 1.0, null, null, 0.0),
            entry("KeyValueCacheBenchmark.get", 1, "\"side\":\"caffeine\"", d(20, 20), 1.0, null, null, 0.0));
        org.knowm.xchart.CategoryChart chart = RatioChart.build(RatioTable.of(JmhResult.read(file)));

        assertEquals(List.of("HitPath.read vs muninn", "KeyValueCache.get vs caffeine (wall clock)"),
            List.copyOf(chart.getSeriesMap().get("1 thread").getXData()));
        assertEquals(0.75, chart.getSeriesMap().get("1 thread").getYData().iterator().next().doubleValue(), 1e-9,
            "the hit path's bar is per CPU");
        assertTrue(chart.getTitle().contains("wall clock where marked"), chart.getTitle());
    }

    /** The chart drew its ratio ticks in the default locale: "1,5" under de_DE, beside a table that says "1.50". */
    @Test
    void theChartFormatsItsTicksTheSameInEveryLocale() throws IOException {
        RatioTable table = RatioTable.of(JmhResult.read(sample()));
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals(Locale.ROOT, RatioChart.build(table).getStyler().getLocale());
        } finally {
            Locale.setDefault(before);
        }
    }
}
