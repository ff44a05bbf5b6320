package io.ratatosk.bench.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.Bench;
import io.ratatosk.policies.PolicyRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench nvm} end to end, on a file small enough to run in a second. */
class NvmCommandTest {
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

    @Test
    void bothExperimentsPrintTheirTablesAndLeaveNoFileBehind() throws Exception {
        int exit = bench("nvm", "--pages", "400", "--page-size", "4096", "--profile", "nvme-fast", "--file-latency-us", "20",
            "--warmup", "300", "--ops", "600", "--mix-ops", "3000", "--dir", dir.toString(), "--policy", "default");
        assertEquals(0, exit, err.toString());
        String text = out.toString();
        assertTrue(text.contains("frames 40 (10%), NVM 160 slots (40%); policy " + PolicyRegistry.DEFAULT_POLICY + ";"), text);
        assertTrue(text.contains("file only") && text.contains("nvm nvme-fast") && text.contains("nvm vs file only:"), text);
        assertTrue(text.contains("modeled time of the reads a fault waits for"), text);
        assertTrue(text.contains("writes-on-a-hot-tenth") && text.contains("uniform-writes"), text);
        assertTrue(text.contains("write-aware vs plain: NVM writes"), text);
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the benchmark file is deleted");
        }
    }

    /**
     * A thread that fails fails the run in one line naming the run, once the others have stopped: its ExecutionException
     * went to the launcher as a bug, a stack trace, and the cache was closed under the other threads, which ran on
     * through their share of the operations.
     */
    @Test
    void aThreadThatFailsStopsTheOthersAndIsSaidInOneLine() {
        NvmRun.Work real = NvmRun.work;
        java.util.concurrent.atomic.AtomicInteger otherRan = new java.util.concurrent.atomic.AtomicInteger(-1);
        NvmRun.work = (file, pages, mix, ops, seed, stop) -> {
            if (seed % 1_000_003 == 1) {
                throw new java.io.IOException("injected: the disk went away");
            }
            long done = real.run(file, pages, mix, ops, seed, stop);
            otherRan.set(stop.get() ? 1 : 0);
            return done;
        };
        try {
            assertEquals(1, bench("nvm", "--experiment", "reads", "--pages", "400", "--page-size", "4096", "--file-latency-us",
                "0", "--warmup", "100000000", "--ops", "1", "--threads", "2", "--dir", dir.toString()), err.toString());
            assertEquals("bench nvm: a thread of file only failed: injected: the disk went away", err.toString().strip());
            assertEquals(1, otherRan.get(), "the other thread ended stopped, not at the end of its share");
        } finally {
            NvmRun.work = real;
        }
    }

    /**
     * A thread's failure without a message (a ClosedChannelException, an IOException of its own) is named by its class:
     * the line took the message alone, and said 'a thread of file only failed: null', exit 1 and no trace.
     */
    @Test
    void aThreadsFailureWithoutAMessageIsNamedByItsClass() {
        NvmRun.Work real = NvmRun.work;
        NvmRun.work = (file, pages, mix, ops, seed, stop) -> {
            throw new java.nio.channels.ClosedChannelException();
        };
        try {
            assertEquals(1, bench("nvm", "--experiment", "reads", "--pages", "400", "--page-size", "4096", "--file-latency-us",
                "0", "--warmup", "100", "--ops", "1", "--threads", "1", "--dir", dir.toString()), err.toString());
            assertEquals("bench nvm: a thread of file only failed: java.nio.channels.ClosedChannelException",
                err.toString().strip());
        } finally {
            NvmRun.work = real;
        }
    }

    @Test
    void anUnknownExperimentIsAUsageError() {
        assertEquals(2, bench("nvm", "--experiment", "latency"));
        assertTrue(err.toString().contains("--experiment must be reads, write-aware or all"), err.toString());
    }

    /**
     * A value the page cache refuses was said as the refusal of a page cache flag alone ('pagecache.nvm.devices=0: must
     * be ...'), a flag the user never wrote, where --pages' refusal names --pages (and demo's --cache, --cache).
     */
    @Test
    void aValueThePageCacheRefusesNamesTheOptionGiven() {
        String[][] refused = {{"--devices", "0", "pagecache.nvm.devices=0"}, {"--io", "mmap", "pagecache.io=mmap"},
            {"--profile", "tape", "pagecache.nvm.profile=tape"}, {"--page-size", "3000", "pagecache.page_size=3000"},
            {"--policy", "global-clock:max_usage=99", "pagecache.clock.max_usage=99"}};
        for (String[] each : refused) {
            err.getBuffer().setLength(0);
            assertEquals(2, bench("nvm", each[0], each[1], "--dir", dir.toString()), err.toString());
            assertTrue(err.toString().contains("bench nvm: " + each[0] + " " + each[1] + ": " + each[2] + ": "),
                err.toString());
        }
        assertEquals("", out.toString(), "nothing ran");
    }

    /** Every number out of range is named at once, before the file is written; nothing runs. */
    @Test
    void numbersOutOfRangeAreUsageErrorsNamingEachFlag() throws Exception {
        assertEquals(2, bench("nvm", "--ops", "0", "--warmup", "-1", "--mix-ops", "0", "--file-latency-us", "-1",
            "--threads", "0", "--dram", "0", "--dir", dir.toString()));
        String message = err.toString();
        for (String expected : new String[] {"--threads must be from 1 to 4096: 0", "--dram must be a share above 0",
            "--ops must be at least 1: 0", "--warmup must be 0 or more: -1", "--mix-ops must be at least 1: 0",
            "--file-latency-us must be from 0 to 1000000 (a second): -1"}) {
            assertTrue(message.contains(expected), message);
        }
        assertEquals("", out.toString(), "nothing ran");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "no file was written");
        }
    }

    /**
     * --file-latency-us 9223372036854775807 overflowed the modeled time, printed as -0.0 ms with status 0; --threads
     * 99999999 started a pool of that many threads; --dram 5 ran a cache five times the file, no NVM tier to measure.
     */
    @Test
    void numbersTooLargeAreUsageErrorsNamingTheLimit() throws Exception {
        assertEquals(2, bench("nvm", "--file-latency-us", String.valueOf(Long.MAX_VALUE), "--threads", "99999999",
            "--dram", "5", "--nvm", "1.5", "--dir", dir.toString()));
        String message = err.toString();
        for (String expected : new String[] {"--file-latency-us must be from 0 to 1000000 (a second): " + Long.MAX_VALUE,
            "--threads must be from 1 to 4096: 99999999", "--dram must be a share above 0 and at most 1 (0.10 for 10%): 5.0",
            "--nvm must be a share above 0 and at most 1 (0.40 for 40%): 1.5"}) {
            assertTrue(message.contains(expected), message);
        }
        assertEquals("", out.toString(), "nothing ran");
    }

    /**
     * A --pages whose frames or NVM come to more than the page cache takes was refused naming pagecache.memory and
     * pagecache.nvm.capacity, flags the user never wrote; far above, frames x page size overflowed to a negative size (now the largest).
     */
    @Test
    void pagesTooManyForTheCacheAreRefusedNamingThePages() {
        assertEquals(2, bench("nvm", "--pages", "3000000000", "--dir", dir.toString()));
        assertTrue(err.toString().contains("pagecache.memory=2457600000000: must be a size in [2 pages of"
            + " pagecache.page_size, 1t]"), err.toString());
        assertTrue(err.toString().contains("(pagecache.memory is --pages 3,000,000,000 x --dram 0.1, pagecache.nvm.capacity"
            + " --pages x --nvm 0.4, in pages of --page-size 8192)"), err.toString());
        assertEquals(2, bench("nvm", "--pages", String.valueOf(Long.MAX_VALUE), "--dir", dir.toString()));
        assertTrue(err.toString().contains("pagecache.memory=" + Long.MAX_VALUE + ": must be a size"), err.toString());
        assertEquals("", out.toString(), "nothing ran");
    }

    /** A policy, profile, device count or IO mode the page cache would refuse is refused before the first run. */
    @Test
    void flagsThePageCacheRefusesAreUsageErrorsBeforeAnyRun() {
        String[][] cases = {
            {"--policy", "nope", "unknown policy 'nope'"},
            {"--policy", "global-clock:max_usage=99", "pagecache.clock.max_usage=99"},
            {"--profile", "tape", "pagecache.nvm.profile=tape"},
            {"--devices", "0", "pagecache.nvm.devices=0"},
            {"--io", "mmap", "pagecache.io=mmap"},
            {"--page-size", "100", "pagecache.page_size=100"}};
        for (String[] c : cases) {
            assertEquals(2, bench("nvm", "--pages", "100", c[0], c[1], "--dir", dir.toString()), c[0]);
            assertTrue(err.toString().contains(c[2]), err.toString());
        }
        assertEquals("", out.toString(), "nothing ran");
    }

    /** An empty --dir (a script's unset variable) was the current folder: the run made its file there, exit 0. */
    @Test
    void anEmptyDirIsAUsageError() {
        assertEquals(2, bench("nvm", "--dir", "", "--experiment", "reads", "--pages", "100", "--ops", "10", "--warmup", "0"));
        assertTrue(err.toString().contains("--dir '' names no folder"), err.toString());
    }

    @Test
    void aDirThatCannotBeCreatedIsAUsageError() throws Exception {
        Path file = Files.write(dir.resolve("plain"), new byte[] {1});
        assertEquals(2, bench("nvm", "--pages", "100", "--dir", file.resolve("sub").toString()));
        assertTrue(err.toString().contains("--dir: cannot create the folder " + file.resolve("sub")), err.toString());
    }

    /** A file larger than the disk's free space is refused before its first byte, not written until the disk is full. */
    @Test
    void aFileThatCannotFitOnTheDiskIsRefusedBeforeItIsWritten() throws Exception {
        assertEquals(1, bench("nvm", "--pages", String.valueOf(Long.MAX_VALUE / 4), "--dram", "0.0000000000001",
            "--nvm", "0.0000000000001", "--dir", dir.toString()));
        assertTrue(err.toString().contains("--pages " + Long.MAX_VALUE / 4 + " x --page-size 8192 needs about"),
            err.toString());
        assertTrue(err.toString().contains("MiB free"), err.toString());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "nothing was written");
        }
    }

    /** --dir's nvm-bench.db was the user's: it was overwritten, then deleted. The run's file has a name of its own. */
    @Test
    void aFileAlreadyInDirIsNeitherOverwrittenNorDeleted() throws Exception {
        Path kept = Files.writeString(dir.resolve("nvm-bench.db"), "precious");
        assertEquals(0, bench("nvm", "--dir", dir.toString(), "--experiment", "reads", "--pages", "100", "--ops", "10",
            "--warmup", "0", "--file-latency-us", "0"), err.toString());
        assertEquals("precious", Files.readString(kept));
        try (var files = Files.list(dir)) {
            assertEquals(java.util.List.of(kept), files.toList(), "the run's own file is deleted, the user's kept");
        }
    }

    /** With no file latency and no NVM read nothing is modeled on the fault path: no ratio, not "(NaNx)". */
    @Test
    void noModeledTimePrintsNoRatio() {
        assertEquals(0, bench("nvm", "--dir", dir.toString(), "--experiment", "reads", "--pages", "100", "--dram", "1",
            "--ops", "10", "--warmup", "0", "--file-latency-us", "0"), err.toString());
        assertFalse(out.toString().contains("NaN"), out.toString());
        assertTrue(out.toString().contains("(no ratio: file only modeled no time)"), out.toString());
    }

    /** Under de_DE the tables printed "93,50" and "1,23x" where every other tool prints "93.50": a script read nonsense. */
    @Test
    void numbersArePrintedTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals(0, bench("nvm", "--pages", "400", "--page-size", "4096", "--file-latency-us", "20", "--warmup",
                "100", "--ops", "300", "--mix-ops", "1000", "--dir", dir.toString()), err.toString());
        } finally {
            Locale.setDefault(before);
        }
        String text = out.toString();
        assertTrue(Pattern.compile("nvm vs file only: \\d+\\.\\d\\dx the ops/s").matcher(text).find(), text);
        assertTrue(Pattern.compile("write-aware vs plain: NVM writes [+-]\\d+\\.\\d%").matcher(text).find(), text);
        assertFalse(Pattern.compile("\\d,\\d").matcher(text).find(), "a decimal comma: " + text);
    }
}
