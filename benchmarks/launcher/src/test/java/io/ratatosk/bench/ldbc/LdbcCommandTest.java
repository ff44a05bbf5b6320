package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.nio.file.ExtendedOpenOption;
import io.ratatosk.bench.Bench;
import io.ratatosk.bench.ldbc.gen.LdbcGenerator;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.sim.AppendOnlyFolder;
import io.ratatosk.bench.sim.ChildProcess;
import io.ratatosk.bench.sim.OutputFile;
import io.ratatosk.bench.sim.Trace;
import io.ratatosk.bench.sim.TraceReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench ldbc} end to end, on the sample and a tiny generated graph, with few operations. */
class LdbcCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int bench(String... args) {
        CommandLine cl = Bench.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** The exit status of a run that is not quiet, and the progress lines it wrote (to the command's error writer). */
    private record Progress(int rc, String lines) {
    }

    private Progress withProgress(String... args) {
        int rc = bench(args);
        return new Progress(rc, err.toString());
    }

    /** A quiet run of 300 warm-up and 160 measured operations, for the tests that look at its queries. */
    private String[] args(String... extra) {
        return run("300", "160", extra);
    }

    /**
     * A quiet run of 40 operations without warm-up, for the tests that look at what a run loads, writes or says, not at
     * its queries: their checks hold as well after 40 operations as after 460, which took seconds more each.
     */
    private String[] quickArgs(String... extra) {
        return run("0", "40", extra);
    }

    private String[] run(String warmup, String ops, String... extra) {
        List<String> list = new java.util.ArrayList<>(List.of("ldbc", "--quiet", "--data-cache",
            dir.resolve("cache").toString(), "--warmup", warmup, "--ops", ops));
        list.addAll(List.of(extra));
        return list.toArray(String[]::new);
    }

    @Test
    void aSmallRunOnTheSampleReportsEveryPolicyAndCacheSize() throws IOException {
        Path outDir = dir.resolve("out");
        Path dump = dir.resolve("results.jsonl");
        Path trace = dir.resolve("run trace.pagetrace.gz"); // a space: the printed sim command must quote it
        int rc = bench(args("--data", "sample", "--cache", "10%,1m", "--policies", "muninn,global-clock:max_usage=7",
            "--out", outDir.toString(), "--dump-results", dump.toString(), "--record-trace", trace.toString()));
        assertEquals(0, rc, err.toString());
        assertFalse(err.toString().contains("person ids"), "the sample's parameters are its own: " + err);
        String report = out.toString();
        assertTrue(report.contains("muninn @ 10%"), report);
        assertTrue(report.contains("global-clock:max_usage=7 @ 1m"), report);
        assertTrue(report.contains("p99 us"), report);
        assertTrue(report.contains("./bench sim --sizes"), report);
        assertTrue(report.contains(",opt '" + trace + "'"), "the trace's path as one shell word: " + report);

        JsonNode summary = JSON.readTree(outDir.resolve("summary.json").toFile());
        JsonNode runs = summary.get("runs");
        assertEquals(4, runs.size());
        for (JsonNode run : runs) {
            for (String field : List.of("policy", "cacheBytes", "storeBytes", "opsPerSecond", "hitRatio", "faults",
                "backgroundEvictions", "cooperativeEvictions", "bytesRead", "queries")) {
                assertTrue(run.has(field), field + " missing in " + run);
            }
            assertEquals(160, run.get("operations").asLong());
            assertTrue(run.get("hitRatio").asDouble() > 0 && run.get("hitRatio").asDouble() < 1, run.toString());
            assertTrue(iterable(run.get("queries").fieldNames()).stream().anyMatch(q -> q.startsWith("IC")), run.toString());
        }
        assertEquals(1 << 20, runs.get(2).get("cacheBytes").asLong(), "runs go size by size, policy by policy");
        assertTrue(Files.size(outDir.resolve("hit-ratio.png")) > 1000);
        assertTrue(Files.size(outDir.resolve("throughput.png")) > 1000);

        // The dump holds the first run (warm-up included): every query type, in the documented shape.
        List<String> lines = Files.readAllLines(dump, StandardCharsets.UTF_8);
        Set<QueryType> seen = EnumSet.noneOf(QueryType.class);
        int reads = 0;
        int updates = 0;
        for (String line : lines) {
            JsonNode q = JSON.readTree(line);
            if (q.has("update")) {
                updates++;
                assertTrue(q.get("update").asText().matches("IU[1-8]") && q.get("params").isObject(), line);
                continue;
            }
            reads++;
            QueryType type = QueryType.valueOf(q.get("query").asText());
            seen.add(type);
            assertEquals(type.parameters(), iterable(q.get("params").fieldNames()), line);
            assertTrue(q.get("rows").isArray(), line);
            if (type == QueryType.IS3) {
                assertTrue(q.get("params").get("personId").isIntegralNumber(), line);
            }
        }
        assertEquals(EnumSet.allOf(QueryType.class), seen, "every query type runs at least once");
        assertEquals(460, reads);
        assertTrue(updates > 30 && updates == runs.get(0).get("updates").asLong(), updates + " updates interleaved");

        // The trace is every access of the first run, and the simulator reads it. The cache counts a retried
        // read again only when it had to fault the page in anew: a handful at most.
        Trace t = TraceReader.read(trace);
        long counted = runs.get(0).get("wholeRunPins").asLong();
        assertTrue(t.requests() <= counted && t.requests() >= counted * 0.99, t.requests() + " vs " + counted);
        assertTrue(t.distinct() > 10);
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> list = new java.util.ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }

    /**
     * With one thread the query stream, the updates between the reads and the answers depend on the seed
     * only, not on the policy or the cache size (with several, where the updates fall among the threads'
     * reads depends on timing).
     */
    /** A store.meta that cannot be read (another version's, edited by hand) makes the store load again, not the run fail. */
    @Test
    void anUnreadableStoreMetaLoadsTheStoreAgain() throws IOException {
        assertEquals(0, bench(quickArgs("--data", "sample", "--threads", "1", "--policies", "muninn", "--out",
            dir.resolve("o1").toString())), err.toString());
        Path meta = dir.resolve("cache/sample/store/store.meta");
        assertTrue(Files.isRegularFile(meta), "the first run loaded the store");
        Files.writeString(meta, "{\"formatVersion\": 2, \"somethingElse\": ");
        assertEquals(0, bench(quickArgs("--data", "sample", "--threads", "1", "--policies", "muninn", "--out",
            dir.resolve("o2").toString())), err.toString());
        assertTrue(Files.readString(meta).contains("\"source\""), "loaded again: a whole store.meta");
    }

    @Test
    void everyPolicyRunsTheSameQueriesWithTheSameAnswers() throws IOException {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        assertEquals(0, bench(args("--data", "sample", "--threads", "1", "--policies", "muninn", "--cache", "5%", "--out",
            dir.resolve("o1").toString(), "--dump-results", a.toString())), err.toString());
        assertEquals(0, bench(args("--data", "sample", "--threads", "1", "--policies", "random", "--cache", "50%", "--out",
            dir.resolve("o2").toString(), "--dump-results", b.toString())), err.toString());
        assertEquals(Files.readAllLines(a), Files.readAllLines(b));
    }

    @Test
    void aTinyGeneratedGraphIsGeneratedOnceAndReused() throws IOException {
        assertEquals(0, bench(quickArgs("--data", "generated:0.003", "--policies", "clock", "--threads", "2", "--out",
            dir.resolve("o1").toString())), err.toString());
        Path csv = dir.resolve("cache/scale-0.003-seed-42-g" + LdbcGenerator.VERSION + "/csv");
        assertTrue(Files.isDirectory(csv));
        assertFalse(Files.exists(csv.resolveSibling("csv.partial")));
        long generated = Files.getLastModifiedTime(csv.resolve("vanilla/dynamic/person_0_0.csv")).toMillis();
        assertEquals(0, bench(quickArgs("--data", "generated:0.003", "--policies", "clock", "--out",
            dir.resolve("o2").toString())), err.toString());
        assertEquals(generated, Files.getLastModifiedTime(csv.resolve("vanilla/dynamic/person_0_0.csv")).toMillis());
        JsonNode run = JSON.readTree(dir.resolve("o2/summary.json").toFile()).get("runs").get(0);
        assertEquals("clock", run.get("policy").asText());
    }

    /** A bad update stream stops the command before any run: file and line named, the loaded store as it was. */
    /**
     * An update that refers to an unknown id was found only when a run reached it, minutes in at scale 1 (here
     * the stream is short, but the run had begun): every update's ids are checked against the store before the
     * first run, with the same message.
     */
    @Test
    void anUpdateReferringToNothingIsRefusedBeforeAnyRun() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path stream = data.resolve("update_streams/updateStream_0_0_forum.csv");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(stream, StandardCharsets.UTF_8));
        String[] last = lines.get(lines.size() - 1).split("\\|", -1);
        // The stream's last update: a membership of a forum that neither the data nor the stream holds.
        lines.add(last[0] + "|" + last[1] + "|5|999999999999|1|" + last[0]);
        Files.write(stream, lines, StandardCharsets.UTF_8);
        assertEquals(1, bench(args("--data", data.toString(), "--policies", "clock", "--out",
            dir.resolve("o1").toString())), err.toString());
        assertTrue(err.toString().contains(stream + ":" + lines.size() + ": IU5: forumId 999999999999 is no forum of the store"),
            err.toString());
        Path storeDir;
        try (var found = Files.walk(dir.resolve("cache"))) {
            storeDir = found.filter(p -> p.getFileName().toString().equals("store") && Files.isDirectory(p))
                .findFirst().orElseThrow();
        }
        assertFalse(Files.exists(storeDir.resolveSibling("store-updated")), "no run started");
    }

    @Test
    void aBadUpdateStreamNamesItsLineAndLeavesTheStoreAsItWas() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path stream = data.resolve("update_streams/updateStream_0_0_forum.csv");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(stream, StandardCharsets.UTF_8));
        String good = lines.get(2);
        lines.set(2, good.replaceFirst("\\|[0-9]+\\|", "|soon|"));
        Files.write(stream, lines, StandardCharsets.UTF_8);
        assertEquals(1, bench(quickArgs("--data", data.toString(), "--policies", "clock", "--out",
            dir.resolve("o1").toString())), err.toString());
        assertTrue(err.toString().contains(stream + ":3: dependencyTime: 'soon' is not a number"), err.toString());
        assertFalse(Files.exists(dir.resolve("o1")), "no empty --out folder left by a run that failed");
        Path storeDir;
        try (var found = Files.walk(dir.resolve("cache"))) {
            storeDir = found.filter(p -> p.getFileName().toString().equals("store") && Files.isDirectory(p))
                .findFirst().orElseThrow();
        }
        byte[] meta = Files.readAllBytes(storeDir.resolve("store.meta"));
        long written = Files.getLastModifiedTime(storeDir.resolve("nodes.store")).toMillis();
        assertFalse(Files.exists(storeDir.resolveSibling("store-updated")), "no run started");

        lines.set(2, good);
        Files.write(stream, lines, StandardCharsets.UTF_8);
        assertEquals(0, bench(quickArgs("--data", data.toString(), "--policies", "clock", "--out",
            dir.resolve("o2").toString())), err.toString());
        assertEquals(written, Files.getLastModifiedTime(storeDir.resolve("nodes.store")).toMillis(),
            "the loaded store is reused, not loaded or written again");
        assertEquals(new String(meta, StandardCharsets.UTF_8),
            Files.readString(storeDir.resolve("store.meta"), StandardCharsets.UTF_8), "the loaded store is as it was");
        JsonNode run = JSON.readTree(dir.resolve("o2/summary.json").toFile()).get("runs").get(0);
        assertTrue(run.get("updates").asLong() > 0 && run.get("evictionWrites").asLong() >= 0, run.toString());
        assertTrue(Files.exists(storeDir.resolveSibling("store-updated").resolve("store.meta")));
    }

    @Test
    void theNvmTierReportsItsCounters() throws IOException {
        assertEquals(0, bench(args("--data", "sample", "--policies", "muninn", "--swap", "nvm", "--set",
            "pagecache.nvm.inject_latency=false", "--out", dir.resolve("o").toString())), err.toString());
        JsonNode nvm = JSON.readTree(dir.resolve("o/summary.json").toFile()).get("runs").get(0).get("nvm");
        assertTrue(nvm != null && nvm.get("swapIns").asLong() > 0, String.valueOf(nvm));
        assertTrue(out.toString().contains("nvm: swap-ins"), out.toString());
    }

    /** `default` runs under the real policy's name, and best-of's last line says which expert it ended on. */
    @Test
    void theDefaultPolicyReportsTheExpertItEndedOn() throws IOException {
        int rc = bench(quickArgs("--data", "sample", "--cache", "10%", "--policies", "default", "--out", dir.resolve("d").toString()));
        assertEquals(0, rc, err.toString());
        String report = out.toString();
        assertTrue(report.matches("(?s).*best-of @ 10%, at the end: following [a-z0-9-]+, \\d+ switch(es)?, [\\d,]+ sampled requests simulated.*"),
            report);
        JsonNode run = JSON.readTree(dir.resolve("d").resolve("summary.json").toFile()).get("runs").get(0);
        assertEquals("best-of", run.get("policy").asText());
        assertTrue(run.get("policyState").asText().startsWith("following "), run.toString());
    }

    /**
     * Two runs given one --out: the one that made the folder deleted it, as empty, when it stopped, and the other, still
     * running, lost its results to "cannot write --out .../summary.json: No such file or directory" at its end.
     */
    @Test
    void aRunWhoseOutFolderIsDeletedMeanwhileStillWritesItsReport() throws Exception {
        Path outDir = dir.resolve("shared-out");
        Path dump = dir.resolve("measuring.jsonl"); // written to once the first run has started
        AtomicBoolean ended = new AtomicBoolean();
        AtomicBoolean deleted = new AtomicBoolean();
        Thread otherRunStops = new Thread(() -> {
            while (!ended.get() && !hasBytes(dump)) {
                Thread.onSpinWait();
            }
            try {
                Files.delete(outDir); // what the other run's cleanup does to the empty folder
                deleted.set(true);
            } catch (IOException e) {
                // gone already, or this run wrote its report first: nothing shown
            }
        });
        otherRunStops.start();
        int rc;
        try {
            rc = bench(args("--data", "sample", "--policies", "muninn,clock", "--out", outDir.toString(),
                "--dump-results", dump.toString()));
        } finally {
            ended.set(true);
            otherRunStops.join();
        }
        Assumptions.assumeTrue(deleted.get(), "the run ended before the folder could be deleted");
        assertEquals(0, rc, err.toString());
        assertTrue(Files.isRegularFile(outDir.resolve("summary.json")), "the report is written all the same");
        assertTrue(Files.isRegularFile(outDir.resolve("hit-ratio.png")));
    }

    /**
     * --dump-results and --record-trace naming one file wrote both into it at once (a trace the simulator could not
     * read); one naming a file of the --data folder destroyed it after the load, or the report's own summary.json.
     */
    /**
     * A run that failed and then could not delete the --out folder it made (one that takes no deletion) said the
     * clean-up's failure alone, "bench ldbc: /x/new: Operation not permitted", and not that the data set was missing.
     */
    @Test
    void aCleanUpThatFailsIsSaidAfterTheRunsOwnFailureNotInsteadOfIt() throws Exception {
        Path noData = Files.createDirectory(dir.resolve("no-data"));
        Path appendOnly = Files.createDirectory(dir.resolve("append-only"));
        AppendOnlyFolder undeletable = AppendOnlyFolder.make(appendOnly);
        Assumptions.assumeTrue(undeletable != null, "chattr +a takes root");
        try (undeletable) {
            assertEquals(1, bench(quickArgs("--data", noData.toString(), "--policies", "clock", "--out",
                appendOnly.resolve("new").toString())), err.toString());
        }
        String said = err.toString();
        int failure = said.indexOf("missing LDBC file: " + noData);
        int cleanUp = said.indexOf("bench ldbc: could not clean up after the run: " + appendOnly.resolve("new"));
        assertTrue(failure >= 0 && cleanUp > failure, said);
    }

    /**
     * A --data-cache that holds the default --out (bench-out/ldbc/DATE-TIME under the checkout; --data-cache . there) was
     * refused as "--out ... is inside --data-cache ...: name a folder elsewhere", naming an option never given.
     */
    @Test
    void aDataCacheHoldingTheDefaultOutSaysTheOutIsTheDefault() {
        // The root the default --out is under: the checkout where the runner is a jar in its target folder (the reactor's
        // verify), else the working directory (a run of target/classes). The working directory alone held the default
        // only in the second case: in CI's verify the run was not refused, and ran with its data cache in the module.
        Path here = LdbcCommand.repositoryRoot();
        assertEquals(2, bench("ldbc", "--quiet", "--data", "sample", "--policies", "clock", "--data-cache", here.toString(),
            "--warmup", "0", "--ops", "40"), err.toString());
        assertTrue(err.toString().contains("the default --out, " + here.resolve("bench-out").resolve("ldbc")), err.toString());
        assertTrue(err.toString().contains("is inside --data-cache " + here + ", the runner's own copies of the data: give"
            + " --out a folder elsewhere, or a --data-cache that does not hold " + here.resolve("bench-out").resolve("ldbc")),
            err.toString());
    }

    @Test
    void outputsThatWouldOverwriteEachOtherOrTheDataAreRefusedBeforeTheRun() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path csv;
        try (var found = Files.walk(data)) {
            csv = found.filter(p -> p.getFileName().toString().startsWith("person_0_0")).findFirst().orElseThrow();
        }
        byte[] before = Files.readAllBytes(csv);
        Path same = dir.resolve("both.out");
        Path outDir = dir.resolve("o");
        List<List<String>> cases = List.of(
            List.of("--record-trace " + same + " is also given to --dump-results: both would write it; name another file",
                "--dump-results", same.toString(), "--record-trace", same.toString()),
            List.of("--dump-results " + outDir.resolve("summary.json") + " is also where the report's summary.json goes"
                + " (--out)", "--dump-results", outDir.resolve("summary.json").toString()),
            List.of("--record-trace " + csv + " is an input of this run; writing it would destroy it",
                "--record-trace", csv.toString()),
            List.of("is an input of this run", "--dump-results", data.resolve(".").resolve(data.relativize(csv)).toString()),
            // A dump over a loaded store damaged the copy every later run reuses.
            List.of("is inside --data-cache " + dir.resolve("cache") + ", the runner's own copies of the data",
                "--dump-results",
                dir.resolve("cache").resolve("x").resolve("nodes.store").toString()));
        for (List<String> c : cases) {
            err.getBuffer().setLength(0);
            List<String> argv = new java.util.ArrayList<>(List.of("--data", data.toString(), "--policies", "clock", "--out",
                outDir.toString()));
            argv.addAll(c.subList(1, c.size()));
            assertEquals(2, bench(args(argv.toArray(String[]::new))), err.toString());
            assertTrue(err.toString().contains(c.get(0)), err.toString());
        }
        assertArrayEquals(before, Files.readAllBytes(csv), "the data set is as it was");
        assertFalse(Files.exists(same));
        assertFalse(Files.exists(outDir), "nothing was run");
        // The report among the loaded store's files, which a --reload deletes: it ran and wrote it there.
        Path insideCache = dir.resolve("cache").resolve("sample").resolve("store-updated");
        err.getBuffer().setLength(0);
        assertEquals(2, bench(quickArgs("--data", "sample", "--policies", "clock", "--out", insideCache.toString())),
            err.toString());
        assertTrue(err.toString().contains("--out " + insideCache + " is inside --data-cache " + dir.resolve("cache")
            + ", the runner's own copies of the data: name a folder elsewhere"), err.toString());
        assertFalse(Files.exists(insideCache.resolve("summary.json")), "nothing was run");
    }

    /**
     * Two runs given one --data-cache loaded one store at once, each deleting the other's files, and one failed on a
     * store "damaged" by the other (its completion marker over half-written files). The second now waits for the first.
     * The first is stopped (SIGSTOP) while it holds the data cache, until the second says it waits: its 40 operations
     * end in moments, and on a loaded machine it had ended before the second asked, which then never waited.
     */
    @Test
    void twoRunsOnOneDataCacheTakeTurns() throws Exception {
        Path cache = dir.resolve("shared-cache");
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", System.getProperty("java.class.path"), Bench.class.getName()));
        command.addAll(List.of("ldbc", "--quiet", "--data", "sample", "--data-cache", cache.toString(), "--out",
            dir.resolve("first").toString(), "--policies", "clock", "--threads", "1", "--warmup", "0", "--ops", "40"));
        String waits = "another ./bench ldbc is using the data cache " + cache + "; waiting until it ends";
        try (ChildProcess first = ChildProcess.start(new ProcessBuilder(command))) {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (!Files.isDirectory(cache.resolve("sample").resolve("store"))) { // the first is loading: it holds the cache
                assertTrue(first.process().isAlive() && System.nanoTime() - deadline < 0, "no store loading: " + first.output());
                Thread.sleep(5);
            }
            java.util.concurrent.CompletableFuture<Progress> second;
            signal(first, "STOP");
            try {
                try (FileChannel lockFile = FileChannel.open(cache.resolve(".lock"), StandardOpenOption.WRITE);
                     java.nio.channels.FileLock free = lockFile.tryLock()) {
                    assertTrue(free == null, () -> "the first had let go of the data cache when stopped: " + first.output());
                }
                second = java.util.concurrent.CompletableFuture.supplyAsync(() -> withProgress("ldbc", "--data-cache",
                    cache.toString(), "--data", "sample", "--policies", "clock", "--threads", "1", "--warmup", "0", "--ops",
                    "40", "--out", dir.resolve("second").toString()));
                deadline = System.nanoTime() + ChildProcess.DEADLINE.toNanos();
                while (!err.toString().contains(waits)) {
                    assertFalse(second.isDone(), () -> "the second ran without waiting: " + err);
                    assertTrue(System.nanoTime() - deadline < 0, () -> "the second never said it waits: " + err);
                    Thread.sleep(5);
                }
            } finally {
                signal(first, "CONT");
            }
            assertEquals(0, first.awaitExit(ChildProcess.DEADLINE), first.output());
            Progress ended = second.get(ChildProcess.DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(0, ended.rc(), err + ended.lines());
            assertTrue(ended.lines().contains(waits), ended.lines());
        }
    }

    /** Sends {@code signal} (STOP, CONT) to the child, which keeps what it holds (its file locks) while stopped. */
    private static void signal(ChildProcess child, String signal) throws IOException, InterruptedException {
        ChildProcess.Result kill = ChildProcess.run(new ProcessBuilder("kill", "-" + signal,
            Long.toString(child.process().pid())));
        assertEquals(0, kill.status(), kill.output());
    }

    /** --dump-results / or --record-trace /: the folders their check would make were looked for above null, an NPE. */
    @Test
    void aDumpOrTraceNamedTheRootFolderIsAUsageError() {
        for (String option : List.of("--dump-results", "--record-trace")) {
            StringWriter said = new StringWriter();
            CommandLine cl = Bench.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(said, true));
            assertEquals(2, cl.execute(quickArgs("--data", "sample", "--policies", "clock", option, "/")), said.toString());
            assertTrue(said.toString().contains(option + " / "), said.toString());
            assertFalse(said.toString().contains("Exception"), said.toString());
        }
    }

    /**
     * A flag that holds at one cache size and not at another failed that run when it opened its cache, after the runs
     * before it: their results were printed but never reached summary.json. Every run's flags are now parsed at its
     * size before the first.
     */
    @Test
    void aFlagThatCannotHoldAtOneOfTheSizesIsRefusedBeforeAnyRun() {
        Path outDir = dir.resolve("o");
        assertEquals(2, bench(args("--data", "sample", "--cache", "10%,100k", "--policies", "clock", "--set",
            "pagecache.evictor.keep_free=20", "--out", outDir.toString())), err.toString());
        assertTrue(err.toString().contains("clock @ 100k: pagecache.evictor.keep_free=20: must be less than the frame"
            + " count, 12"), err.toString());
        assertEquals("", out.toString(), "no run before the refusal");
        assertFalse(Files.exists(outDir));
    }

    /**
     * Without --out, two runs started in one second shared bench-out/ldbc/<date-time>, and the later's report overwrote
     * the earlier's. Here the earlier runs' folders are made for the next seconds. (Run from the test classes, the
     * command takes the working directory for the repository.)
     */
    @Test
    void aRunWithoutOutNeverWritesIntoAnotherRunsFolder() throws IOException {
        Path outs = LdbcCommand.repositoryRoot().resolve("bench-out").resolve("ldbc");
        Path top = OutputFile.createFolder("--out", outs); // what this test made, deleted at its end
        List<Path> earlier = new java.util.ArrayList<>();
        java.time.LocalDateTime now = java.time.LocalDateTime.now();
        try {
            for (int s = 0; s < 20; s++) {
                Path folder = outs.resolve(now.plusSeconds(s).format(java.time.format.DateTimeFormatter.ofPattern(
                    "yyyyMMdd-HHmmss")));
                if (!Files.exists(folder)) {
                    Files.createDirectory(folder);
                    Files.writeString(folder.resolve("summary.json"), "an earlier run's");
                    earlier.add(folder);
                }
            }
            assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "clock")), err.toString());
            java.util.regex.Matcher wrote = java.util.regex.Pattern.compile("wrote (.*)/summary.json").matcher(out.toString());
            assertTrue(wrote.find(), out.toString());
            Path written = Path.of(wrote.group(1));
            earlier.add(written);
            for (Path folder : earlier.subList(0, earlier.size() - 1)) {
                assertEquals("an earlier run's", Files.readString(folder.resolve("summary.json")), folder.toString());
            }
            assertTrue(written.getFileName().toString().matches("\\d{8}-\\d{6}-2"), written.toString());
        } finally {
            for (Path folder : earlier) {
                OutputFile.deleteTree(folder);
            }
            OutputFile.deleteIfNoFile(top);
        }
    }

    private static boolean hasBytes(Path file) {
        try {
            return Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A scale under the smallest graph's 20 persons (generated:0.00001, 0.1 of a person) generated and ran that graph
     * under a data cache folder of its own, as if it were another, without a word.
     */
    @Test
    void aScaleBelowTheSmallestGraphIsRefused() {
        assertEquals(2, bench(quickArgs("--data", "generated:0.00001", "--policies", "clock", "--out",
            dir.resolve("o").toString())), err.toString());
        assertTrue(err.toString().contains("--data generated:0.00001: a scale of 0.00001 is 0 persons, fewer than the"
            + " smallest graph's 20 (generated:0.002)"), err.toString());
        assertFalse(Files.exists(dir.resolve("cache")), "nothing generated");
    }

    /** A refused cache size named no option: "bench ldbc: no cache size given" for --cache ''. */
    @Test
    void aRefusedCacheSizeNamesItsOption() {
        String[][] refused = {{"", "--cache: no cache size given"}, {"0%", "--cache: cache size '0%': a share"},
            {"10%,abc", "--cache: cache size 'abc' must be"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, bench("ldbc", "--cache", each[0]), err.toString());
            assertTrue(err.toString().contains("bench ldbc: " + each[1]), err.toString());
        }
        assertEquals("", out.toString(), "nothing ran");
    }

    /** A policy refused was said without the option it came from: "bench ldbc: unknown policy 'nosuch'". */
    @Test
    void aRefusedPolicyNamesTheOptionAndThePart() {
        String[][] refused = {{"muninn,nosuch", "--policies nosuch: unknown policy 'nosuch'"},
            {"muninn,opt", "--policies opt: policy opt is the simulator's only"},
            {"global-clock:max_usage=99", "--policies global-clock:max_usage=99: pagecache.clock.max_usage=99: must be"},
            // no cache size holds it: refused before the data is prepared with the default --cache 10% too, where
            // 2026-12-01's first version left it until the store was loaded
            {"clock-pro:cold_min=0.5:cold_max=0.1", "--policies clock-pro:cold_min=0.5:cold_max=0.1:"
                + " pagecache.clockpro.cold_min=0.5 (65536 frames) must be at most"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, bench("ldbc", "--policies", each[0]), err.toString());
            assertTrue(err.toString().contains("bench ldbc: " + each[1]), err.toString());
            assertFalse(err.toString().contains("549755813888"), "no stand-in size: " + err);
        }
        assertEquals("", out.toString(), "nothing ran");
    }

    @Test
    void badFlagsAreUsageErrors() throws IOException {
        assertEquals(2, bench("ldbc", "--cache", "0%"));
        // said it must be a share (10%, 2.5%) or a size, of what was a share, not which bound it broke
        assertTrue(err.toString().contains("cache size '0%': a share of the store must be above 0% and at most 1000%"),
            err.toString());
        assertEquals(2, bench("ldbc", "--cache", "1001%"));
        assertTrue(err.toString().contains("cache size '1001%': a share of the store must be above 0% and at most 1000%"),
            err.toString());
        assertEquals(2, bench("ldbc", "--cache", "0.4"));
        assertTrue(err.toString().contains("cache size '0.4' must be a share of the store (10%, 2.5%) or a size in [2 pages of"
            + " pagecache.page_size, 1t] (not a whole number of bytes)"), err.toString());
        assertEquals(2, bench("ldbc", "--policies", "opt"));
        assertTrue(err.toString().contains("simulator's only"), err.toString());
        assertEquals(2, bench("ldbc", "--policies", "nosuch"));
        assertTrue(err.toString().contains("unknown policy 'nosuch'"), err.toString());
        assertEquals(2, bench("ldbc", "--ops", "10", "--duration", "5s"));
        assertEquals(2, bench("ldbc", "--ops", "-1"));
        assertTrue(err.toString().contains("--ops must be at least 1: -1"), err.toString());
        assertEquals(2, bench("ldbc", "--ops", "0"));
        // Ran out of heap with a stack trace; thousands of threads run out of native threads.
        assertEquals(2, bench(args("--data", "sample", "--policies", "clock", "--threads", "99999999",
            "--out", dir.resolve("t").toString())));
        assertTrue(err.toString().contains("--threads must be in [1, 1,024]: 99,999,999"), err.toString());
        assertEquals(2, bench("ldbc", "--set", "pagecache.memory=1g"));
        assertEquals(2, bench("ldbc", "--warmup", "-1"));
        assertTrue(err.toString().contains("--warmup: '-1' is neither an operation count"), err.toString());
        // --restart opened plain caches whatever --swap said, and reported them as if the tier had been there.
        assertEquals(2, bench("ldbc", "--restart", "--swap", "nvm"));
        assertTrue(err.toString().contains("--restart measures the file cache's reheat"), err.toString());
        // an empty --data was the current folder: "missing LDBC file: <cwd>/static/place_0_0.csv", exit 1
        assertEquals(2, bench(args("--data", "", "--out", dir.resolve("o").toString())));
        assertTrue(err.toString().contains("--data '' names no data set; give sample, generated:SCALE or a folder of LDBC"
            + " CSV files ('.' for the current one)"), err.toString());
        assertEquals(2, bench("ldbc", "--duration", "abc"));
        assertTrue(err.toString().contains("--duration: 'abc' is neither an operation count (20000) nor a duration"),
            err.toString());
        assertEquals(2, bench("ldbc", "--duration", "5000"));
        assertTrue(err.toString().contains("--duration 5000 is not a time (60s, 1.5s, 2m): an operation count is --ops"),
            err.toString());
        // a time whose end passed Long.MAX_VALUE nanoseconds ended the phase at once: 2 ops measured, reported, exit 0
        assertEquals(2, bench("ldbc", "--duration", "153722867m"));
        assertTrue(err.toString().contains("--duration: '153722867m' is longer than a year"), err.toString());
        assertEquals(2, bench("ldbc", "--warmup", "153722867m"));
        assertTrue(err.toString().contains("--warmup: '153722867m' is longer than a year"), err.toString());
    }

    /**
     * An empty --policies (a script's unset variable) is refused, as sim, throughput and demo refuse it: it ran the
     * three default policies without a word, while " , " was refused.
     */
    @Test
    void anEmptyPolicyListIsRefused() {
        for (String blank : List.of("", " ")) {
            assertEquals(2, bench(args("--data", "sample", "--policies", blank, "--threads", "1", "--out",
                dir.resolve("o").toString())), err.toString());
            assertTrue(err.toString().contains("--policies names no policy: '" + blank + "'; leave it out to run "
                + "default,muninn,clock-pro"), err.toString());
        }
        assertFalse(Files.exists(dir.resolve("o")), "nothing was written");
    }

    /**
     * A --record-trace named for a compression the writer does not write (it gzips .gz and writes anything else plain)
     * is refused before anything is made: trace.pagetrace.zst held plain bytes under a zstd name.
     */
    @Test
    void aTraceOrDumpNamedForACompressionNotWrittenIsRefused() {
        Path trace = dir.resolve("traces").resolve("run.pagetrace.zst");
        assertEquals(2, bench(args("--data", "sample", "--policies", "clock", "--threads", "1", "--record-trace",
            trace.toString(), "--out", dir.resolve("o").toString())), err.toString());
        assertTrue(err.toString().contains("--record-trace " + trace + ": a page trace is written gzip-compressed (.gz) or"
            + " plain, not .zst; name it .pagetrace.gz or .pagetrace"), err.toString());
        assertFalse(Files.exists(trace.getParent()), "no folder made for it");
        // the dump likewise: plain JSON lines under a gzip name
        Path dump = dir.resolve("dumps").resolve("results.jsonl.gz");
        assertEquals(2, bench(args("--data", "sample", "--policies", "clock", "--threads", "1", "--dump-results",
            dump.toString(), "--out", dir.resolve("o").toString())), err.toString());
        assertTrue(err.toString().contains("--dump-results " + dump + ": the dump is written as plain JSON lines, not .gz;"
            + " name it without .gz and compress it afterwards"), err.toString());
        assertFalse(Files.exists(dump.getParent()), "no folder made for it");
    }

    /**
     * --set flags no run could open its cache with, and --io values that do not exist, are refused before the data is
     * generated and loaded (minutes at scale 10), each naming what is wrong; nothing is written.
     */
    @Test
    void badSetFlagsAreRefusedBeforeTheDataIsPrepared() {
        Path cache = dir.resolve("cache");
        List<List<String>> cases = List.of(
            List.of("--set", "pagecache.page_size=3000", "pagecache.page_size=3000: must be a power-of-two size"),
            List.of("--set", "page_size=4k", "pagecache.page_size=4k: the store's pages are 8192 bytes"),
            List.of("--set", "clock.max_usage=99", "--set pagecache.clock.max_usage is a flag of the policies muninn, global-clock"),
            List.of("--set", "pagecache.evictor.keep_free=0", "pagecache.evictor.keep_free=0: must be an integer >= 1"),
            List.of("--set", "pagecache.io=direct", "pagecache.io is set by --io, not --set"),
            List.of("--set", "pagecache.memory=1g", "pagecache.memory is set by --cache, not --set"),
            List.of("--set", "policy=clock", "pagecache.policy is set by --policies, not --set"),
            List.of("--set", "pagecache.nvm.profile=pcm", "--set pagecache.nvm.profile takes effect with --swap nvm only"),
            List.of("--set", "=1", "--set =1: no flag named before the '='"),
            List.of("--set", "evictor.enabled=false", "--set", "pagecache.evictor.enabled=true", "--set evictor.enabled=false"
                + " and --set pagecache.evictor.enabled=true both set pagecache.evictor.enabled: give it once"),
            List.of("--set", "evictor.enabled", "--set evictor.enabled: FLAG=VALUE expected, there is no '='"),
            List.of("--swap", "nvm", "--set", "pagecache.nvm.profile=foo", "pagecache.nvm.profile=foo: must be one of"),
            List.of("--io", "sometimes", "--io must be auto, buffered or direct: sometimes"));
        for (List<String> c : cases) {
            List<String> argv = new java.util.ArrayList<>(List.of("ldbc", "--quiet", "--data-cache", cache.toString()));
            argv.addAll(c.subList(0, c.size() - 1));
            assertEquals(2, bench(argv.toArray(String[]::new)), String.join(" ", argv) + ": " + err);
            assertTrue(err.toString().contains(c.get(c.size() - 1)), err.toString());
        }
        assertFalse(Files.exists(cache), "nothing generated or loaded");
    }

    /** Pages larger than the store's work (one store page a frame), with a line saying what the memory buys. */
    @Test
    void cachePagesLargerThanTheStoresRunAndSaySo() throws IOException {
        Progress run = withProgress("ldbc", "--data-cache", dir.resolve("cache").toString(), "--warmup", "100", "--ops", "100",
            "--data", "sample", "--cache", "1m", "--policies", "muninn", "--set", "page_size=16k", "--out",
            dir.resolve("out").toString());
        assertEquals(0, run.rc(), err.toString());
        String said = run.lines();
        assertTrue(said.contains("note: pagecache.page_size=16,384 holds one 8,192-byte store page per frame, so 50.0% of the"
            + " page memory stays unused: --cache gets 2x fewer frames than with pages of 8,192"), said);
        JsonNode summaryRun = JSON.readTree(dir.resolve("out").resolve("summary.json").toFile()).get("runs").get(0);
        assertEquals(64, summaryRun.get("frames").asInt(), summaryRun.toString());
    }

    /**
     * summary.json's command is one that runs again when copied to a shell: its words were joined as they were, so
     * --out 'my out' came back as --out my out, another folder and a stray argument.
     */
    @Test
    void theCommandInTheSummaryQuotesItsWordsForTheShell() throws IOException {
        Path outDir = dir.resolve("my out");
        assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "muninn", "--out", outDir.toString())),
            err.toString());
        assertEquals("./bench ldbc --quiet --data-cache " + dir.resolve("cache") + " --warmup 0 --ops 40 --data sample"
            + " --policies muninn --out '" + outDir + "'",
            JSON.readTree(outDir.resolve("summary.json").toFile()).get("command").asText());
    }

    /**
     * A share of the store below two pages runs with two, saying so with the store's size as the report gives it (MiB):
     * it was its count of bytes, "for this 13,934,592-byte store", beside the report's "for a 13.0 MiB store".
     */
    @Test
    void aCacheBelowTwoPagesSaysTheStoresSizeInMib() throws IOException {
        Progress run = withProgress("ldbc", "--data-cache", dir.resolve("cache").toString(), "--warmup", "0", "--ops", "20",
            "--data", "sample", "--cache", "0.01%", "--policies", "muninn", "--out", dir.resolve("out").toString());
        assertEquals(0, run.rc(), err.toString());
        long storeBytes = JSON.readTree(dir.resolve("out").resolve("summary.json").toFile()).get("storeBytes").asLong();
        String store = String.format(java.util.Locale.ROOT, "%.1f MiB", storeBytes / 1048576.0);
        assertTrue(run.lines().contains("note: --cache 0.01% is less than 2 pages of 8,192 bytes for this " + store
            + " store: that run gets 2 frames"), run.lines());
        assertTrue(out.toString().contains("for a " + store + " store"), "the report's words: " + out);
    }

    /** A generated data set larger than the disk's free space is refused before the generator writes anything. */
    @Test
    void aGeneratedDataSetThatCannotFitIsRefusedBeforeItIsWritten() throws IOException {
        long free = Files.getFileStore(dir).getUsableSpace();
        long scale = free / (700L << 20) + 1; // the estimate per unit of scale, LdbcDatasets.BYTES_PER_SCALE
        Assumptions.assumeTrue(scale <= 10_000, "a disk with more than 6.7 TiB free fits every scale");
        Path cache = dir.resolve("data");
        assertEquals(1, bench("ldbc", "--quiet", "--data-cache", cache.toString(), "--data", "generated:" + scale));
        assertTrue(err.toString().contains("--data generated:" + scale + " (CSV, store and its updated copy"), err.toString());
        assertTrue(err.toString().contains("--data-cache to put them elsewhere) needs about"), err.toString());
        assertTrue(err.toString().contains("MiB free"), err.toString());
        assertFalse(Files.exists(cache.resolve("scale-" + scale + "-seed-42-g" + LdbcGenerator.VERSION)),
            "nothing generated");
    }

    /** Output paths are checked before the data is prepared: no data cache is made for a run refused. */
    @Test
    void anOutputPathThatCannotBeWrittenIsRefusedBeforeTheData() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("taken.pagetrace"));
        assertEquals(2, bench(args("--data", "sample", "--record-trace", folder.toString())));
        assertTrue(err.toString().contains("--record-trace " + folder + " is a folder; name a file"), err.toString());
        Path file = Files.write(dir.resolve("plain"), new byte[] {1});
        assertEquals(2, bench(args("--data", "sample", "--dump-results", file.resolve("r.jsonl").toString())));
        assertTrue(err.toString().contains("--dump-results: cannot create the folder " + file), err.toString());
        assertEquals(2, bench(args("--data", "sample", "--out", file.toString())));
        assertTrue(err.toString().contains("--out " + file + " is a file; name a folder"), err.toString());
        assertFalse(Files.exists(dir.resolve("cache")), "nothing was prepared");
    }

    /**
     * Paths that look writable but take no new file (/proc here; any folder to root) were found only when written, after
     * the runs, and the error was the bare path ("bench ldbc: /proc/o5"). Now: a usage error naming the flag, the path
     * and why, before the data is prepared.
     */
    @Test
    void outputPathsThatTakeNoFileAreRefusedNamingTheFlagThePathAndWhy() throws IOException {
        Path proc = Path.of("/proc");
        Assumptions.assumeTrue(Files.isDirectory(proc), "a folder that takes no new files");
        String[][] cases = {
            {"--out", "/proc/o5", "--out: cannot create the folder /proc/o5: the folder /proc takes no new files"},
            {"--record-trace", "/proc/x.pagetrace", "cannot write --record-trace /proc/x.pagetrace: the folder /proc takes no new files"},
            {"--dump-results", "/proc/d.jsonl", "cannot write --dump-results /proc/d.jsonl: the folder /proc takes no new files"}};
        for (String[] c : cases) {
            assertEquals(2, bench(args("--data", "sample", c[0], c[1])), err.toString());
            assertTrue(err.toString().contains(c[2]), err.toString());
        }
        assertFalse(Files.exists(dir.resolve("cache").resolve("sample")), "nothing was prepared");
    }

    /** --data-cache naming a file said "bench ldbc: FILE/scale-1-seed-42-g2: Not a directory" after the checks. */
    @Test
    void aDataCacheThatIsAFileIsAUsageError() throws IOException {
        Path file = Files.writeString(dir.resolve("cpp.trace"), "1\n");
        assertEquals(2, bench("ldbc", "--quiet", "--data", "sample", "--data-cache", file.toString(), "--out",
            dir.resolve("o").toString()));
        assertTrue(err.toString().contains("--data-cache " + file + " is a file; name a folder"), err.toString());
        assertEquals(2, bench("ldbc", "--quiet", "--data", "sample", "--data-cache", file.resolve("sub").toString(), "--out",
            dir.resolve("o").toString()));
        assertTrue(err.toString().contains("--data-cache: cannot create the folder " + file.resolve("sub")
            + ": a folder on its path is a file"), err.toString());
        assertFalse(Files.exists(dir.resolve("o")), "no --out folder for a run refused");
        assertEquals(2, bench("ldbc", "--quiet", "--data", "sample", "--data-cache", file.toString(), "--out",
            dir.resolve("o").toString(), "--record-trace", dir.resolve("t/run.pagetrace").toString()));
        assertFalse(Files.exists(dir.resolve("t")), "no --record-trace folder for a run refused after its check");
    }

    /**
     * Parameters from another data set made every complex read find nothing, and the run reported the speed of "no such
     * person" with no word. Now one line says how many person ids are unknown and which reads find nothing.
     */
    @Test
    void parametersNamingPersonsTheDataSetLacksAreWarnedOf() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path parameters = data.resolve("substitution_parameters");
        long foreign = 900_000_000_000L;
        try (var files = Files.list(parameters)) {
            for (Path file : files.toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                List<String> names = List.of(lines.get(0).split("\\|"));
                for (int i = 1; i < lines.size(); i++) {
                    String[] values = lines.get(i).split("\\|", -1);
                    for (int c = 0; c < values.length; c++) {
                        if (names.get(c).matches("person[12]?Id")) {
                            values[c] = Long.toString(foreign++); // the ids of a larger data set
                        }
                    }
                    lines.set(i, String.join("|", values));
                }
                Files.write(file, lines, StandardCharsets.UTF_8);
            }
        }
        assertEquals(0, bench(quickArgs("--data", data.toString(), "--policies", "clock", "--threads", "1", "--updates", "none",
            "--out", dir.resolve("o").toString())), err.toString());
        String warning = err.toString();
        String ids = String.format(java.util.Locale.ROOT, "%,d", foreign - 900_000_000_000L);
        assertTrue(warning.contains("ldbc: warning: " + ids + " of the " + ids + " person ids in " + parameters
            + " are no person of " + data), warning);
        assertTrue(warning.contains("IC1, IC2, IC3, IC4, IC5, IC6, IC7, IC8, IC9, IC10, IC11, IC12, IC13, IC14 find nothing"
            + " on any row"), warning);
        assertTrue(warning.contains("the parameters probably belong to another data set"), warning);
    }

    /**
     * The loader's warnings went to System.err while the command's own went to its error writer: a caller that gave
     * the command a writer (an embedding tool, this test) saw one and lost the other. Both now go to the writer, and
     * a warning is printed with --quiet.
     */
    @Test
    void theLoadersWarningsReachTheCommandsErrorWriterEvenWhenQuiet() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path knows = data.resolve("vanilla/dynamic/person_knows_person_0_0.csv");
        String[] first = Files.readAllLines(knows, StandardCharsets.UTF_8).get(1).split("\\|");
        Files.writeString(knows, first[1] + "|" + first[0] + "|" + first[2] + "\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.APPEND);
        assertEquals(0, bench(quickArgs("--data", data.toString(), "--policies", "clock", "--threads", "1", "--updates", "none",
            "--out", dir.resolve("o").toString())), err.toString());
        assertTrue(err.toString().contains("ldbc: warning: " + knows + ":"), err.toString());
        assertTrue(err.toString().contains(": duplicate edge: Person.id " + first[1] + "|Person.id " + first[0]),
            err.toString());
    }

    /**
     * --quiet leaves out progress, not what a run does otherwise than asked: the notes that a --cache below two pages
     * gets two frames and that a larger page_size leaves page memory unused (docs/ldbc.md promises each) went through
     * the progress lines, and --quiet left them out.
     */
    @Test
    void aQuietRunStillSaysWhatItDoesOtherwiseThanAsked() {
        assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "clock", "--threads", "1", "--updates", "none",
            "--io", "buffered", "--cache", "1k", "--set", "page_size=16k", "--out", dir.resolve("o").toString())),
            err.toString());
        assertTrue(err.toString().contains("ldbc: note: --cache 1k is less than 2 pages of 16,384 bytes"), err.toString());
        assertTrue(err.toString().contains("ldbc: note: pagecache.page_size=16,384 holds one 8,192-byte store page per frame"),
            err.toString());
        assertFalse(err.toString().contains("started"), "still no progress: " + err);
    }

    /** So for a scale taken as its whole number of persons' (docs/ldbc.md: "and saying so"). */
    @Test
    void aQuietRunStillSaysWhichGraphAScaleBetweenTwoRuns() {
        assertEquals(0, bench(quickArgs("--data", "generated:0.00204", "--policies", "clock", "--threads", "1", "--updates",
            "none", "--io", "buffered", "--out", dir.resolve("o").toString())), err.toString());
        assertTrue(err.toString().contains("ldbc: generated:0.00204 is 20 persons, the graph of generated:0.002"),
            err.toString());
    }

    /** A --data that cannot be prepared is a usage error (exit 2) before the data cache is touched. */
    @Test
    void aDataThatCannotBePreparedIsAUsageErrorBeforeAnything() throws IOException {
        Path missing = dir.resolve("no-such-data");
        assertEquals(2, bench(args("--data", missing.toString())));
        assertTrue(err.toString().contains("--data " + missing + ": no such folder"), err.toString());
        Path file = Files.writeString(dir.resolve("person.csv"), "id|name\n");
        assertEquals(2, bench(args("--data", file.toString())));
        assertTrue(err.toString().contains("--data " + file + ": not a folder"), err.toString());
        assertEquals(2, bench(args("--data", "generated:lots")));
        assertTrue(err.toString().contains("--data generated:lots: the scale must be a number in (0, 10000]"), err.toString());
        assertEquals(2, bench(args("--data", "generatedx")));
        assertTrue(err.toString().contains("--data generatedx: write generated:SCALE"), err.toString());
        assertFalse(Files.exists(dir.resolve("cache")), "nothing was prepared");
    }

    /**
     * A folder of CSV whose name starts with "generated", named relative to the current folder as folders usually are
     * (--data generated-csv), was taken for a misspelt generated:SCALE and refused. A run in a child JVM, in the folder
     * that holds it: the test's own working folder is the module's.
     */
    @Test
    void aFolderWhoseNameStartsWithGeneratedIsAFolder() throws Exception {
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(dir.resolve("generated-csv"));
        ProcessBuilder command = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), Bench.class.getName(), "ldbc", "--quiet", "--data", "generated-csv",
            "--data-cache", "cache", "--warmup", "0", "--ops", "20", "--policies", "clock", "--threads", "1", "--out", "o")
            .directory(dir.toFile());
        ChildProcess.Result run = ChildProcess.run(command);
        assertEquals(0, run.status(), run.output());
        assertTrue(Files.isRegularFile(dir.resolve("o/summary.json")), run.output());
        assertTrue(JSON.readTree(dir.resolve("o/summary.json").toFile()).get("data").asText().endsWith("generated-csv"),
            "the folder's data, not a generated graph");
    }

    @Test
    void withIoDirectTheRunReadsTheStoreThroughODirect() throws IOException {
        Path probe = Files.createFile(dir.resolve("probe"));
        try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            // the file system takes O_DIRECT
        } catch (IOException | UnsupportedOperationException e) {
            Assumptions.assumeTrue(false, "the file system of " + dir + " refuses O_DIRECT: " + e);
        }
        int rc = bench(quickArgs("--data", "sample", "--cache", "10%", "--policies", "muninn", "--io", "direct",
            "--out", dir.resolve("out").toString()));
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("muninn @ 10%"), out.toString());
        JsonNode summary = JSON.readTree(dir.resolve("out").resolve("summary.json").toFile());
        assertTrue(summary.toString().contains("--io direct"), summary.toString());
        assertTrue(summary.get("runs").get(0).get("faults").asLong() > 0);
    }

    /** The default, auto: direct IO where the store's file system takes it, else buffered, and one line says which. */
    @Test
    void ioAutoRunsDirectWhereTheFileSystemAllowsItAndSaysWhichItChose() throws IOException {
        Progress run = withProgress("ldbc", "--data-cache", dir.resolve("cache").toString(), "--warmup", "0", "--ops", "40",
            "--data", "sample", "--cache", "10%", "--policies", "muninn", "--out", dir.resolve("auto").toString());
        assertEquals(0, run.rc(), err.toString());
        String said = run.lines();
        assertTrue(said.contains("store IO: direct") || said.contains("direct IO is refused where the store lies, running buffered"),
            said);
    }

    @Test
    void restartReportsTheOperationsToReachNinetyPercentWithAndWithoutWarmup() throws IOException {
        int rc = bench("ldbc", "--quiet", "--data-cache", dir.resolve("cache").toString(), "--data", "sample", "--cache", "10%",
            "--policies", "muninn", "--restart", "--warmup", "300", "--ops", "600", "--out", dir.resolve("r").toString());
        assertEquals(0, rc, err.toString());
        String report = out.toString();
        assertTrue(report.contains("muninn @ 10%: steady hit ratio"), report);
        assertTrue(report.contains("with warm-up") && report.contains("cold"), report);
        assertFalse(Files.exists(dir.resolve("r")), "--restart writes nothing to --out, and leaves no empty folder there");
        System.out.println(report);
    }

    /** --restart has no first run to dump or record: it ran, wrote neither file and exited 0 as if it had. */
    @Test
    void restartRefusesDumpResultsAndRecordTrace() {
        Path dump = dir.resolve("results.jsonl");
        Path trace = dir.resolve("run.pagetrace");
        assertEquals(2, bench(args("--data", "sample", "--policies", "clock", "--restart", "--dump-results", dump.toString())));
        assertTrue(err.toString().contains("--restart writes no --dump-results"), err.toString());
        assertEquals(2, bench(args("--data", "sample", "--policies", "clock", "--restart", "--record-trace", trace.toString())));
        assertTrue(err.toString().contains("--restart writes no --record-trace"), err.toString());
        assertFalse(Files.exists(dump) || Files.exists(trace));
        assertFalse(Files.exists(dir.resolve("cache").resolve("sample")), "refused before the data is prepared");
    }

    /**
     * --restart with time budgets: the restarts may take as many operations as the full run did; they took the budgets'
     * operation counts, none for a time, and so got one window and reported "at most 0".
     */
    @Test
    void restartWithTimeBudgetsLimitsTheRestartsByTheOperationsTheFullRunDid() {
        assertEquals(0, bench("ldbc", "--quiet", "--data-cache", dir.resolve("cache").toString(), "--data", "sample",
            "--policies", "clock", "--restart", "--warmup", "1s", "--duration", "1s"), err.toString());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("windows of 10, at most (\\d+)\\)").matcher(out.toString());
        assertTrue(m.find(), out.toString());
        assertTrue(Long.parseLong(m.group(1)) > 0, out.toString());
    }

    /** --restart runs one thread: --threads 4 ran one and said nothing; --threads 1 is what it does, and runs. */
    @Test
    void restartRefusesMoreThanOneThread() {
        assertEquals(2, bench(quickArgs("--data", "sample", "--policies", "clock", "--restart", "--threads", "4")));
        assertTrue(err.toString().contains("--restart runs one thread of queries"), err.toString());
        assertTrue(err.toString().contains("--threads 4 is not one"), err.toString());
        assertFalse(Files.exists(dir.resolve("cache").resolve("sample")), "refused before the data is prepared");
        assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "clock", "--restart", "--threads", "1")), err.toString());
        assertTrue(out.toString().contains("clock @ 10%: steady hit ratio"), out.toString());
    }

    /**
     * A cache size given twice runs once, as a repeated policy does: it ran twice, two rows of the report and of
     * summary.json, but one group of the charts, which showed the first run and dropped the second.
     */
    @Test
    void aCacheSizeGivenTwiceRunsOnce() throws IOException {
        Path outDir = dir.resolve("out");
        assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "clock", "--cache", "10%,1m,10.0%,1024k",
            "--cache", "10%", "--out", outDir.toString())), err.toString());
        JsonNode runs = JSON.readTree(outDir.resolve("summary.json").toFile()).get("runs");
        List<String> sizes = new java.util.ArrayList<>();
        runs.forEach(r -> sizes.add(r.get("cacheSpec").asText()));
        assertEquals(List.of("10%", "1m"), sizes);
        assertEquals(1, out.toString().split("clock @ 10%:", -1).length - 1, out.toString());
    }

    /**
     * A first run that fails partway (an update the pre-pass lets through, a membership that exists already, stops it
     * when the run reaches it) leaves --dump-results and --record-trace as they were: they were written in place, and
     * the run left a cut dump and trace under the names asked for, over the files there before.
     */
    @Test
    void aFirstRunThatFailsLeavesTheDumpAndTraceAsTheyWere() throws IOException {
        Path data = dir.resolve("data");
        new LdbcGenerator(0.003, 7, io.ratatosk.bench.ldbc.ProgressOutput.none()).write(data);
        Path stream = data.resolve("update_streams/updateStream_0_0_forum.csv");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(stream, StandardCharsets.UTF_8));
        int membership = 0;
        while (!lines.get(membership).split("\\|", -1)[2].equals("5")) {
            membership++;
        }
        lines.add(membership + 1, lines.get(membership)); // the same membership again, right after it
        Files.write(stream, lines, StandardCharsets.UTF_8);
        Path dump = dir.resolve("out/results.jsonl");
        Path trace = dir.resolve("out/run.pagetrace");
        Files.createDirectories(dump.getParent());
        Files.writeString(dump, "an earlier dump\n");
        Files.writeString(trace, "an earlier trace");
        // No warm-up, so no unreported JVM warm-up run either: the first run is the one that reaches the repeat.
        assertEquals(1, bench("ldbc", "--quiet", "--data-cache", dir.resolve("cache").toString(), "--warmup", "0", "--ops",
            "160", "--data", data.toString(), "--policies", "clock", "--threads", "1", "--out", dir.resolve("o").toString(),
            "--dump-results", dump.toString(), "--record-trace", trace.toString()), err.toString());
        assertTrue(err.toString().contains(stream + ":" + (membership + 2) + ": IU5"), err.toString());
        assertEquals("an earlier dump\n", Files.readString(dump));
        assertEquals("an earlier trace", Files.readString(trace));
        try (var files = Files.list(dump.getParent())) {
            assertEquals(Set.of("results.jsonl", "run.pagetrace"),
                files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet()), "nothing else left there");
        }
        // Named in folders not there yet: the check made them before the run, and the failed run left them, empty.
        Path newDump = dir.resolve("new dump/results.jsonl");
        Path newTrace = dir.resolve("new trace/deeper/run.pagetrace");
        assertEquals(1, bench("ldbc", "--quiet", "--data-cache", dir.resolve("cache").toString(), "--warmup", "0", "--ops",
            "160", "--data", data.toString(), "--policies", "clock", "--threads", "1", "--out", dir.resolve("o").toString(),
            "--dump-results", newDump.toString(), "--record-trace", newTrace.toString()), err.toString());
        assertFalse(Files.exists(dir.resolve("new dump")), "no folder left for --dump-results");
        assertFalse(Files.exists(dir.resolve("new trace")), "no folder left for --record-trace");
    }

    /**
     * A cache size in bytes that no page cache opens with is refused with the flags, before the data is generated and
     * loaded: it was refused only after that (minutes at scale 10), when the runs' sizes were checked against the store.
     */
    @Test
    void aCacheSizeInBytesNoCacheOpensWithIsRefusedBeforeTheDataIsPrepared() {
        Path cache = dir.resolve("cache");
        assertEquals(2, bench(args("--data", "generated:0.003", "--policies", "clock", "--cache", "10%,2000g",
            "--out", dir.resolve("o").toString())));
        assertTrue(err.toString().contains("cache size '2000g' must be a share of the store (10%, 2.5%) or a size in [2 pages"
            + " of pagecache.page_size, 1t]"), err.toString());
        assertEquals(2, bench(args("--data", "generated:0.003", "--policies", "clock", "--cache", "1m",
            "--set", "evictor.keep_free=200", "--out", dir.resolve("o").toString())));
        assertTrue(err.toString().contains("clock @ 1m: "), err.toString());
        // more than the machine's memory: the page cache refused it only when the first run opened it, a stack trace
        long machine = io.ratatosk.pagecache.internal.MachineMemory.total().orElse(Long.MAX_VALUE);
        if (machine < 1L << 40) {
            assertEquals(2, bench(args("--data", "generated:0.003", "--policies", "clock", "--cache", "1024g",
                "--out", dir.resolve("o").toString())));
            assertTrue(err.toString().contains("clock @ 1024g: " + String.format(java.util.Locale.ROOT, "%,d", 1L << 40)
                + " bytes of page memory and "), err.toString());
        }
        if (Files.exists(cache)) {
            try (var made = Files.list(cache)) {
                assertTrue(made.noneMatch(p -> p.getFileName().toString().startsWith("scale-")), "nothing generated");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /**
     * A store in the data cache whose files were deleted or cut since it was loaded is loaded again, saying why: it was
     * reused as complete, and every later run failed ("not mapped", "damaged") until --reload.
     */
    @Test
    void aDamagedStoreInTheDataCacheIsLoadedAgain() throws IOException {
        String[] run = {"ldbc", "--data-cache", dir.resolve("cache").toString(), "--warmup", "0", "--ops", "10", "--data",
            "sample", "--policies", "clock", "--threads", "1", "--out", dir.resolve("o").toString()};
        assertEquals(0, bench(run), err.toString());
        Path store = dir.resolve("cache/sample/store");
        try (FileChannel nodes = FileChannel.open(store.resolve("nodes.store"), StandardOpenOption.WRITE)) {
            nodes.truncate(8192);
        }
        Progress cut = withProgress(run);
        assertEquals(0, cut.rc(), cut.lines());
        assertTrue(cut.lines().contains("is damaged (nodes.store has 8192 bytes but store.meta needs"), cut.lines());
        assertTrue(cut.lines().contains("loading it again"), cut.lines());
        Files.delete(store.resolve("strings.store"));
        Progress missing = withProgress(run);
        assertEquals(0, missing.rc(), missing.lines());
        assertTrue(missing.lines().contains("is damaged (strings.store is missing); loading it again"), missing.lines());
        Progress reused = withProgress(run);
        assertEquals(0, reused.rc(), reused.lines());
        assertTrue(reused.lines().contains("using the store loaded earlier"), reused.lines());
    }

    /**
     * A policy's own flag given with --set is refused, naming the policies that read it and how to give it: it changed
     * them (muninn at max usage 1 faulted a quarter more), while the report, summary.json and the printed ./bench sim
     * command named them "muninn", as if at their defaults.
     */
    @Test
    void aPolicyFlagGivenWithSetIsRefused() {
        assertEquals(2, bench(quickArgs("--data", "sample", "--policies", "muninn", "--set", "clock.max_usage=1", "--out",
            dir.resolve("o").toString())));
        assertTrue(err.toString().contains("--set pagecache.clock.max_usage is a flag of the policies muninn, global-clock"),
            err.toString());
        assertTrue(err.toString().contains("--policies muninn:clock.max_usage=1"), err.toString());
        assertFalse(Files.exists(dir.resolve("o")), "refused before anything is written");
        assertFalse(Files.exists(dir.resolve("cache").resolve("sample")), "refused before the data is prepared");
        // Given as the message says, it runs, under the name it ran as.
        assertEquals(0, bench(quickArgs("--data", "sample", "--policies", "muninn:clock.max_usage=1", "--out",
            dir.resolve("o").toString())), err.toString());
        assertTrue(out.toString().contains("muninn:clock.max_usage=1 @ 10%"), out.toString());
    }

    /**
     * --restart's full run starts cold, whatever an earlier --restart left beside the store: it reheated that run's
     * profile when it opened, so a second invocation reported the steady hit ratio of a warmed cache (0.98 after one
     * operation where the first, cold, gave 0.94).
     */
    @Test
    void restartsFullRunStartsColdAfterAnEarlierRestart() {
        String[] restart = {"ldbc", "--quiet", "--data-cache", dir.resolve("cache").toString(), "--data", "sample",
            "--policies", "clock", "--restart", "--threads", "1", "--warmup", "0", "--ops", "1", "--set",
            "evictor.enabled=false"};
        assertEquals(0, bench(restart), err.toString());
        String first = out.toString();
        assertEquals(0, bench(restart), err.toString());
        String second = out.toString().substring(first.length());
        java.util.regex.Pattern steady = java.util.regex.Pattern.compile("steady hit ratio ([0-9.]+)");
        java.util.regex.Matcher a = steady.matcher(first);
        java.util.regex.Matcher b = steady.matcher(second);
        assertTrue(a.find() && b.find(), first + second);
        assertEquals(a.group(1), b.group(1), first + second);
    }

    /**
     * The run's own folder that could not be made was said with the exception's message, the bare path for an
     * AccessDeniedException, and the OS's words beside the path again for a file on its path: now in words, as
     * OutputFile.createFolder says it (root passes every permission check, so a file in the way stands in).
     */
    @Test
    void aRunFolderThatCannotBeMadeSaysWhy() throws IOException {
        Path file = Files.writeString(dir.resolve("outs"), "a file, not a folder");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> LdbcCommand.freshFolder(file, "2026-12-01T05-30-00"));
        assertEquals("--out: cannot create the folder " + file.resolve("2026-12-01T05-30-00")
            + ": a folder on its path is a file", e.getMessage());
    }
}
