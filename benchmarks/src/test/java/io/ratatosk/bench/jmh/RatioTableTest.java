package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.Bench;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** From JMH's JSON to the rows, targets and the document section of {@code ./bench jmh-report}. */
class RatioTableTest {
    @TempDir
    Path dir;

    private static String entry(String benchmark, int threads, String params, double score, double error,
                                Double pagesRead, Double bytesPerOp) {
        StringBuilder secondary = new StringBuilder();
        if (pagesRead != null) {
            secondary.append(metric("pagesRead", pagesRead, 0.0, "ops/us"));
        }
        if (bytesPerOp != null) {
            secondary.append(secondary.length() > 0 ? "," : "").append(metric("gc.alloc.rate.norm", bytesPerOp, 0.0, "B/op"));
        }
        return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"io.ratatosk.bench.jmh." + benchmark + "\",\"mode\":\"thrpt\","
            + "\"threads\":" + threads + ",\"forks\":1,\"jdkVersion\":\"17\",\"vmName\":\"OpenJDK\",\"vmVersion\":\"17\","
            + "\"warmupIterations\":2,\"warmupTime\":\"500 ms\",\"measurementIterations\":3,\"measurementTime\":\"500 ms\","
            + "\"params\":{" + params + "},"
            + "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":" + error + ",\"scoreUnit\":\"ops/us\"},"
            + "\"secondaryMetrics\":{" + secondary + "}}";
    }

    private static String metric(String name, double score, double error, String unit) {
        return "\"" + name + "\":{\"score\":" + score + ",\"scoreError\":" + error + ",\"scoreUnit\":\"" + unit + "\"}";
    }

    private Path sample() throws IOException {
        String json = "[" + String.join(",",
            entry("HitPathBenchmark.read", 1, "\"side\":\"ratatosk\"", 12.0, 0.6, 0.0, 0.001),
            entry("HitPathBenchmark.read", 1, "\"side\":\"muninn\"", 8.0, 0.8, 0.0, 0.0),
            entry("FaultPathBenchmark.read", 2, "\"side\":\"ratatosk\",\"fileToCache\":\"4\",\"distribution\":\"uniform\"",
                0.5, Double.NaN, 0.375, 24.0),
            entry("FaultPathBenchmark.read", 2, "\"side\":\"muninn\",\"fileToCache\":\"4\",\"distribution\":\"uniform\"",
                0.4, 0.04, 0.3, 56.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"clock\"", 9.0, 0.9, 0.0, 0.0),
            entry("PolicyHitPathBenchmark.read", 1, "\"policy\":\"global-clock\"", 10.0, 1.0, 0.0, 0.0))
            + "]";
        Path file = dir.resolve("jmh.json");
        Files.writeString(file, json.replace("\"scoreError\":NaN", "\"scoreError\":\"NaN\""));
        return file;
    }

    @Test
    void oursIsPairedWithThePeerOfTheSameParametersAndThreads() throws IOException {
        RatioTable table = RatioTable.of(JmhResult.read(sample()));
        List<RatioTable.Row> rows = table.rows();
        assertEquals(4, rows.size());

        RatioTable.Row read = rows.get(0);
        assertEquals("HitPath.read", read.benchmark());
        assertEquals(1.5, read.ratio(), 1e-9);
        // relative errors 0.05 and 0.1 in quadrature
        assertEquals(1.5 * Math.sqrt(0.05 * 0.05 + 0.1 * 0.1), read.ratioError(), 1e-9);
        assertEquals(1.0, read.oursHitRatio(), 1e-9);

        RatioTable.Row fault = rows.get(1);
        assertEquals("fileToCache=4 distribution=uniform", fault.params());
        assertEquals(2, fault.threads());
        assertEquals(0.25, fault.oursHitRatio(), 1e-9);
        assertEquals(0.25, fault.peerHitRatio(), 1e-9);
        assertEquals(1.25, fault.ratio(), 1e-9);
        assertTrue(Double.isNaN(fault.ratioError()), "JMH's \"NaN\" error (one iteration) stays unknown");
    }

    @Test
    void eachPolicyIsComparedWithGlobalClockWhichComesFirst() throws IOException {
        List<RatioTable.Row> rows = RatioTable.of(JmhResult.read(sample())).rows();
        assertEquals("policy=global-clock", rows.get(2).params());
        assertEquals(1.0, rows.get(2).ratio(), 1e-9);
        assertEquals("policy=clock", rows.get(3).params());
        assertEquals("global-clock", rows.get(3).reference());
        assertEquals(0.9, rows.get(3).ratio(), 1e-9);
    }

    @Test
    void targetsSayWhichRatiosAreMetAndWhatWasNotMeasured() throws IOException {
        List<RatioTable.Target> targets = RatioTable.of(JmhResult.read(sample())).targets();
        assertTrue(targets.get(0).met(), "read 1.5x >= 1.2x");
        assertTrue(targets.get(2).met(), "fault 1.25x >= 1.0x");
        assertTrue(targets.get(1).rows().isEmpty(), "write was not run");
        assertFalse(targets.get(1).met());
        assertTrue(targets.get(4).met(), "0.001 B/op is JMH's noise, not an allocation");
    }

    @Test
    void theReportCommandPrintsTheTableAndReplacesOnlyItsSectionOfTheDocument() throws IOException {
        Path doc = dir.resolve("benchmarks.md");
        Files.writeString(doc, "# Benchmarks\n\nMethod.\n\n" + JmhReportCommand.BEGIN + "\nold\n" + JmhReportCommand.END
            + "\n\nFindings.\n");
        Path chart = dir.resolve("ratios.png");
        StringWriter out = new StringWriter();
        CommandLine cl = Bench.commandLine();
        cl.setOut(new PrintWriter(out));
        int exit = cl.execute("jmh-report", sample().toString(), "--doc", doc.toString(), "--chart", chart.toString());

        assertEquals(0, exit, out.toString());
        assertTrue(out.toString().contains("| HitPath.read | - | 1 | 12.000 ± 0.600 | muninn | 8.000 ± 0.800 | 1.50 ± 0.17 |"),
            out.toString());
        String text = Files.readString(doc);
        assertTrue(text.startsWith("# Benchmarks\n\nMethod.\n\n" + JmhReportCommand.BEGIN), text);
        assertTrue(text.endsWith(JmhReportCommand.END + "\n\nFindings.\n"), text);
        assertFalse(text.contains("old"));
        assertTrue(text.contains("![Throughput ratios, ours / reference](ratios.png)"), text);
        assertTrue(Files.size(chart) > 1000);
        assertTrue(text.toLowerCase(Locale.ROOT).contains("targets"));
    }
}
