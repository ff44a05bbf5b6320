package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One tiny measured iteration of the hit-path benchmarks per side, inside this JVM (no fork), so that the
 * generated JMH code, both adapters and the page-read counter are exercised by every build. Not a
 * measurement: the numbers only have to exist.
 */
class JmhSmokeTest {
    /**
     * JMH refuses to start while another JMH run on the machine holds its lock. This test measures nothing, so a
     * `./bench jmh` running beside the build must not fail it; its 100 ms iterations barely disturb that run.
     */
    @BeforeAll
    static void runBesideOtherJmhRuns() {
        System.setProperty("jmh.ignoreLock", "true");
        // up to 20 s a trial of reads until the compiler is quiet: this test measures nothing (CompilerWarmUpTest)
        System.setProperty(PolicyFaultPathBenchmark.WARM_UP_UNTIL_QUIET, "false");
    }

    @Test
    void eachSideRunsTheHitPathBenchmarksAndServesThemFromTheCache() throws Exception {
        Collection<RunResult> results = runOnce(HitPathBenchmark.class, "side", CacheSide.RATATOSK, CacheSide.MUNINN);
        assertEquals(4, results.size(), "read and write for both sides, at the one page count asked for");

        List<String> seen = new ArrayList<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark() + " side=" + r.getParams().getParam("side");
            seen.add(name);
            Result<?> primary = r.getPrimaryResult();
            assertTrue(primary.getScore() > 0, name + " measured nothing");
            assertEquals(Set.of("pagesRead", "cpuNanos"), r.getSecondaryResults().keySet(), name);
            Result<?> pagesRead = r.getSecondaryResults().get("pagesRead");
            assertEquals(0.0, pagesRead.getScore(), name + ": the file was not fully cached");
        }
        assertEquals(4, seen.size(), "read and write for both sides: " + seen);
    }

    /** The per-policy fault path faults: the file is four times the frames, so some reads go to it for every policy. */
    @Test
    void thePolicyFaultPathBenchmarkFaultsUnderTheDefaultPolicy() throws Exception {
        Collection<RunResult> results = runOnce(PolicyFaultPathBenchmark.class, "policy", "best-of", "global-clock");

        assertEquals(2, results.size());
        for (RunResult r : results) {
            String name = "policy=" + r.getParams().getParam("policy");
            assertTrue(r.getPrimaryResult().getScore() > 0, name + " measured nothing");
            assertTrue(r.getSecondaryResults().get("pagesRead").getScore() > 0, name + ": nothing was read from the file");
        }
    }

    /** A cursor per read, on both sides: every read checked, every one a hit. */
    @Test
    void eachSideReadsWithACursorPerReadFromTheCache() throws Exception {
        Collection<RunResult> results = runOnce(CursorPerReadBenchmark.class, "side", CacheSide.RATATOSK, CacheSide.MUNINN);

        assertEquals(2, results.size());
        for (RunResult r : results) {
            String name = "side=" + r.getParams().getParam("side");
            assertTrue(r.getPrimaryResult().getScore() > 0, name + " measured nothing");
            assertEquals(0.0, r.getSecondaryResults().get("pagesRead").getScore(), name + ": the file was not fully cached");
        }
    }

    /** The raw limit reads every value it checks from its own buffer, with no cache and nothing read after the copy. */
    @Test
    void theRawMemoryLimitRunsTheSameCheckedLoop() throws Exception {
        Collection<RunResult> results = runOnce(RawMemoryBenchmark.class, "pages", "256");

        assertEquals(1, results.size());
        RunResult r = results.iterator().next();
        assertTrue(r.getPrimaryResult().getScore() > 0, "measured nothing");
        assertEquals(0.0, r.getSecondaryResults().get("pagesRead").getScore());
    }

    /**
     * The NVM benchmark on the reference tier and the fastest NVM profile (its warm-up costs the least): after
     * the warm-up every fault is a swap-in on the NVM tier and a file read on the file tier.
     */
    @Test
    void theNvmBenchmarkServesFaultsFromNvmAndTheReferenceFromTheFile() throws Exception {
        Collection<RunResult> results = runOnce(NvmSwapBenchmark.class, "tier", NvmSwapBenchmark.FILE, "nvm-dram");

        List<String> seen = new ArrayList<>();
        for (RunResult r : results) {
            String tier = r.getParams().getParam("tier");
            String name = r.getParams().getBenchmark() + " tier=" + tier;
            seen.add(name);
            double ops = r.getPrimaryResult().getScore();
            assertTrue(ops > 0, name + " measured nothing");
            double pagesRead = r.getSecondaryResults().get("pagesRead").getScore();
            double swapIns = r.getSecondaryResults().get("swapIns").getScore();
            assertEquals(Set.of("pagesRead", "swapIns", "cpuNanos"), r.getSecondaryResults().keySet(), name);
            if (NvmSwapBenchmark.FILE.equals(tier)) {
                assertEquals(0.0, swapIns, name + ": swap-ins without an NVM tier");
                assertTrue(pagesRead > ops / 2, name + ": uniform over 4x the frames faults 3/4 of the time: " + pagesRead);
            } else {
                assertEquals(0.0, pagesRead, name + ": faults read the file, not NVM");
                assertTrue(swapIns > ops / 2, name + ": uniform over 4x the frames faults 3/4 of the time: " + swapIns);
            }
        }
        assertEquals(4, seen.size(), "read and write on both tiers: " + seen);
    }

    /** One 100 ms iteration of every benchmark of {@code benchmark} per value of {@code param}, in this JVM. */
    private static Collection<RunResult> runOnce(Class<?> benchmark, String param, String... values) throws Exception {
        OptionsBuilder options = new OptionsBuilder();
        if (!param.equals("pages") && hasField(benchmark, "pages")) {
            options.param("pages", "256"); // the smallest file of a benchmark with several: fastest to fill
        }
        return new Runner(options
            .include(benchmark.getName() + "\\.")
            .param(param, values)
            .forks(0)
            .threads(1)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(100))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build()).run();
    }

    private static boolean hasField(Class<?> type, String name) {
        try {
            type.getField(name);
            return true;
        } catch (NoSuchFieldException e) {
            return false;
        }
    }
}
