package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.policies.PolicyRegistry;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThroughputCommandTest {
    @Test
    void measuresEachPolicyAtEachThreadCountWithItsFlags() {
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "throughput", "--policies", "deferred-lru:pull_threshold=0.5",
            "--threads", "1", "--frames", "64", "--seconds", "0.05", "--warmup", "0.1");
        String text = run.out();
        assertEquals(0, run.status(), text + err);
        assertTrue(text.lines().anyMatch(line -> line.startsWith("deferred-lru:pull_threshold=0.5") && line.contains(" 1 ")), text);
    }

    /**
     * A reading thread that fails fails the run, naming the policy and the failure: it died alone, its stack trace on
     * stderr, and the run printed the throughput of the threads left with exit status 0.
     */
    @Test
    void aReaderThatFailsFailsTheRunInsteadOfLeavingTheOthersToReport() {
        ThroughputCommand.ReadLoop real = ThroughputCommand.readLoop;
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        ThroughputCommand.readLoop = (pages, order, stop, timing, ops) -> {
            if (started.getAndIncrement() == 1) {
                throw new java.io.IOException("injected: the disk went away");
            }
            real.run(pages, order, stop, timing, ops);
        };
        try {
            StringWriter err = new StringWriter();
            BenchRun.Output run = BenchRun.run(err, "throughput", "--policies", "muninn", "--threads", "2", "--frames", "64",
                "--seconds", "0.05", "--warmup", "0.1");
            assertEquals(1, run.status(), run.out() + err);
            assertTrue(err.toString().contains("a reading thread of muninn at 2 thread(s) failed")
                && err.toString().contains("injected: the disk went away"), err.toString());
            assertTrue(run.out().lines().noneMatch(line -> line.startsWith("muninn ")), run.out());
        } finally {
            ThroughputCommand.readLoop = real;
        }
    }

    /**
     * A reader that fails ends the run at once: the others stopped, but the run slept on through its warm-up and
     * --seconds (an hour and a day here) before it looked. Bounded, so that the old wait fails instead of hanging.
     */
    @Test
    void aReaderThatFailsEndsTheRunWithoutWaitingOutItsTime() {
        ThroughputCommand.ReadLoop real = ThroughputCommand.readLoop;
        ThroughputCommand.readLoop = (pages, order, stop, timing, ops) -> {
            throw new java.io.IOException("injected: the disk went away");
        };
        try {
            StringWriter err = new StringWriter();
            BenchRun.Output run = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofMinutes(1),
                () -> BenchRun.run(err, "throughput", "--policies", "muninn", "--threads", "1", "--frames", "64",
                    "--seconds", "86400", "--warmup", "3600"), "the run waited out its warm-up and --seconds");
            assertEquals(1, run.status(), run.out() + err);
            assertTrue(err.toString().contains("injected: the disk went away"), err.toString());
        } finally {
            ThroughputCommand.readLoop = real;
        }
    }

    /**
     * A row's hit % is the mean of its runs, as its Mops/s is: it was the last run's alone. Here the first run reads one
     * page (every read a hit), the second scans the file, eight times the frames (hardly any).
     */
    @Test
    void aRowsHitRatioIsTheMeanOfItsRuns() {
        ThroughputCommand.ReadLoop real = ThroughputCommand.readLoop;
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        ThroughputCommand.readLoop = (pages, order, stop, timing, ops) -> {
            boolean onePage = runs.getAndIncrement() == 0;
            int[] scan = new int[order.length];
            java.util.Arrays.setAll(scan, i -> onePage ? 0 : i % (64 * 8));
            real.run(pages, scan, stop, timing, ops);
        };
        try {
            StringWriter err = new StringWriter();
            BenchRun.Output run = BenchRun.run(err, "throughput", "--policies", "muninn", "--threads", "1", "--frames", "64",
                "--seconds", "0.2", "--warmup", "0.1", "--runs", "2");
            assertEquals(0, run.status(), run.out() + err);
            String row = run.out().lines().filter(line -> line.startsWith("muninn ")).findFirst().orElseThrow();
            double hitPercent = Double.parseDouble(row.trim().split("\\s+")[3]);
            assertTrue(hitPercent > 40 && hitPercent < 60, "the mean of about 100% and about 0%: " + row);
        } finally {
            ThroughputCommand.readLoop = real;
        }
    }

    /** Bad counts, and every bad policy in the list, are named together before any run prints a row. */
    @Test
    void badCountsAndPoliciesAreUsageErrorsBeforeAnyRun() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--threads", "1,0", "--frames", "1", "--seconds", "0", "--runs", "0", "--warmup", "soon"));
        for (String expected : new String[] {"--threads must be from 1 to 4096: [1, 0]", "--frames must be from 2 to 268435455",
            "--seconds must be above 0 and at most 86400 (a day): 0.0", "--runs must be from 1 to 10000: 0", "--warmup must be quiet or seconds from 0 to 3600: 'soon' is not a decimal number"}) {
            assertTrue(err.toString().contains(expected), err.toString());
        }
        err = new StringWriter();
        assertEquals(2, throughput(err, "--policies", "muninn,nope,global-clock:max_usage,global-clock:max_usage=99",
            "--threads", "1", "--frames", "64", "--seconds", "0.05", "--warmup", "0.1"));
        for (String expected : new String[] {"--policies nope: unknown policy 'nope'; the page cache runs: muninn,",
            "--policies global-clock:max_usage: policy override 'max_usage' in 'global-clock:max_usage' is not key=value",
            "--policies global-clock:max_usage=99: pagecache.clock.max_usage=99"}) {
            assertTrue(err.toString().contains(expected), err.toString());
        }
        assertTrue(!err.toString().contains("--policies muninn:"), "muninn is fine: " + err);
    }

    /**
     * A list naming no policy is said with the other refusals, as a bad policy is: it was said only once the rest were
     * right, so that a second try (the --seconds fixed) was refused again for the list.
     */
    @Test
    void aListNamingNoPolicyIsSaidWithTheOtherRefusals() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--policies", " , ", "--seconds", "0"));
        assertTrue(err.toString().contains("--seconds must be above 0"), err.toString());
        assertTrue(err.toString().contains("--policies names no policy: ' , '"), err.toString());
    }

    /** As in every other tool: {@code default} runs first, under the default policy's name, and a repeat runs once. */
    @Test
    void defaultRunsFirstUnderItsRealNameAndARepeatOnce() {
        StringWriter err = new StringWriter();
        String text = throughputOut(err, "--policies", "muninn,default:margin=0.2,best-of:margin=0.2,lru", "--threads", "1",
            "--frames", "64", "--seconds", "0.05", "--warmup", "0.1");
        assertTrue(err.toString().contains("lru: policy lru is the simulator's only"), err.toString());
        text = throughputOut(err, "--policies", "muninn,default:margin=0.2,best-of:margin=0.2", "--threads", "1",
            "--frames", "64", "--seconds", "0.05", "--warmup", "0.1");
        List<String> rows = text.lines().skip(1).map(line -> line.split(" +")[0]).toList();
        assertEquals(List.of(PolicyRegistry.DEFAULT_POLICY + ":margin=0.2", "muninn"), rows, text);
    }

    /**
     * A repeat is the same run however it is written, as in the other tools' lists: muninn and muninn:max_usage=4 (its
     * default), and best-of:margin=0.5 and default:bestof.margin=0.50, ran as two rows of one policy each.
     */
    @Test
    void aPolicyWrittenTwoWaysRunsOnce() {
        StringWriter err = new StringWriter();
        String text = throughputOut(err, "--policies", "muninn,muninn:max_usage=4,best-of:margin=0.5,default:bestof.margin=0.50",
            "--threads", "1", "--frames", "64", "--seconds", "0.05", "--warmup", "0.1");
        List<String> rows = text.lines().skip(1).map(line -> line.split(" +")[0]).toList();
        assertEquals(List.of(PolicyRegistry.DEFAULT_POLICY + ":bestof.margin=0.50", "muninn"), rows, text + err);
    }

    /** Cache flags beside the policy's come through --set; the ones the command sets itself are refused, as are bad values. */
    @Test
    void setPassesOtherFlagsAndRefusesTheFixedOnesAndBadValues() {
        StringWriter err = new StringWriter();
        String text = throughputOut(err, "--policies", "muninn", "--set", "evictor.enabled=false", "--threads", "1",
            "--frames", "64", "--seconds", "0.05", "--warmup", "0.1");
        assertTrue(text.lines().anyMatch(line -> line.startsWith("muninn ")), text + err);
        err = new StringWriter();
        assertEquals(2, throughput(err, "--set", "pagecache.memory=1m", "--set", "=1", "--threads", "1", "--frames", "64"));
        assertTrue(err.toString().contains("--set pagecache.memory=1m: pagecache.memory is fixed by this command"), err.toString());
        assertTrue(err.toString().contains("no flag named before the '='"), err.toString());
        err = new StringWriter();
        assertEquals(2, throughput(err, "--set", "evictor.enabled=maybe", "--threads", "1", "--frames", "64"));
        assertTrue(err.toString().contains("--set: pagecache.evictor.enabled=maybe"), err.toString());
    }

    /** A policy's own flag through --set changed muninn while every line of the report named it plain muninn. */
    @Test
    void aPolicyFlagGivenWithSetIsRefusedNamingThePolicyForm() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--set", "clock.max_usage=1", "--threads", "1", "--frames", "64"));
        assertTrue(err.toString().contains("--set pagecache.clock.max_usage is a flag of the policies muninn"), err.toString());
        assertTrue(err.toString().contains("--policies muninn:clock.max_usage=1"), err.toString());
    }

    /** A flag set twice, in two spellings, ran with the last value without a word. */
    @Test
    void aFlagSetTwiceToDifferentValuesIsRefused() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--set", "evictor.enabled=false", "--set", "pagecache.evictor.enabled=true",
            "--threads", "1", "--frames", "64"));
        assertTrue(err.toString().contains("--set evictor.enabled=false and --set pagecache.evictor.enabled=true both set"
            + " pagecache.evictor.enabled: give it once"), err.toString());
    }

    /** An empty thread list measured nothing and reported success. */
    @Test
    void anEmptyThreadListIsAUsageError() {
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "throughput", "--threads", ",,", "--frames", "64", "--seconds", "0.05");
        assertEquals(2, run.status(), run.out() + err);
        assertTrue(err.toString().contains("--threads names no thread count"), err.toString());
        assertEquals("", run.out(), "nothing measured");
    }

    /** A thread count named twice measured every policy at it twice, as long again, as two rows of one measurement. */
    @Test
    void aThreadCountNamedTwiceIsAUsageError() {
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "throughput", "--policies", "clock", "--threads", "1,2,1", "--frames", "64",
            "--seconds", "0.05", "--warmup", "0");
        assertEquals(2, run.status(), run.out() + err);
        assertTrue(err.toString().contains("--threads names a thread count twice: [1, 2, 1]; each count runs once (repeat"
            + " runs with --runs)"), err.toString());
        assertEquals("", run.out(), "nothing measured");
    }

    /** --runs had no upper bound: 2147483647 died of an OutOfMemoryError allocating its results, a stack trace. */
    @Test
    void runsAboveTheLimitAreAUsageErrorNamingTheLimit() {
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "throughput", "--policies", "clock", "--threads", "1", "--frames", "64",
            "--seconds", "0.05", "--warmup", "0", "--runs", "2147483647");
        assertEquals(2, run.status(), run.out() + err);
        assertTrue(err.toString().contains("--runs must be from 1 to 10000: 2147483647"), err.toString());
        assertEquals("", run.out(), "nothing measured");
    }

    /** 8 x the frames pages are numbered by an int: above that the file's length overflowed to "Invalid argument". */
    @Test
    void framesWhoseFileOverflowsAnIntAreAUsageErrorNamingTheLimit() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--frames", "268435456", "--threads", "1"));
        assertTrue(err.toString().contains("--frames must be from 2 to 268435455 (the file's 8 x as many pages are numbered"
            + " by an int): 268435456"), err.toString());
        assertEquals(ThroughputCommand.MAX_FRAMES * 8L, Integer.MAX_VALUE - 7, "the largest file still numbers its pages");
    }

    /**
     * --seconds 1e300 slept for Long.MAX_VALUE ms (the run never ended); --threads 99999999 died of an OutOfMemoryError
     * with a stack trace, allocating 4 MiB of page numbers per thread. Both are usage errors naming the limit.
     */
    @Test
    void aRunTooLongOrTooManyThreadsIsAUsageErrorNamingTheLimit() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--seconds", "1e300", "--threads", "99999999", "--frames", "64"));
        assertTrue(err.toString().contains("--seconds must be above 0 and at most 86400 (a day): 1.0E300"), err.toString());
        assertTrue(err.toString().contains("--threads must be from 1 to 4096: [99999999]"), err.toString());
        long threads = Runtime.getRuntime().maxMemory() / 2 / ThroughputCommand.ORDER_BYTES + 1;
        assumeTrue(threads <= 4096, "a heap of more than 32 GiB takes 4096 threads' page numbers");
        err = new StringWriter();
        assertEquals(2, throughput(err, "--threads", "1," + threads, "--frames", "64"));
        assertTrue(err.toString().contains("--threads " + threads + " and --frames 64 need about "), err.toString());
        assertTrue(err.toString().contains(" MiB of heap (4 MiB of page numbers per thread, 64 bytes of Zipf table per"
            + " frame), more than half the heap's "), err.toString());
        assertTrue(err.toString().contains("JAVA_OPTS=-Xmx"), err.toString());
    }

    /** --frames 268435455 (allowed: its pages fit an int) died of an OutOfMemoryError in the Zipf table, a stack trace. */
    @Test
    void framesWhoseZipfTableExceedsTheHeapAreAUsageError() {
        long frames = Runtime.getRuntime().maxMemory() / 2 / 64 + 1;
        assumeTrue(frames <= ThroughputCommand.MAX_FRAMES, "a heap of more than 32 GiB holds the largest Zipf table");
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--frames", String.valueOf(frames), "--threads", "1"));
        assertTrue(err.toString().contains("--threads 1 and --frames " + frames + " need about "), err.toString());
    }

    /** Standard output of a throughput run; its usage errors go to {@code err}. */
    private static String throughputOut(StringWriter err, String... args) {
        return BenchRun.run(err, "throughput", args).out();
    }

    /** The exit status of a throughput run; its usage errors go to {@code err}. */
    private static int throughput(StringWriter err, String... args) {
        return BenchRun.run(err, "throughput", args).status();
    }
}
