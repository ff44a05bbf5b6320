package io.ratatosk.bench.sim.cli;

import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.TraceFormat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.Bench;
import io.ratatosk.bench.sim.AppendOnlyFolder;
import io.ratatosk.bench.sim.ChildProcess;
import io.ratatosk.bench.sim.OutputFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;
import picocli.CommandLine;

/** {@code bench sim} end to end on small generated traces. */
class SimCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path loop;
    private Path zipf;

    @BeforeEach
    void traces() throws IOException {
        int[] loopKeys = new int[3000];
        Arrays.setAll(loopKeys, i -> i % 60);
        loop = lirs(dir, "loop.trace.gz", loopKeys);
        int[] skewed = new int[5000];
        Arrays.setAll(skewed, i -> (int) (Math.pow((i * 7919L % 1000) / 1000.0, 3) * 400));
        zipf = lirs(dir, "skewed.trace.gz", skewed);
    }

    private int bench(String... args) {
        CommandLine cl = Bench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /**
     * The outputs' check makes their folders before the replays; a run that then failed (a trace it could not read, an
     * output refused after another's folder was made) left them behind, empty. They go again; a run that writes keeps
     * its folder.
     */
    @Test
    void aFailedRunLeavesNoFolderItMadeForItsOutputs() throws IOException {
        Path bad = Files.writeString(dir.resolve("lirs").resolve("bad.trace"), "1\n2\nx\n");
        Path json = dir.resolve("new/deeper/r.json");
        Path chart = dir.resolve("charts/r.png");
        assertEquals(1, bench("sim", "--quiet", "--json", json.toString(), "--chart", chart.toString(), bad.toString()));
        assertTrue(err.toString().contains("line 3: expected one integer key per line"), err.toString());
        assertFalse(Files.exists(dir.resolve("new")), "no folder left for --json");
        assertFalse(Files.exists(dir.resolve("charts")), "no folder left for --chart");

        Path folderNamedAsAChart = Files.createDirectories(dir.resolve("a folder.png")); // checked after --json's folder
        assertEquals(2, bench("sim", "--quiet", "--json", json.toString(), "--chart", folderNamedAsAChart.toString(),
            loop.toString()));
        assertTrue(err.toString().contains("--chart " + folderNamedAsAChart + " is a folder"), err.toString());
        assertFalse(Files.exists(dir.resolve("new")), "refused: no folder left for --json");

        assertEquals(0, bench("sim", "--quiet", "--json", json.toString(), loop.toString()), err.toString());
        assertTrue(Files.isRegularFile(json), "a run that writes keeps its folder");
    }

    /**
     * A run that failed and then could not delete the folder it made for its output (one that takes no deletion) said
     * the clean-up's failure alone, "bench sim: /x/new: Operation not permitted": why the run failed was lost.
     */
    @Test
    void aCleanUpThatFailsIsSaidAfterTheRunsOwnFailureNotInsteadOfIt() throws Exception {
        Path bad = Files.writeString(dir.resolve("lirs").resolve("bad.trace"), "1\n2\nx\n");
        Path appendOnly = Files.createDirectory(dir.resolve("append-only"));
        AppendOnlyFolder undeletable = AppendOnlyFolder.make(appendOnly);
        assumeTrue(undeletable != null, "chattr +a takes root");
        try (undeletable) {
            assertEquals(1, bench("sim", "--quiet", "--json", appendOnly.resolve("new/r.json").toString(), bad.toString()));
        }
        String said = err.toString();
        int failure = said.indexOf("line 3: expected one integer key per line");
        int cleanUp = said.indexOf("bench sim: could not clean up after the run: " + appendOnly.resolve("new"));
        assertTrue(failure >= 0 && cleanUp > failure, said);
    }

    /**
     * Two runs given outputs in one folder that neither found (a script's runs in parallel, --json results/NAME.json):
     * the one whose check made it and that then failed deleted it again, empty, while the other replayed, which then
     * lost its results at its end, "cannot write --json results/b.json: no such folder". A run makes its outputs'
     * folder again where it is gone, as ldbc does for its --out.
     */
    @Test
    void aRunWhoseOutputsFolderIsDeletedMeanwhileStillWritesItsOutputs() throws IOException {
        Path results = Files.createDirectory(dir.resolve("results")); // made by the other run's check: not this one's
        Path json = results.resolve("b.json");
        Path chart = results.resolve("b.png");
        boolean[] deleted = {false};
        ByteArrayOutputStream progress = new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
                super.write(b, off, len);
                if (!deleted[0]) { // the replays have begun: the other run fails and deletes the folder it made, empty
                    deleted[0] = true;
                    try {
                        OutputFile.deleteIfNoFile(results);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
        };
        java.io.PrintStream stderr = System.err; // where sim's progress goes
        int rc;
        try {
            System.setErr(new java.io.PrintStream(progress, true, StandardCharsets.UTF_8));
            rc = bench("sim", "--json", json.toString(), "--chart", chart.toString(), loop.toString());
        } finally {
            System.setErr(stderr);
        }
        assertTrue(deleted[0], "the run reported its progress: " + err);
        assertEquals(0, rc, err + progress.toString(StandardCharsets.UTF_8));
        assertTrue(Files.isRegularFile(json) && Files.isRegularFile(chart), err.toString());
    }

    /**
     * Several timeline charts are named STEM-TRACE-SIZE.EXT: a --timeline-chart whose own name fits a file name's 255
     * bytes passed the check, and after the replays the charts failed, "File name too long". Refused before them now.
     */
    @Test
    void aTimelineChartWhoseChartsNamesPassTheFileNameLimitIsRefusedBeforeTheReplays() throws IOException {
        String stem = "t".repeat(245); // its charts: 245 + "-skewed-30.png", 259 bytes
        Path timelineChart = dir.resolve("charts").resolve(stem + ".png");
        assertEquals(2, bench("sim", "--quiet", "--sizes", "30", "--timeline", "100", "--timeline-chart",
            timelineChart.toString(), loop.toString(), zipf.toString()), err.toString());
        assertTrue(err.toString().contains("--timeline-chart " + timelineChart + ": its charts' names (" + stem
            + "-TRACE-SIZE.png) may take "), err.toString());
        assertEquals("", out.toString(), "refused before the replays");
        assertFalse(Files.exists(dir.resolve("charts")), "no folder left for it");

        String fits = "t".repeat(241); // 241 + "-skewed-30.png", 255 bytes
        Path written = dir.resolve(fits + ".png");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "30", "--timeline", "100", "--timeline-chart", written.toString(),
            loop.toString(), zipf.toString()), err.toString());
        assertTrue(Files.isRegularFile(dir.resolve(fits + "-skewed-30.png")), err.toString());
    }

    /**
     * An output named {@code /}, whose path has no file name and no folder above it: the folders --json's check would
     * make were looked for above null, and a chart's extension read from no name, each a NullPointerException's stack
     * trace, exit 1. Each is a usage error naming it.
     */
    @Test
    void anOutputNamedTheRootFolderIsAUsageError() {
        Map<String, String> refusals = Map.of("--json", "--json / is a folder; name a file",
            "--chart", "--chart file must end in .png or .svg: /",
            "--timeline-chart", "--timeline-chart file must end in .png or .svg: /");
        refusals.forEach((option, refusal) -> {
            StringWriter said = new StringWriter();
            CommandLine cl = Bench.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(said, true));
            assertEquals(2, cl.execute("sim", "--quiet", "--timeline", "100", option, "/", loop.toString()), said.toString());
            assertTrue(said.toString().contains(refusal), said.toString());
            assertFalse(said.toString().contains("Exception"), said.toString());
        });
    }

    @Test
    void oneTracePrintsATableAndWritesTheTraceObject() throws IOException {
        Path json = dir.resolve("one.json");
        int rc = bench("sim", "--quiet", "--sizes", "30,/2", "--policies", "lru,global-clock:max_usage=4,opt",
            "--json", json.toString(), loop.toString());
        assertEquals(0, rc, err.toString());
        String table = out.toString();
        assertTrue(table.contains("lirs/loop.trace.gz: 3,000 requests, 60 distinct keys"), table);
        assertTrue(table.contains("global-clock:max_usage=4"), table);
        assertTrue(table.contains("% OPT"), table);

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals("lirs/loop.trace.gz", root.get("trace").asText());
        assertEquals(3000, root.get("requests").asInt());
        assertEquals(60, root.get("distinct").asInt());
        JsonNode results = root.get("results");
        assertEquals(3, results.size(), "/2 of 60 distinct keys is 30, the size already given, so it runs once");
        JsonNode first = results.get(0);
        assertEquals("lru", first.get("policy").asText());
        assertEquals(30, first.get("size").asInt());
        assertEquals(0, first.get("hits").asLong(), "a 60-key loop in 30 entries never hits under LRU");
        assertEquals(0.0, first.get("hitRatio").asDouble());
        assertEquals("opt", results.get(2).get("policy").asText());
        assertTrue(results.get(2).get("hits").asLong() > 0);
    }

    @Test
    void traceDirRunsEveryTraceAndAddsASummary() throws IOException {
        Files.writeString(dir.resolve("lirs/README"), "not a trace");
        Path json = dir.resolve("all.json");
        int rc = bench("sim", "--quiet", "--sizes", "/10,/2", "--policies", "lru,clock,caffeine,opt",
            "--trace-dir", dir.toString(), "--json", json.toString());
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("summary"), out.toString());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("traces").size());
        JsonNode summary = root.get("summary");
        assertEquals("opt", summary.get("baseline").asText());
        assertEquals(4, summary.get("policies").size());
        assertEquals(1.0, summary.get("policies").get(3).get("geometricMean").asDouble(), "opt against itself");
        assertEquals(4, summary.get("winners").size(), "two traces, two sizes each");
    }

    /**
     * A --trace-dir that is a link to a folder found "no recognised trace", a linked folder inside one was passed over
     * without a word, and a trace named twice (or also under --trace-dir) was replayed and summarised as often.
     */
    @Test
    void traceDirFollowsLinksPassesOverLoopsAndReplaysEachTraceOnce() throws IOException {
        Path linked = Files.createDirectories(dir.resolve("elsewhere/lirs"));
        lirs(linked.getParent(), "far.trace.gz", 1, 2, 1);
        Path top = Files.createDirectories(dir.resolve("top"));
        Files.createSymbolicLink(top.resolve("in"), dir.resolve("lirs"));
        Files.createSymbolicLink(top.resolve("far"), dir.resolve("elsewhere"));
        Files.createSymbolicLink(top.resolve("back"), top);
        Path viaLink = Files.createSymbolicLink(dir.resolve("top-link"), top);
        Path json = dir.resolve("all.json");
        int rc = bench("sim", "--quiet", "--sizes", "2", "--policies", "lru", "--json", json.toString(),
            "--trace-dir", viaLink.toString(), loop.toString());
        assertEquals(0, rc, err.toString());
        JsonNode traces = new ObjectMapper().readTree(json.toFile()).get("traces");
        assertEquals(3, traces.size(), "loop, skewed and far, each once: " + traces);
        assertTrue(err.toString().contains("note: passing over " + viaLink.resolve("back")), err.toString());
        assertTrue(err.toString().contains(viaLink.resolve("in/loop.trace.gz") + " is " + loop + "; replayed once"),
            err.toString());
    }

    /** A trace reached by two hard links under --trace-dir was replayed twice, and counted twice in the summary. */
    @Test
    void aTraceUnderTwoHardLinksIsReplayedOnce() throws IOException {
        Path linked = Files.createDirectories(dir.resolve("linked"));
        Path a = Files.copy(loop, linked.resolve("a.trace.gz"));
        Path b = Files.createLink(linked.resolve("b.trace.gz"), a);
        Path json = dir.resolve("linked.json");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "2", "--policies", "lru", "--json", json.toString(),
            "--trace-dir", linked.toString()), err.toString());
        assertEquals(1, new ObjectMapper().readTree(json.toFile()).get("traces").size());
        assertTrue(err.toString().contains(b + " is " + a + "; replayed once"), err.toString());
    }

    /**
     * A *.trace under --trace-dir whose folders and name tell no format (x/keys.trace) was left out without a word, as a
     * README is, and --format did not bring it in either: the run replayed the others and exited 0.
     */
    @Test
    void aTraceUnderTheTraceDirWhoseFormatIsUntoldIsNotedOrReadAsTheFormatGiven() throws IOException {
        Path traces = Files.createDirectories(dir.resolve("mixed"));
        Files.copy(loop, Files.createDirectories(traces.resolve("lirs")).resolve("a.trace.gz"));
        Path untold = Files.writeString(Files.createDirectories(traces.resolve("x")).resolve("keys.trace"), "1\n2\n1\n");
        Files.writeString(traces.resolve("README"), "not a trace\n");
        Path json = dir.resolve("mixed.json");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "2", "--policies", "lru", "--json", json.toString(),
            "--trace-dir", traces.toString()), err.toString());
        assertEquals(1, new ObjectMapper().readTree(json.toFile()).get("traces").size());
        assertTrue(err.toString().contains("note: passing over " + untold + ": neither its folders nor its name tell its"
            + " format; --format names it"), err.toString());
        assertFalse(err.toString().contains("README"), err.toString());

        err.getBuffer().setLength(0);
        assertEquals(0, bench("sim", "--quiet", "--sizes", "2", "--policies", "lru", "--format", "lirs", "--json",
            json.toString(), "--trace-dir", traces.toString()), err.toString());
        assertEquals(2, new ObjectMapper().readTree(json.toFile()).get("traces").size());
    }

    @Test
    void chartIsWrittenAsPngOrSvgByExtension() throws IOException {
        Path png = dir.resolve("c.png");
        Path svg = dir.resolve("c.svg");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru,opt", "--chart", png.toString(),
            loop.toString(), zipf.toString()), err.toString());
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru,opt", "--chart", svg.toString(),
            loop.toString()), err.toString());
        byte[] pngHeader = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, pngHeader);
        assertTrue(Files.readString(svg).contains("<svg"));
    }

    /**
     * A loop of 60 keys in 30 entries: LRU never hits; OPT hits from the second pass on, so its first bucket of 60
     * requests (the first pass) has none and every later one some. Each policy's buckets add up to its hits.
     */
    @Test
    void timelineCountsHitsPerBucketInTheTableAndTheJson() throws IOException {
        Path json = dir.resolve("t.json");
        int rc = bench("sim", "--quiet", "--sizes", "30", "--policies", "lru,muninn,opt", "--timeline", "60",
            "--json", json.toString(), loop.toString());
        assertEquals(0, rc, err.toString());
        String text = out.toString();
        assertTrue(text.contains("lirs/loop.trace.gz @ 30: hit % per 60 requests"), text);
        assertTrue(text.contains("request  lru      muninn   opt"), text);
        JsonNode results = new ObjectMapper().readTree(json.toFile()).get("results");
        for (JsonNode result : results) {
            JsonNode timeline = result.get("timeline");
            assertEquals(60, timeline.get("bucket").asInt());
            JsonNode hits = timeline.get("hits");
            assertEquals(50, hits.size(), "3,000 requests in buckets of 60");
            long sum = 0;
            for (JsonNode bucket : hits) {
                sum += bucket.asLong();
            }
            assertEquals(result.get("hits").asLong(), sum, result.get("policy").asText());
        }
        JsonNode opt = results.get(2).get("timeline").get("hits");
        assertEquals(0, opt.get(0).asLong(), "the first pass misses");
        assertTrue(opt.get(1).asLong() > 0, "OPT keeps part of the loop");
        assertEquals(0, results.get(0).get("hits").asLong(), "LRU");
    }

    @Test
    void timelineChartsOneFilePerTraceAndSize() throws IOException {
        Path png = dir.resolve("tl.png");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10,20", "--policies", "lru,best-of", "--timeline", "500",
            "--timeline-chart", png.toString(), loop.toString(), zipf.toString()), err.toString());
        for (String name : new String[] {"tl-loop-10.png", "tl-loop-20.png", "tl-skewed-10.png", "tl-skewed-20.png"}) {
            byte[] header = Arrays.copyOf(Files.readAllBytes(dir.resolve(name)), 4);
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, header, name);
        }
        Path one = dir.resolve("one.svg");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--timeline", "500",
            "--timeline-chart", one.toString(), loop.toString()), err.toString());
        assertTrue(Files.readString(one).contains("<svg"), "one trace at one size: the file as named");
    }

    /**
     * a/lirs/x and b/lirs/x were one trace in the JSON, the summary and the charts, and the second one's timeline
     * charts were written over the first's.
     */
    @Test
    void tracesOfOneNameAreToldApartInTheReportAndTheirCharts() throws IOException {
        int[] keys = new int[1000];
        Arrays.setAll(keys, i -> i % 7);
        Path a = lirs(dir.resolve("a"), "x.trace.gz", keys);
        Path b = lirs(dir.resolve("b"), "x.trace.gz", loopKeys());
        Path json = dir.resolve("two.json");
        Path png = dir.resolve("tl.png");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--timeline", "500", "--json",
            json.toString(), "--timeline-chart", png.toString(), a.toString(), b.toString()), err.toString());
        JsonNode traces = new ObjectMapper().readTree(json.toFile()).get("traces");
        assertEquals("a/lirs/x.trace.gz", traces.get(0).get("trace").asText());
        assertEquals("b/lirs/x.trace.gz", traces.get(1).get("trace").asText());
        assertTrue(Files.isRegularFile(dir.resolve("tl-a-lirs-x.trace.gz-10.png")), String.join(",", listing()));
        assertTrue(Files.isRegularFile(dir.resolve("tl-b-lirs-x.trace.gz-10.png")), String.join(",", listing()));
    }

    private List<String> listing() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static int[] loopKeys() {
        int[] keys = new int[3000];
        Arrays.setAll(keys, i -> i % 60);
        return keys;
    }

    @Test
    void timelineThatCannotWorkIsAUsageErrorBeforeAnyReplay() {
        assertEquals(2, bench("sim", "--quiet", "--timeline", "0", loop.toString()));
        assertTrue(err.toString().contains("--timeline must be at least 1 request: 0"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--timeline", "2", loop.toString()));
        assertTrue(err.toString().contains("--timeline 2 cuts lirs/loop.trace.gz (3,000 requests) into 1,500 buckets;"
            + " at most 1,000: use --timeline 3 or more"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--timeline-chart", dir.resolve("x.png").toString(), loop.toString()));
        assertTrue(err.toString().contains("--timeline-chart needs --timeline N"), err.toString());
        assertEquals("", out.toString(), "no table: nothing was replayed");
    }

    /**
     * --threads had no upper bound: 99999999 was taken, and the pool started a thread per replay up to it (a long
     * --sizes list times the policies ran out of native threads). Refused as the other commands refuse it.
     */
    @Test
    void threadsOutOfRangeIsAUsageErrorBeforeAnyReplay() {
        assertEquals(2, bench("sim", "--quiet", "--threads", "99999999", loop.toString()));
        assertTrue(err.toString().contains("--threads must be from 1 to 4096: 99999999"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--threads", "0", loop.toString()));
        assertTrue(err.toString().contains("--threads must be from 1 to 4096: 0"), err.toString());
        assertEquals("", out.toString(), "no table: nothing was replayed");
        assertEquals(0, bench("sim", "--quiet", "--policies", "lru", "--sizes", "30", "--threads", "4096", loop.toString()));
    }

    /**
     * In a run of several traces, one too long for N is not a usage error after the traces before it were replayed:
     * its buckets widen to the least that fits, with a note, and the run ends with every result and the JSON.
     */
    @Test
    void aTraceTooLongForTheTimelineInARunOfSeveralWidensItsBuckets() throws IOException {
        Path json = dir.resolve("several.json");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--timeline", "4",
            "--json", json.toString(), loop.toString(), zipf.toString()), err.toString());
        assertTrue(err.toString().contains("note: --timeline 4 cuts lirs/skewed.trace.gz (5,000 requests) into 1,250"
            + " buckets; at most 1,000: its timeline counts per 5 requests"), err.toString());
        assertFalse(err.toString().contains("loop.trace.gz (3,000"), "the loop fits: no note for it");
        assertTrue(out.toString().contains("lirs/skewed.trace.gz @ 10: hit % per 5 requests"), out.toString());
        JsonNode traces = new ObjectMapper().readTree(json.toFile()).get("traces");
        assertEquals(2, traces.size(), "both traces' results are written");
        JsonNode loopTimeline = traces.get(0).get("results").get(0).get("timeline");
        assertEquals(4, loopTimeline.get("bucket").asInt());
        assertEquals(750, loopTimeline.get("hits").size());
        JsonNode skewedTimeline = traces.get(1).get("results").get(0).get("timeline");
        assertEquals(5, skewedTimeline.get("bucket").asInt());
        assertEquals(1000, skewedTimeline.get("hits").size());
    }

    /** An output that could only fail after the replays is refused before them, so no long run is lost to a typo. */
    @Test
    void anOutputFileThatCannotBeWrittenIsAUsageErrorBeforeAnyReplay() throws IOException {
        assertEquals(2, bench("sim", "--quiet", "--chart", dir.resolve("c.gif").toString(), loop.toString()));
        assertTrue(err.toString().contains("--chart file must end in .png or .svg: " + dir.resolve("c.gif")), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--timeline", "500", "--timeline-chart", dir.resolve("t.jpg").toString(),
            loop.toString()));
        assertTrue(err.toString().contains("--timeline-chart file must end in .png or .svg"), err.toString());
        Path folder = Files.createDirectories(dir.resolve("taken.json"));
        assertEquals(2, bench("sim", "--quiet", "--json", folder.toString(), loop.toString()));
        assertTrue(err.toString().contains("--json " + folder + " is a folder; name a file"), err.toString());
        Path file = write(dir, "plain", new byte[] {1});
        assertEquals(2, bench("sim", "--quiet", "--json", file.resolve("r.json").toString(), loop.toString()));
        assertTrue(err.toString().contains("--json: cannot create the folder " + file), err.toString());
        assertEquals("", out.toString(), "no table: nothing was replayed");

        Path nested = dir.resolve("new/deeper/r.json");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--json", nested.toString(),
            loop.toString()), err.toString());
        assertTrue(Files.size(nested) > 0, "a missing folder is created");
    }

    /**
     * Flags that hold at some sizes and not at others were refused by the replay, as a stack trace, after the other
     * replays ran and with every result lost: now each pair is built before any replay, and refused in one line.
     */
    @Test
    void aPolicyThatCannotRunAtOneOfTheSizesIsAUsageErrorBeforeAnyReplay() {
        Path json = dir.resolve("never.json");
        assertEquals(2, bench("sim", "--quiet", "--sizes", "30", "--policies", "lru,clock-pro:cold_min=0.5:cold_max=0.1",
            "--json", json.toString(), loop.toString()));
        assertTrue(err.toString().contains("bench sim: clock-pro:cold_min=0.5:cold_max=0.1 at size 30 on lirs/loop.trace.gz:"
            + " pagecache.clockpro.cold_min=0.5"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--sizes", "30,10", "--policies", "lru,clock-pro:cold_min=20",
            "--json", json.toString(), loop.toString()));
        assertTrue(err.toString().contains("clock-pro:cold_min=20 at size 10 on lirs/loop.trace.gz: "), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--sizes", "1000", "--policies", "clock-pro:cold_min=500", loop.toString()));
        assertTrue(err.toString().contains("clock-pro:cold_min=500 at size 1000 (simulated at 60, the trace's distinct keys)"
            + " on lirs/loop.trace.gz: "), err.toString());
        assertFalse(err.toString().contains("Exception"), err.toString());
        assertFalse(err.toString().contains("\tat "), "no stack trace: " + err);
        assertEquals("", out.toString(), "no table: nothing was replayed");
        assertFalse(Files.exists(json));
    }

    /**
     * A cache with more entries than the trace has keys never evicts: every policy runs at the distinct-key count
     * (the page cache's policies allocated every frame asked for: 64 GiB for 2147483647), reported under the size
     * asked for, with a note.
     */
    @Test
    void sizesAboveTheDistinctKeysAreSimulatedAtTheDistinctKeys() throws IOException {
        Path json = dir.resolve("big.json");
        assertEquals(0, bench("sim", "--quiet", "--sizes", "60,2147483647", "--policies", "lru,muninn,clock-pro,caffeine,opt",
            "--json", json.toString(), loop.toString()), err.toString());
        String table = out.toString();
        assertTrue(table.contains("2147483647"), table);
        assertEquals(1, table.split("sizes above the 60 distinct keys were simulated at 60", -1).length - 1, table);
        JsonNode results = new ObjectMapper().readTree(json.toFile()).get("results");
        assertEquals(10, results.size());
        for (int i = 0; i < results.size(); i += 2) {
            JsonNode atDistinct = results.get(i);
            JsonNode above = results.get(i + 1);
            assertEquals(60, atDistinct.get("size").asInt());
            assertEquals(2147483647, above.get("size").asInt(), "the size asked for labels the row");
            assertEquals(3000 - 60, above.get("hits").asLong(), above.get("policy").asText() + ": only the first misses");
            assertEquals(atDistinct.get("hits").asLong(), above.get("hits").asLong());
        }
    }

    /** {@code --json a.trace.gz b.trace.gz}, a slip of the order, replaced trace a with the report, silently. */
    @Test
    void anOutputThatIsOneOfTheTracesIsRefusedBeforeItIsOverwritten() throws IOException {
        byte[] before = Files.readAllBytes(loop);
        assertEquals(2, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--json", loop.toString(),
            loop.toString()));
        assertTrue(err.toString().contains("--json " + loop + " is an input of this run; writing it would destroy it"),
            err.toString());
        Path sameByAnotherPath = dir.resolve("lirs/../lirs/loop.trace.gz");
        assertEquals(2, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--json", sameByAnotherPath.toString(),
            "--trace-dir", dir.toString()));
        assertTrue(err.toString().contains("--json " + sameByAnotherPath + " is an input of this run (" + loop + ")"),
            err.toString());
        Path svgTrace = write(dir, "t.svg", "1\n2\n1\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(2, bench("sim", "--quiet", "--format", "lirs", "--sizes", "1", "--policies", "lru",
            "--chart", svgTrace.toString(), svgTrace.toString()));
        assertTrue(err.toString().contains("--chart " + svgTrace + " is an input of this run"), err.toString());
        assertEquals("", out.toString(), "no table: nothing was replayed");
        assertArrayEquals(before, Files.readAllBytes(loop));
        assertEquals("1\n2\n1\n", Files.readString(svgTrace));
    }

    /**
     * A folder that looks writable but takes no new file ({@code /proc}; to root every folder looks writable) was
     * found only when the chart was written after the replays, and said as the bare path: "bench sim: /proc/x.svg".
     */
    @Test
    void aFolderThatTakesNoNewFileIsAUsageErrorNamingTheOption() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux's /proc");
        Path chart = Path.of("/proc/ratatosk-sim-test.svg");
        assertEquals(2, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--chart", chart.toString(),
            loop.toString()));
        assertTrue(err.toString().contains("--chart " + chart), err.toString());
        assertTrue(err.toString().contains("cannot write --chart " + chart + ": the folder /proc takes no new files")
            || err.toString().contains("--chart " + chart + " is not writable"), err.toString());
        assertEquals("", out.toString(), "no table: nothing was replayed");
    }

    /** A write that fails all the same said only the OS's words: "bench sim: No space left on device". */
    @Test
    void aWriteThatFailsNamesTheOptionTheFileAndWhy() {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "Linux's /dev/full");
        assertEquals(1, bench("sim", "--quiet", "--sizes", "10", "--policies", "lru", "--json", full.toString(),
            loop.toString()));
        assertTrue(err.toString().contains("bench sim: cannot write --json /dev/full: No space left on device"),
            err.toString());
        assertTrue(out.toString().contains("lirs/loop.trace.gz"), "the table is out before the JSON: " + out);
        assertFalse(Files.isRegularFile(full), "a device is written through, never renamed over");
    }

    /** Two outputs naming one file: the one written later replaced the other without a word. */
    @Test
    void twoOutputsNamingOneFileAreRefused() {
        Path svg = dir.resolve("r.svg");
        assertEquals(2, bench("sim", "--quiet", "--json", svg.toString(), "--chart", dir.resolve(".").resolve("r.svg").toString(),
            loop.toString()));
        assertTrue(err.toString().contains("--json and --chart both name " + svg + ": one would be written over the other;"
            + " name two files"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--timeline", "100", "--chart", svg.toString(), "--timeline-chart",
            svg.toString(), loop.toString()));
        assertTrue(err.toString().contains("--chart and --timeline-chart both name " + svg), err.toString());
        assertFalse(Files.exists(svg), "nothing written");
    }

    /**
     * With several traces or sizes, --timeline-chart t.png writes t-TRACE-SIZE.png: a --chart named so (t-loop-2.png)
     * was written over by the timeline of that trace and size, without a word, exit 0.
     */
    @Test
    void anOutputThatATimelineChartMayBeIsRefused() {
        Path timelines = dir.resolve("t.png");
        Path chart = dir.resolve("t-loop-2.png");
        assertEquals(2, bench("sim", "--quiet", "--policies", "lru,opt", "--sizes", "2,3", "--timeline", "10",
            "--timeline-chart", timelines.toString(), "--chart", chart.toString(), loop.toString()));
        assertTrue(err.toString().contains("--chart " + chart + " may be one of the files --timeline-chart " + timelines
            + " stands for (t-TRACE-SIZE.png, one per trace and size)"), err.toString());
        assertFalse(Files.exists(chart), "nothing written");
        Path json = dir.resolve("t-report.png");
        assertEquals(2, bench("sim", "--quiet", "--timeline", "10", "--timeline-chart", timelines.toString(), "--json",
            json.toString(), loop.toString()));
        assertTrue(err.toString().contains("--json " + json + " may be one of the files"), err.toString());
    }

    /** The JSON report is written plain: a --json r.json.gz held plain text under a gzip name, without a word. */
    @Test
    void aJsonReportNamedAsCompressedIsRefused() {
        for (String name : new String[] {"r.json.gz", "r.json.ZST", "r.xz", "r.json.bz2"}) {
            Path json = dir.resolve(name);
            assertEquals(2, bench("sim", "--quiet", "--json", json.toString(), loop.toString()));
            String ending = name.substring(name.lastIndexOf('.'));
            assertTrue(err.toString().contains("--json " + json + ": the results are written as plain JSON, not "
                + ending.toLowerCase(java.util.Locale.ROOT) + "; name it without"), err.toString());
            assertFalse(Files.exists(json), "nothing written");
        }
    }

    @Test
    void aTracePathThatIsNoFileSaysWhatItIs() {
        assertEquals(2, bench("sim", "--quiet", dir.resolve("missing.trace.gz").toString()));
        assertTrue(err.toString().contains("no such trace file: " + dir.resolve("missing.trace.gz")), err.toString());
        assertEquals(2, bench("sim", "--quiet", dir.toString()));
        assertTrue(err.toString().contains(dir + " is a folder; --trace-dir " + dir + " replays the traces in it"),
            err.toString());
        // empty, each was the current folder: a TRACE said " is a folder", and --trace-dir replayed every trace under it
        assertEquals(2, bench("sim", "--quiet", ""));
        assertTrue(err.toString().contains("an empty TRACE names no trace file"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--trace-dir", ""));
        assertTrue(err.toString().contains("--trace-dir '' names no folder ('.' for the current one)"), err.toString());
        assertEquals(2, bench("sim", "--quiet", "--trace-dir", loop.toString()));
        assertTrue(err.toString().contains("--trace-dir " + loop + " is not a folder; a trace file is named without"
            + " --trace-dir"), err.toString());
        assertEquals("", out.toString());
    }

    /**
     * A policy refused was said without the option it came from ("bench sim: unknown policy 'lfu'", "bench sim:
     * pagecache.clock.max_usage=99: ...", a flag the user never wrote): now the option and the part of the list, as
     * ./bench throughput says it.
     */
    @Test
    void aRefusedPolicyNamesTheOptionAndThePart() {
        String[][] refused = {{"lru,lfu", "--policies lfu: unknown policy 'lfu'"},
            {"lru, global-clock:max_usage=99", "--policies global-clock:max_usage=99: pagecache.clock.max_usage=99: must be"},
            {"global-clock:foo=1", "--policies global-clock:foo=1: unknown flag 'foo'"},
            {"lru:x=1", "--policies lru:x=1: policy lru takes no flags"},
            {" , ", "--policies names no policy: ' , '"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, bench("sim", "--quiet", "--policies", each[0], loop.toString()), err.toString());
            assertTrue(err.toString().contains("bench sim: " + each[1]), err.toString());
        }
        assertEquals("", out.toString(), "nothing replayed");
    }

    /** A refused size or format named no option: "bench sim: no cache size in ''", "unknown trace format 'x'". */
    @Test
    void aRefusedSizeOrFormatNamesItsOption() {
        String[][] refused = {{"--sizes", "0", "--sizes: cache size '0' must be"}, {"--sizes", "", "--sizes: no cache size"},
            {"--sizes", "10,/0", "--sizes: cache size '/0' must be"}, {"--format", "parquet", "--format: unknown trace format"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, bench("sim", "--quiet", each[0], each[1], loop.toString()), err.toString());
            assertTrue(err.toString().contains("bench sim: " + each[2]), err.toString());
        }
        assertEquals("", out.toString(), "nothing replayed");
    }

    @Test
    void unknownFormatIsAUsageErrorListingTheFormats() {
        assertEquals(2, bench("sim", "--format", "parquet", loop.toString()));
        for (TraceFormat f : TraceFormat.values()) {
            assertTrue(err.toString().contains(f.id()), err.toString());
        }
    }

    @Test
    void unknownPolicyIsAUsageErrorListingThePolicies() {
        assertEquals(2, bench("sim", "--policies", "lru,lfu", loop.toString()));
        for (String name : PolicyCatalog.standard().names()) {
            assertTrue(err.toString().contains(name), err.toString());
        }
    }

    /**
     * A later trace of a folder that could not be read, or whose keys are too few for a policy at one of the sizes,
     * stopped the run after the earlier replays, with none of their results in --json or the summary: now it is
     * skipped, saying why, the others are reported, and the status says the run was not whole.
     */
    @Test
    void aBadTraceInAFolderIsSkippedAndTheOthersReported() throws IOException {
        byte[] whole = Files.readAllBytes(zipf);
        Path cut = write(dir, "zz/cut.trace.gz", Arrays.copyOf(whole, whole.length - 100));
        int[] few = new int[200];
        Arrays.setAll(few, i -> i % 10);
        Path tiny = lirs(dir.resolve("zz"), "tiny.trace.gz", few); // /2 is 5 entries, below cold_min=20
        Path json = dir.resolve("partial.json");
        int rc = bench("sim", "--quiet", "--sizes", "/2", "--policies", "lru,clock-pro:cold_min=20", "--trace-dir",
            dir.toString(), "--json", json.toString());
        assertEquals(1, rc, err.toString());
        assertTrue(err.toString().contains("bench sim: skipping " + cut + ": "), err.toString());
        assertFalse(err.toString().contains(cut + ": " + cut), "the file named once: " + err);
        assertTrue(err.toString().contains("bench sim: skipping " + tiny + ": clock-pro:cold_min=20 at size 5"), err.toString());
        assertTrue(err.toString().contains("bench sim: skipped 2 of 4 traces"), err.toString());
        assertFalse(err.toString().contains("\tat "), "no stack trace: " + err);
        assertTrue(out.toString().contains("summary"), out.toString());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("traces").size(), "the two good traces");

        // All bad: refused as a run of the first alone, and nothing written.
        err.getBuffer().setLength(0);
        Path none = dir.resolve("none.json");
        assertEquals(1, bench("sim", "--quiet", "--policies", "lru,clock-pro:cold_min=20", "--trace-dir",
            dir.resolve("zz").toString(), "--sizes", "/2", "--json", none.toString()));
        assertTrue(err.toString().contains("bench sim: skipping " + cut), err.toString());
        assertFalse(Files.exists(none));
    }

    /**
     * A later trace that could not be read at all (no requests, a first line that is no key) was found only once the
     * traces before it had replayed, hours into a run of a folder: each trace's start is read before the first replay,
     * and one refused is skipped then, saying why, the others replayed as before.
     */
    @Test
    void aTraceWhoseStartCannotBeReadIsSkippedBeforeTheFirstReplay() throws IOException {
        Path words = write(dir, "lirs/words.trace", "hello\n1\n".getBytes(StandardCharsets.US_ASCII));
        Path empty = write(dir, "lirs/empty.trace", new byte[0]);
        StringWriter both = new StringWriter(); // stdout and stderr in the order written
        CommandLine cl = Bench.commandLine();
        cl.setOut(new PrintWriter(both, true));
        cl.setErr(new PrintWriter(both, true));
        assertEquals(1, cl.execute("sim", "--quiet", "--sizes", "10", "--policies", "lru", loop.toString(),
            words.toString(), empty.toString()), both.toString());
        String said = both.toString();
        int firstTable = said.indexOf("policy");
        assertTrue(firstTable > 0, said);
        for (Path bad : List.of(words, empty)) {
            int skip = said.indexOf("bench sim: skipping " + bad + ": ");
            assertTrue(skip >= 0 && skip < firstTable, "said before the first table: " + said);
        }
        assertTrue(said.contains("skipping " + words + ": line 1: expected one integer key per line"), said);
        assertTrue(said.contains("skipping " + empty + ": end of data: the trace holds no requests"), said);
        assertEquals(1, said.split("bench sim: skipping " + words, -1).length - 1, "said once: " + said);
        assertTrue(said.contains("bench sim: skipped 2 of 3 traces"), said);
    }

    /**
     * An xz trace whose dictionary (1.5 GiB, the format's most) is more than the heap: its whole read running out of
     * memory is skipped, saying so, but the start check before the first replay let the OutOfMemoryError end the run,
     * the traces that could be read unreplayed.
     */
    @Test
    void aTraceWhoseStartRunsOutOfMemoryIsSkipped() throws Exception {
        ByteArrayOutputStream xz = new ByteArrayOutputStream();
        try (OutputStream out = new XZOutputStream(xz, new LZMA2Options(0))) {
            out.write("1\n2\n".getBytes(StandardCharsets.US_ASCII));
        }
        byte[] bytes = xz.toByteArray();
        int block = 12; // past the stream header: the block header's size, flags, LZMA2's filter id, props size, props
        assertTrue(bytes[block + 1] == 0 && bytes[block + 2] == 0x21 && bytes[block + 3] == 1, "one LZMA2 filter, no sizes");
        bytes[block + 4] = 37; // dictionary 3 << 29 bytes
        int crcAt = block + (bytes[block] + 1) * 4 - 4;
        CRC32 crc = new CRC32();
        crc.update(bytes, block, crcAt - block);
        for (int i = 0; i < 4; i++) {
            bytes[crcAt + i] = (byte) (crc.getValue() >>> (8 * i));
        }
        Path huge = write(dir, "lirs/huge-dictionary.trace.xz", bytes);
        ChildProcess.Result run = ChildProcess.run(new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), Bench.class.getName(),
            "sim", "--quiet", "--sizes", "10", "--policies", "lru", loop.toString(), huge.toString()));
        assertEquals(1, run.status(), run.output());
        assertTrue(run.output().contains("bench sim: skipping " + huge + ": reading " + huge + " ran out of memory"),
            run.output());
        assertTrue(run.output().contains("loop.trace.gz"), "the other trace replayed: " + run.output());
        assertTrue(run.output().contains("bench sim: skipped 1 of 2 traces"), run.output());
    }

    @Test
    void corruptTraceFailsNamingTheFileWithoutATable() throws IOException {
        byte[] whole = Files.readAllBytes(zipf);
        Path bad = write(dir, "bad/cut.trace.gz", Arrays.copyOf(whole, whole.length - 100));
        assertEquals(1, bench("sim", "--quiet", "--policies", "lru", bad.toString()));
        assertTrue(err.toString().contains(bad.toString()), err.toString());
        assertEquals("", out.toString());
    }

    /** A LIRS text trace of the keys, one per line, gzip-compressed, at {@code folder/lirs/name}. */
    private static Path lirs(Path folder, String name, int... keys) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int k : keys) {
            text.append(k).append('\n');
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(text.toString().getBytes(StandardCharsets.US_ASCII));
        }
        return write(folder, "lirs/" + name, bytes.toByteArray());
    }

    private static Path write(Path folder, String relative, byte[] bytes) throws IOException {
        Path file = folder.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return file;
    }
}
