package io.ratatosk.bench.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.BenchRun;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench demo}'s flags: refused before the demo file is written, never after the first policies ran. */
class DemoCommandTest {
    private final StringWriter err = new StringWriter();

    /** A demo that must be refused: its status, with nothing printed. */
    private int demo(String... args) {
        BenchRun.Output run = BenchRun.run(err, "demo", args);
        assertEquals("", run.out(), "no table: nothing ran");
        return run.status();
    }

    @Test
    void aBadPolicyLateInTheListIsAUsageErrorBeforeAnyRun() {
        assertEquals(2, demo("--policies", "muninn,nope", "--seconds", "0.1"));
        assertTrue(err.toString().contains("unknown policy 'nope'"), err.toString());
        assertEquals(2, demo("--policies", "muninn,opt", "--seconds", "0.1"));
        assertTrue(err.toString().contains("policy opt is the simulator's only"), err.toString());
        assertEquals(2, demo("--policies", "global-clock:max_usage=99", "--seconds", "0.1"));
        assertTrue(err.toString().contains("pagecache.clock.max_usage=99"), err.toString());
    }

    /** A policy refused was said without the option it came from: "bench demo: unknown policy 'nope'". */
    @Test
    void aRefusedPolicyNamesTheOptionAndThePart() {
        String[][] refused = {{"muninn,nope", "--policies nope: unknown policy 'nope'"},
            {"muninn,opt", "--policies opt: policy opt is the simulator's only"},
            {"global-clock:max_usage=99", "--policies global-clock:max_usage=99: pagecache.clock.max_usage=99: must be"},
            {"clock-pro:cold_min=0.5:cold_max=0.1", "--policies clock-pro:cold_min=0.5:cold_max=0.1:"
                + " pagecache.clockpro.cold_min=0.5"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, demo("--policies", each[0], "--seconds", "0.1"), err.toString());
            assertTrue(err.toString().contains("bench demo: " + each[1]), err.toString());
        }
    }

    /** As in every tool's policy list: {@code default} runs first, under the default policy's name, and a repeat once. */
    @Test
    void defaultRunsFirstUnderItsRealName() {
        BenchRun.Output run = BenchRun.run(err, "demo", "--policies", "muninn,default,muninn", "--cache", "256k",
            "--file-factor", "2", "--threads", "2", "--seconds", "0.05");
        String text = run.out();
        assertEquals(0, run.status(), text + err);
        List<String> rows = text.lines().filter(line -> line.matches("[a-z-]+ +\\d.*")).map(line -> line.split(" +")[0]).toList();
        assertEquals(List.of(PolicyRegistry.DEFAULT_POLICY, "muninn"), rows, text);
        assertEquals(2, demo("--policies", ",", "--seconds", "0.1"));
        assertTrue(err.toString().contains("--policies names no policy"), err.toString());
    }

    @Test
    void badCountsAndSizesAreUsageErrors() {
        assertEquals(2, demo("--seconds", "0"));
        assertTrue(err.toString().contains("--seconds must be above 0 and at most 86400 (a day): 0.0"), err.toString());
        assertEquals(2, demo("--cache", "1x"));
        assertTrue(err.toString().contains("pagecache.memory=1x"), err.toString());
    }

    /** A --cache the page cache refuses was said as pagecache.memory's refusal alone, a flag the user never wrote. */
    @Test
    void aCacheSizeRefusedNamesTheCacheOption() {
        for (String size : new String[] {"0", "1x", "2t"}) {
            err.getBuffer().setLength(0);
            assertEquals(2, demo("--cache", size));
            assertTrue(err.toString().contains("bench demo: --cache " + size + ": pagecache.memory=" + size + ": "),
                err.toString());
        }
    }

    /**
     * A worker's failure without a message (a ClosedChannelException, a bare IOException) is named by its class: the
     * line took the message alone, and said 'a worker of muninn failed: null', exit 1 and no trace.
     */
    @Test
    void aWorkersFailureWithoutAMessageIsNamedByItsClass() {
        DemoCommand.Worker real = DemoCommand.worker;
        DemoCommand.worker = (demo, file, pages, deadline, stop, seed) -> {
            throw new java.nio.channels.ClosedChannelException();
        };
        try {
            BenchRun.Output run = BenchRun.run(err, "demo", "--policies", "muninn", "--cache", "256k", "--file-factor", "2",
                "--threads", "1", "--seconds", "60");
            assertEquals(1, run.status(), run.out() + err);
            assertEquals("bench demo: a worker of muninn failed: java.nio.channels.ClosedChannelException",
                err.toString().strip());
        } finally {
            DemoCommand.worker = real;
        }
    }

    /**
     * A worker that fails fails the run at once, in one line naming the policy and the failure: its IOException came out
     * of the pool inside an ExecutionException, which the launcher took for a bug and printed as a stack trace, and only
     * after the other workers had run to the deadline (a day at most).
     */
    @Test
    void aWorkerThatFailsStopsTheOthersAndIsSaidInOneLine() {
        DemoCommand.Worker real = DemoCommand.worker;
        AtomicBoolean otherStopped = new AtomicBoolean();
        AtomicBoolean otherReachedItsDeadline = new AtomicBoolean();
        DemoCommand.worker = (demo, file, pages, deadline, stop, seed) -> {
            if (seed == 1) {
                throw new IOException("injected: the disk went away");
            }
            DemoCommand.Counts counts = real.run(demo, file, pages, deadline, stop, seed);
            // Why the other worker ended, not how long it took: a loaded machine stretches any time bound
            otherStopped.set(stop.get());
            otherReachedItsDeadline.set(System.nanoTime() - deadline >= 0);
            return counts;
        };
        try {
            BenchRun.Output run = BenchRun.run(err, "demo", "--policies", "muninn", "--cache", "256k", "--file-factor", "2",
                "--threads", "2", "--seconds", "60");
            assertEquals(1, run.status(), run.out() + err);
            assertEquals("bench demo: a worker of muninn failed: injected: the disk went away", err.toString().strip());
            assertTrue(otherStopped.get() && !otherReachedItsDeadline.get(),
                "the other worker ran on to the deadline: it ended " + (otherStopped.get() ? "stopped" : "not stopped")
                    + (otherReachedItsDeadline.get() ? ", at" : ", before") + " its deadline");
        } finally {
            DemoCommand.worker = real;
        }
    }

    /** The file's size said in KiB where it is under a MiB: 64 pages of 8 KiB were "(0 MiB)". */
    @Test
    void theFilesSizeIsSaidInKibOrMib() {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        BenchRun.Output run;
        try {
            System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
            run = BenchRun.run(err, "demo", "--policies", "muninn", "--cache", "256k", "--file-factor", "2", "--threads", "1",
                "--seconds", "0.05");
        } finally {
            System.setErr(original);
        }
        assertEquals(0, run.status(), run.out() + err);
        String lines = said.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(lines.contains("demo: writing 64 pages (512 KiB) of "), lines);
        assertEquals("160.0 MiB", DemoCommand.size(160L << 20));
        assertEquals("1.5 MiB", DemoCommand.size(3L << 19));
    }

    /** Each count out of range names its flag and value, not one line for all four. */
    @Test
    void eachCountOutOfRangeNamesItsFlagAndValue() {
        String[][] cases = {
            {"--threads", "0", "--threads must be from 1 to 4096: 0"},
            {"--threads", "99999999", "--threads must be from 1 to 4096: 99999999"},
            {"--file-factor", "-1", "--file-factor must be at least 1: -1"},
            {"--seconds", "-1", "--seconds must be above 0 and at most 86400 (a day): -1.0"},
            {"--skew", "0", "--skew must be a finite number of at least 1 (1 = uniform): 0.0"},
            {"--skew", "NaN", "--skew must be a finite number of at least 1 (1 = uniform): NaN"}};
        for (String[] c : cases) {
            StringWriter one = new StringWriter();
            BenchRun.Output run = BenchRun.run(one, "demo", c[0], c[1]);
            assertEquals(2, run.status(), one.toString());
            assertTrue(one.toString().contains(c[2]), one.toString());
            assertEquals(1, one.toString().split("must be").length - 1, "only the flag at fault: " + one);
        }
    }

    /** A deadline past what nanoseconds hold ran no operation and reported zeros as a result, with status 0. */
    @Test
    void secondsTooLongForTheDeadlineAreRefused() {
        for (String seconds : new String[] {"Infinity", "1e10", "86401"}) {
            assertEquals(2, demo("--seconds", seconds, "--cache", "1m", "--file-factor", "2"), seconds);
            assertTrue(err.toString().contains("--seconds must be above 0 and at most 86400 (a day): "), err.toString());
        }
    }

    /**
     * The check after reopen read each page's id alone and said "every page holds its last write": a write lost (a dirty
     * page dropped, or written back stale) passed. Each write adds 1 to its page's version, so the versions add up to
     * the writes made; the writers of a page take turns, as the cache's shared write locks leave to the caller.
     */
    @Test
    void theCheckAfterReopenCountsEveryWriteMade(@TempDir Path dir) throws IOException {
        // Four pages, two frames, four threads: writers meet on a page, and without the stripes lost increments
        BenchRun.Output run = BenchRun.run(err, "demo", "--policies", "muninn,global-clock", "--cache", "16k",
            "--file-factor", "2", "--threads", "4", "--seconds", "0.3");
        assertEquals(0, run.status(), run.out() + err);
        Matcher verified = Pattern.compile("verified: every page holds its last write after close and reopen \\((\\d+)"
            + " writes\\)").matcher(run.out());
        assertTrue(verified.find(), run.out());
        assertTrue(Long.parseLong(verified.group(1)) > 0, run.out());

        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k"));
        Path file = dir.resolve("demo.db");
        long pages = 20;
        DemoCommand.write(config, file, pages);
        try (PageCache cache = PageCache.open(config); PagedFile mapped = cache.map(file, 8192, false);
             PageCursor w = mapped.io(3, PagedFile.PF_SHARED_WRITE_LOCK)) {
            w.next();
            w.putLong(8, 2); // two writes of page 3
        }
        DemoCommand.verify(config, file, pages, 2);
        IllegalStateException lost = assertThrows(IllegalStateException.class, () -> DemoCommand.verify(config, file, pages, 3));
        assertEquals("the pages hold 2 writes after reopen, but 3 were made: writes were lost", lost.getMessage());
    }

    /** Under de_DE the table printed "93,50%" where every other tool prints "93.50%": a script read nonsense. */
    @Test
    void numbersArePrintedTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        BenchRun.Output run;
        try {
            Locale.setDefault(Locale.GERMANY);
            run = BenchRun.run(err, "demo", "--policies", "muninn", "--cache", "256k", "--file-factor", "2",
                "--threads", "2", "--seconds", "0.05");
        } finally {
            Locale.setDefault(before);
        }
        assertEquals(0, run.status(), run.out() + err);
        assertTrue(Pattern.compile("muninn +\\d+ +\\d+\\.\\d\\d%").matcher(run.out()).find(), run.out());
    }
}
