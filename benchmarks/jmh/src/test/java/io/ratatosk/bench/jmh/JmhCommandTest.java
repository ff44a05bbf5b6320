package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.ChildProcess;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;

/** What {@code ./bench jmh} hands to JMH. */
class JmhCommandTest {
    /**
     * The closing hint is a command line to copy: a results path with a space (or a quote, or a shell's specials) was
     * printed bare, and the copied command read another file. A shell now reads back exactly the path.
     */
    @Test
    void theHintsResultsPathIsOneShellWordWhateverItHolds() throws Exception {
        for (String path : List.of("bench-out/jmh.json", "/tmp/my results/jmh.json", "it's $HOME/*.json", "a\"b;c|d")) {
            String quoted = io.ratatosk.bench.sim.OutputFile.shellQuoted(path);
            ChildProcess.Result echo = ChildProcess.run(new ProcessBuilder("bash", "-c", "printf %s " + quoted));
            assertEquals(0, echo.status(), echo.output());
            assertEquals(path, echo.output(), "bash read back " + quoted);
        }
        assertEquals("bench-out/jmh.json", io.ratatosk.bench.sim.OutputFile.shellQuoted("bench-out/jmh.json"), "a plain path stays as it is");
    }

    private static Options options(boolean quick, String... args) throws Exception {
        return JmhCommand.options(new CommandLineOptions(args), quick).build();
    }

    @Test
    void withoutAPatternTheWholeSuiteRunsWithTheGcProfilerAndEveryPolicy() throws Exception {
        Options o = options(false);
        assertEquals(List.of(JmhCommand.SUITE_PATTERN), o.getIncludes());
        assertTrue(o.getProfilers().stream().anyMatch(p -> p.getKlass().equals("gc")));
        assertEquals(PolicyRegistry.NAMES, List.copyOf(o.getParameter("policy").get()),
            "the policy list comes from PolicyRegistry.NAMES, not from the annotation");
        assertEquals(NvmSwapBenchmark.tiers(), List.copyOf(o.getParameter("tier").get()),
            "the NVM tiers come from NvmProfile, not from the annotation");
        assertEquals(List.of("file", "nvm-nvme", "nvm-nvme-fast", "nvm-pcm", "nvm-dram"), NvmSwapBenchmark.tiers(),
            "the reference first, then one tier per profile");
    }

    @Test
    void theDefaultSuiteLeavesOutOnlyThePrimitiveMapsAndTheCursorPerReadWhichRunByName() {
        Pattern suite = Pattern.compile(JmhCommand.SUITE_PATTERN);
        assertTrue(suite.matcher(HitPathBenchmark.class.getName() + ".read").find());
        assertTrue(suite.matcher(PolicyHitPathBenchmark.class.getName() + ".read").find());
        assertTrue(suite.matcher(PolicyFaultPathBenchmark.class.getName() + ".read").find());
        assertTrue(suite.matcher(KeyValueCacheBenchmark.class.getName() + ".get").find());
        assertFalse(suite.matcher(PrimitiveMapBenchmark.class.getName() + ".exactHistory").find());
        assertTrue(Pattern.compile("PrimitiveMap").matcher(PrimitiveMapBenchmark.class.getName() + ".exactHistory").find());
        assertFalse(suite.matcher(CursorPerReadBenchmark.class.getName() + ".read").find());
        assertTrue(Pattern.compile("CursorPerRead").matcher(CursorPerReadBenchmark.class.getName() + ".read").find());
    }

    @Test
    void quickModeShortensOnlyWhatTheUserDidNotSet() throws Exception {
        Options o = options(true, "HitPath", "-i", "7");
        assertEquals(List.of("HitPath"), o.getIncludes());
        assertEquals(1, o.getForkCount().get());
        assertEquals(JmhCommand.QUICK_MEASUREMENT_TIME, o.getMeasurementTime().get());
        assertEquals(TimeValue.milliseconds(500), o.getWarmupTime().get());
        assertEquals(7, o.getMeasurementIterations().get());
    }

    @Test
    void aPolicyOrTierListGivenByTheUserIsKept() throws Exception {
        Options o = options(false, "-p", "policy=clock", "-p", "tier=file,nvm-pcm");
        assertEquals(List.of("clock"), List.copyOf(o.getParameter("policy").get()));
        assertEquals(List.of("file", "nvm-pcm"), List.copyOf(o.getParameter("tier").get()));
    }

    /** As in every other tool's policy list: {@code default} runs first, as the default policy, and a repeat once. */
    @Test
    void defaultInAPolicyListIsTheDefaultPolicyFirst() throws Exception {
        Options o = options(false, "-p", "policy=muninn,default," + PolicyRegistry.DEFAULT_POLICY + ",clock");
        assertEquals(List.of(PolicyRegistry.DEFAULT_POLICY, "muninn", "clock"), List.copyOf(o.getParameter("policy").get()));
    }

    /**
     * JMH's own exception for this carries no message; the user gets the pattern back and where to find the names. The
     * folders made for the results before the run are gone again.
     */
    @Test
    void aPatternMatchingNoBenchmarkIsAUsageErrorNamingIt(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new JmhCommand());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        assertEquals(2, cl.execute("--quick", "--out", dir.resolve("new/sub/r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("no benchmark matches NoSuchBenchmarkXyz; ./bench jmh -l lists them"),
            err.toString());
        assertFalse(Files.exists(dir.resolve("new")), "no empty folder left");
    }

    /** "--threads ,," ran nothing, then said "no benchmark matched []", blaming a pattern no one gave. */
    @Test
    void anEmptyThreadListIsAUsageErrorNamingTheFlag(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--threads", ",,", "--out", dir.resolve("r.json").toString()));
        assertTrue(err.toString().contains("--threads names no thread count"), err.toString());
        assertFalse(err.toString().contains("no benchmark matched"), err.toString());
    }

    /** JMH's message drops the dashes of the option it does not know: the user's spelling is given back. */
    @Test
    void anUnknownOptionIsNamedWithItsDashes(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--bogus", "--out", dir.resolve("r.json").toString()));
        assertTrue(err.toString().contains("JMH: --bogus is not a recognized option"), err.toString());
    }

    /** A folder as --out failed only when the first run's results were written, losing that run, with a stack trace. */
    @Test
    void anOutThatIsAFolderIsRefusedBeforeAnythingRuns(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--out", dir.toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--out " + dir + " is a folder"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-rff", dir.toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-rff " + dir + " is a folder"), err.toString());
        err = new StringWriter(); // JMH's log: a stack trace
        assertEquals(2, jmh(err, "-o", dir.toString(), "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-o " + dir + " is a folder"), err.toString());
    }

    /**
     * The results and JMH's log are written plain: an --out named r.json.gz held plain JSON under a gzip name, without a
     * word, which zcat refused. Refused before anything runs, as sim --json and ldbc --dump-results refuse it.
     */
    @Test
    void anOutNamedAsCompressedIsRefusedBeforeAnythingRuns(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--out", dir.resolve("r.json.gz").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--out " + dir.resolve("r.json.gz") + ": the results are written as plain JSON,"
            + " not .gz"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-rff", dir.resolve("r.json.zst").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-rff " + dir.resolve("r.json.zst") + ": the results are written as plain"
            + " JSON, not .zst"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-o", dir.resolve("log.xz").toString(), "--out", dir.resolve("r.json").toString(),
            "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-o " + dir.resolve("log.xz") + ": JMH's log is written as plain text, not .xz"),
            err.toString());
        // In folders not there yet: the check made them before the refusal, which left them, empty.
        assertEquals(2, jmh(new StringWriter(), "--out", dir.resolve("new/r.json.gz").toString(), "NoSuchBenchmarkXyz"));
        assertEquals(2, jmh(new StringWriter(), "-o", dir.resolve("logs/deeper/log.xz").toString(), "--out",
            dir.resolve("results/r.json").toString(), "NoSuchBenchmarkXyz"));
        for (String folder : List.of("new", "logs", "results")) {
            assertFalse(Files.exists(dir.resolve(folder)), folder + " left behind");
        }
    }

    /** --out / or -o /: the folders their check would make were looked for above null, a NullPointerException's trace. */
    @Test
    void anOutOrLogNamedTheRootFolderIsAUsageError(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--out", "/", "NoSuchBenchmarkXyz"), err.toString());
        assertTrue(err.toString().contains("--out / is a folder; name a file"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-o", "/", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"), err.toString());
        assertTrue(err.toString().contains("-o / is a folder; name a file"), err.toString());
    }

    /**
     * JMH takes -r 0s, a measurement iteration of no time: each iteration then counted the few operations that fit in
     * the microseconds its timing took (RawMemoryBenchmark.read: 0.003 ops/us, where it does thousands), and the run wrote
     * them as its results, status 0, for jmh-report to compare.
     */
    @Test
    void aMeasurementTimeOfZeroIsAUsageError(@TempDir Path dir) {
        for (String zero : new String[] {"0s", "0ms", "0ns"}) {
            StringWriter err = new StringWriter();
            Path results = dir.resolve("r.json");
            assertEquals(2, jmh(err, "RawMemoryBenchmark.read", "-p", "pages=256", "-f", "1", "-wi", "0", "-i", "1",
                "-r", zero, "--threads", "1", "--out", results.toString()), err.toString());
            assertTrue(err.toString().contains("-r " + zero + ": a measurement iteration of no time measures nothing"),
                err.toString());
            assertFalse(Files.exists(results), "nothing ran");
        }
    }

    /**
     * -f 0 runs every benchmark inside the launcher's JVM: JMH says so only in its log, between the rows, and the
     * results were written for jmh-report as any others. It stays (a quick check of a benchmark), said on stderr
     * before the run, as -r 0s is refused there.
     */
    @Test
    void forksZeroRunsWithAWarningThatTheResultsAreNotForComparing(@TempDir Path dir) {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        StringWriter err = new StringWriter();
        Path results = dir.resolve("r.json");
        assertEquals(0, jmh(err, "RawMemoryBenchmark.read$", "-p", "pages=256", "-f", "0", "-wi", "0", "-i", "1",
            "-r", "10ms", "--threads", "1", "--rounds", "1", "--out", results.toString()), err.toString());
        assertTrue(err.toString().contains("warning: -f 0 runs the benchmarks inside this JVM"), err.toString());
        assertTrue(Files.exists(results), "it ran");
    }

    /**
     * JMH reports a benchmark that threw and goes on: a run where some failed exited 0, as a whole one, the failures
     * said only in JMH's log between the rows. The others' results are kept; the status says the run was not whole.
     */
    @Test
    void aRunWhereSomeBenchmarksFailedSaysWhichAndExitsOne(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        StringWriter err = new StringWriter();
        Path out = dir.resolve("r.json");
        // caffeine is a side of KeyValueCacheBenchmark only: HitPathBenchmark.read fails in its setup, RawMemory runs
        assertEquals(1, jmh(err, "\\.(RawMemoryBenchmark|HitPathBenchmark)\\.read$", "-p", "side=caffeine", "-p", "pages=256",
            "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms", "--threads", "1", "--rounds", "1", "--out", out.toString()),
            err.toString());
        assertTrue(err.toString().contains("1 of 2 benchmark runs failed (see above), not in " + out + ": "
            + "io.ratatosk.bench.jmh.HitPathBenchmark.read [hugePages=auto, pages=256, side=caffeine] at 1 thread(s)"),
            err.toString());
        assertTrue(Files.readString(out).contains("RawMemoryBenchmark.read"), "the others' results kept");
    }

    /** With -o, JMH's report of a failure is in its log, not above on the terminal: 'see above' sent the user nowhere. */
    @Test
    void aFailureSaidWithALogNamesTheLog(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        StringWriter err = new StringWriter();
        Path out = dir.resolve("r.json");
        Path log = dir.resolve("jmh.log");
        assertEquals(1, jmh(err, "\\.(RawMemoryBenchmark|HitPathBenchmark)\\.read$", "-p", "side=caffeine", "-p", "pages=256",
            "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms", "--threads", "1", "--rounds", "1", "--out", out.toString(),
            "-o", log.toString()), err.toString());
        assertTrue(err.toString().contains("1 of 2 benchmark runs failed (see " + log + "), not in " + out + ": "),
            err.toString());
        assertTrue(Files.readString(log).contains("<failure>"), "JMH's report of it is there");
    }

    /** JMH's log (-o) was opened afresh by each run (a round, a thread count): it held the last run's alone. */
    @Test
    void theLogHoldsEveryRunOfTheCommand(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        StringWriter err = new StringWriter();
        Path log = dir.resolve("jmh.log");
        assertEquals(0, jmh(err, "\\.RawMemoryBenchmark\\.read$", "-p", "pages=256", "-f", "0", "-wi", "0", "-i", "1",
            "-r", "10ms", "--threads", "1,2", "--rounds", "2", "-o", log.toString(), "--out", dir.resolve("r.json").toString()),
            err.toString());
        String written = Files.readString(log);
        assertEquals(2, written.split("# Threads: 1 thread,", -1).length - 1, written);
        assertEquals(2, written.split("# Threads: 2 threads,", -1).length - 1, written);
    }

    /** An unknown policy or tier failed every benchmark it reached, each with a stack trace, then blamed the pattern. */
    @Test
    void anUnknownPolicyTierOrSideIsAUsageErrorNamingIt(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "-p", "policy=muninn,bogus", "--out", dir.resolve("r.json").toString(), "PolicyHitPath"));
        assertTrue(err.toString().contains("-p policy=muninn,bogus: unknown policy 'bogus'"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-p", "tier=file,nvm-bogus", "--out", dir.resolve("r.json").toString(), "NvmSwap"));
        assertTrue(err.toString().contains("-p tier=file,nvm-bogus: unknown tier 'nvm-bogus'; the tiers: "
            + String.join(", ", NvmSwapBenchmark.tiers())), err.toString());
        err = new StringWriter();
        // a side no benchmark has failed every row's setup in its fork, with a stack trace each
        assertEquals(2, jmh(err, "-p", "side=ratatosk,Muninn", "--out", dir.resolve("r.json").toString(), "HitPath"));
        assertTrue(err.toString().contains("-p side=ratatosk,Muninn: unknown side 'Muninn'; the sides: ratatosk, muninn,"
            + " raw, caffeine, agrona"), err.toString());
        err = new StringWriter();
        // a distribution or hugePages value no benchmark takes did the same: a stack trace per row, exit 1 (a pattern
        // matching no benchmark, as below: what is refused is the value, before anything runs)
        assertEquals(2, jmh(err, "-p", "distribution=Zipf", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-p distribution=Zipf: unknown distribution 'Zipf'; the distributions: uniform,"
            + " zipf"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-p", "hugePages=auto,on", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-p hugePages=auto,on: unknown hugePages 'on'; the values: auto, off"),
            err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-p", "policy=,", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-p policy=,: names no policy"), err.toString()); // ran every policy
        err = new StringWriter();
        assertEquals(2, jmh(err, "-ptier=", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-p tier=: names no tier"), err.toString());
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    /**
     * The check of -p side= knew the page caches' sides and Caffeine, not agrona's, the primitive maps' reference: {@code
     * ./bench jmh PrimitiveMap -p side=agrona} (agrona's maps alone, or {@code side=ratatosk,agrona}) was refused as
     * "unknown side 'agrona'", exit 2, a value the benchmark takes.
     */
    @Test
    void agronasSideOfThePrimitiveMapsIsASide(@TempDir Path dir) throws IOException {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        StringWriter err = new StringWriter();
        Path out = dir.resolve("r.json");
        assertEquals(0, jmh(err, "\\.PrimitiveMapBenchmark\\.shadowIndex$", "-p", "side=agrona", "-f", "0", "-wi", "0", "-i",
            "1", "-r", "10ms", "--threads", "1", "--rounds", "1", "--out", out.toString()), err.toString());
        assertFalse(err.toString().contains("unknown side"), err.toString());
        List<JmhResult> results = JmhResult.read(out);
        assertEquals(1, results.size());
        assertEquals("agrona", results.get(0).params().get("side"));
    }

    /**
     * A -p name no benchmark of the run takes was dropped by JMH without a word: -p pagez=256 on the hit path ran every
     * page count, three rows for the one asked for. A bad number for a numeric parameter failed each row in its fork.
     */
    @Test
    void aParameterNoBenchmarkOfTheRunTakesIsAUsageErrorNamingThoseTheyTake(@TempDir Path dir) {
        System.setProperty("jmh.ignoreLock", "true"); // without the check these run, briefly, in this JVM (-f 0)
        String[] brief = {"-f", "0", "-wi", "0", "-i", "1", "-r", "10ms", "--threads", "1", "--rounds", "1", "--out",
            dir.resolve("r.json").toString()};
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, with(brief, "\\.RawMemoryBenchmark\\.", "-p", "pagez=256")));
        assertTrue(err.toString().contains("-p pagez: no benchmark of this run takes a parameter pagez; theirs: pages"),
            err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, with(brief, "\\.RawMemoryBenchmark\\.", "-p", "pages=256,0")));
        assertTrue(err.toString().contains("-p pages=256,0: pages is a whole number from 1 to 999,999,999 (the benchmarks"
            + " run 256, 4096, 8192): '0'"), err.toString());
        err = new StringWriter();
        // a name some other benchmark takes is no parameter of this run's
        assertEquals(2, jmh(err, "-p", "fileToCache=4", "--out", dir.resolve("r.json").toString(),
            "\\.HitPathBenchmark\\."));
        assertTrue(err.toString().contains("-p fileToCache: no benchmark of this run takes a parameter fileToCache; theirs:"
            + " hugePages, pages, side"), err.toString());
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    private static String[] with(String[] options, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(options));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    /**
     * A policy with flags, as the other tools take it, was called an unknown policy under a name the user had not
     * written ("-p policy=default:margin=0.5: unknown policy 'best-of:margin=0.5'"): the policy is known, its flags are not
     * taken here.
     */
    @Test
    void aPolicyWithFlagsIsRefusedSayingTheBenchmarksTakeNone(@TempDir Path dir) {
        for (String spec : List.of("default:margin=0.5", " default:bestof.margin=0.5", "best-of:margin=0.5")) {
            StringWriter err = new StringWriter();
            assertEquals(2, jmh(err, "-p", "policy=muninn," + spec, "--out", dir.resolve("r.json").toString(), "PolicyHitPath"));
            assertTrue(err.toString().contains("-p policy=muninn," + spec + ": '" + spec.strip() + "' gives "
                + PolicyRegistry.DEFAULT_POLICY + " flags, which the benchmarks do not take"), err.toString());
            assertFalse(err.toString().contains("unknown policy"), err.toString());
        }
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    /** A pattern that is no regular expression printed Java's three-line message, without saying it was the pattern. */
    @Test
    void aPatternThatIsNoRegularExpressionIsAUsageErrorNamingIt(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--out", dir.resolve("r.json").toString(), "HitPath["));
        assertTrue(err.toString().contains("benchmark pattern 'HitPath[' is not a regular expression: Unclosed character class"),
            err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-l", "HitPath["), "listing too");
        assertTrue(err.toString().contains("benchmark pattern 'HitPath[' is not a regular expression"), err.toString());
    }

    /** --threads 1,1 ran every benchmark at one thread twice, taking twice as long, and reported the rows twice. */
    @Test
    void aThreadCountNamedTwiceIsRefused(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--threads", "1,2,1", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--threads names a thread count twice: [1, 2, 1]"), err.toString());
    }

    /** --threads 99999999 had JMH start that many threads; the limit is named. */
    @Test
    void aThreadCountAboveTheLimitIsAUsageError(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--threads", "1,99999999", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--threads must be from 1 to " + ThreadCounts.MAX + ": [1, 99999999]"),
            err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-t", "99999999", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-t must be from 1 to " + ThreadCounts.MAX + ": 99999999"), err.toString());
    }

    /** JMH's "-t max", a thread per CPU, was refused as "-t must be from 1 to 4096: -1", a value no one had written. */
    @Test
    void jmhsThreadsMaxIsTakenAsJmhTakesIt(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "-t", "max", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("no benchmark matches NoSuchBenchmarkXyz"), "it got as far as the run: " + err);
        assertFalse(err.toString().contains("must be from"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "--threads", "1", "-t", "max", "--out", dir.resolve("r.json").toString(), "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--threads 1 and -t max both set the thread counts"), err.toString());
    }

    /**
     * A run whose every benchmark failed wrote "[ ]" over the results file of the run before (bench-out/jmh.json by
     * default) and said no benchmark matched.
     */
    @Test
    void aRunWhoseEveryBenchmarkFailedKeepsTheEarlierResults(@TempDir Path dir) throws Exception {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        Path out = Files.writeString(dir.resolve("r.json"), "the earlier run's results");
        StringWriter err = new StringWriter();
        // caffeine is a side, of KeyValueCacheBenchmark only: every HitPathBenchmark row fails in its setup
        assertEquals(1, jmh(err, "\\.HitPathBenchmark\\.read", "-p", "side=caffeine", "-p", "pages=256", "-f", "0", "-wi", "0",
            "-i", "1", "-r", "10ms", "--threads", "1", "--out", out.toString()));
        assertTrue(err.toString().contains("every benchmark failed (see above): " + out + " is left as it was"), err.toString());
        assertEquals("the earlier run's results", Files.readString(out));
    }

    /**
     * Two options for one thing ran one of them without a word: -rff over --out (the file the user looked for was never
     * written), -t over --threads; JMH's log (-o) into the results file was overwritten by the results, or cut them.
     */
    @Test
    void optionsThatContradictEachOtherAreAUsageError(@TempDir Path dir) {
        String a = dir.resolve("a.json").toString();
        String b = dir.resolve("b.json").toString();
        StringWriter err = new StringWriter();
        assertEquals(2, jmh(err, "--out", a, "-rff", b, "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--out " + a + " and -rff " + b + " both name the results file: give one"),
            err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "--threads", "1,2", "-t", "4", "--out", a, "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("--threads 1,2 and -t 4 both set the thread counts: give one"), err.toString());
        err = new StringWriter();
        assertEquals(2, jmh(err, "-o", a, "--out", a, "NoSuchBenchmarkXyz"));
        assertTrue(err.toString().contains("-o " + a + " is the results file: JMH's log and the results need two files"),
            err.toString());
        assertFalse(Files.exists(dir.resolve("a.json")));
    }

    private static int jmh(StringWriter err, String... args) {
        CommandLine cl = new CommandLine(new JmhCommand());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }
}
