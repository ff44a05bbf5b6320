package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.pagecache.internal.PageMemory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A file error a tool lets through is said with why: NIO's NoSuchFileException and AccessDeniedException have the
 * bare path as their whole message, so "bench ldbc: /data/static/place_0_0.csv" was all a user read.
 */
class BenchErrorMessageTest {
    @Test
    void aFileErrorWithTheBarePathSaysWhy() {
        assertEquals("bench failing: /data/static/place_0_0.csv: permission denied",
            run(new AccessDeniedException("/data/static/place_0_0.csv")));
        assertEquals("bench failing: /data/update_streams: no such file or folder",
            run(new NoSuchFileException("/data/update_streams")));
    }

    @Test
    void aMessageThatSaysWhyIsKept() {
        assertEquals("bench failing: /data/x.csv: Is a directory",
            run(new java.nio.file.FileSystemException("/data/x.csv", null, "Is a directory")));
        assertEquals("bench failing: x.csv:3: bad row", run(new IOException("x.csv:3: bad row")));
    }

    /**
     * An IOException a worker thread had to wrap (ldbc --record-trace on a full disk, a store without a label's nodes)
     * came out of the launcher as a stack trace; it is said as the IOException is.
     */
    @Test
    void anUncheckedIOExceptionIsSaidAsItsIOException() {
        assertEquals("bench failing: writing the page trace failed: No space left on device",
            run(new UncheckedIOException("writing the page trace failed: No space left on device",
                new IOException("No space left on device"))));
        assertEquals("bench failing: the store has no FORUM node",
            run(new UncheckedIOException(new IOException("the store has no FORUM node"))));
        assertEquals("bench failing: /data/static: no such file or folder",
            run(new UncheckedIOException(new NoSuchFileException("/data/static"))));
    }

    /**
     * A page memory the page cache refuses as more than the machine has (ldbc --cache 900g) came out as a stack trace:
     * it is the user's size, said in one line as a page memory that cannot be allocated is.
     */
    @Test
    void aPageMemoryLargerThanTheMachineIsSaidInOneLine() {
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new AllocatingTooMuch());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, cl.execute("failing"), err.toString());
        assertTrue(err.toString().startsWith("bench failing: cannot allocate " + ((long) Integer.MAX_VALUE << 20)
            + " bytes of page memory for pagecache.memory=2048t"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }

    /**
     * The NVM tier's refusal of a capacity larger than the machine (d1f4e7c) is the user's size too: the launcher knew
     * the page memory's refusal by the class that threw it, so the tier's ended in a stack trace.
     */
    @Test
    void anNvmCapacityLargerThanTheMachineIsSaidInOneLine() {
        java.util.OptionalLong machine = io.ratatosk.pagecache.internal.MachineMemory.total();
        org.junit.jupiter.api.Assumptions.assumeTrue(machine.isPresent() && machine.getAsLong() < (1L << 40),
            "a machine that says its memory, and has less than 1 TiB");
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new NvmTooLarge());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, cl.execute("failing"), err.toString());
        assertTrue(err.toString().startsWith("bench failing: cannot allocate ") && err.toString().contains(
            " bytes of emulated NVM for pagecache.nvm.capacity=" + (1L << 40) + ": more than the "), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }

    /** A command that opens an emulated NVM device of 1 TiB. */
    @Command(name = "failing")
    static final class NvmTooLarge implements Callable<Integer> {
        @Override
        public Integer call() {
            new io.ratatosk.nvm.NvmDevice(io.ratatosk.nvm.NvmDeviceConfig.builder(8192).capacityBytes(1L << 40)
                .injectLatency(false).build()).close();
            return 0;
        }
    }

    /**
     * A clean-up that fails (3c98d189) is said after the run's own failure, each on a line of its own, once: the tests
     * that make it fail through the real commands need chattr +a (root) and are skipped elsewhere, so here the clean-up's
     * steps throw as a folder that would not go does.
     */
    @Test
    void aCleanUpThatFailsIsSaidAfterTheRunsFailureEachOnce() {
        String newFolder = "bench failing: could not clean up after the run: /out/new: Operation not permitted";
        String otherFolder = "bench failing: could not clean up after the run: /out/other: permission denied";
        assertEquals(String.join("\n", "bench failing: x.csv:3: bad row", newFolder, otherFolder),
            runCleaningUp(spec -> new IOException("x.csv:3: bad row"), 1));
        assertEquals(String.join("\n", "bench failing: --json r.json: not a folder", newFolder, otherFolder,
            "Try 'bench failing --help' for more information."),
            runCleaningUp(spec -> new CommandLine.ParameterException(spec.commandLine(), "--json r.json: not a folder"), 2));
        assertEquals(String.join("\n", newFolder, otherFolder), runCleaningUp(spec -> null, 1)); // the run succeeded
    }

    /** What the launcher prints for a command that throws its {@code failure} (none where null), then fails to clean up twice. */
    private static String runCleaningUp(Function<CommandSpec, Exception> failure, int exitCode) {
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new FailingToCleanUp(failure));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(exitCode, cl.execute("failing"), err.toString());
        return err.toString().strip().replace(System.lineSeparator(), "\n");
    }

    @Command(name = "failing")
    static final class FailingToCleanUp implements Callable<Integer> {
        private final Function<CommandSpec, Exception> failure;

        @Spec
        CommandSpec spec;

        FailingToCleanUp(Function<CommandSpec, Exception> failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            try (CleanUp folders = CleanUp.of(() -> {
                throw new FileSystemException("/out/new", null, "Operation not permitted");
            }, () -> {
                throw new AccessDeniedException("/out/other");
            })) {
                Exception e = failure.apply(spec);
                if (e != null) {
                    throw e;
                }
                return 0;
            }
        }
    }

    /** The line the launcher prints when a command throws {@code e}. */
    private static String run(Exception e) {
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new Failing(e));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, cl.execute("failing"));
        return err.toString().strip();
    }

    /** A command that asks for 2048 TiB of page memory. */
    @Command(name = "failing")
    static final class AllocatingTooMuch implements Callable<Integer> {
        @Override
        public Integer call() {
            new PageMemory(Integer.MAX_VALUE, 1 << 20, "pagecache.memory=2048t", false).free();
            return 0;
        }
    }

    @Command(name = "failing")
    static final class Failing implements Callable<Integer> {
        private final Exception e;

        Failing(Exception e) {
            this.e = e;
        }

        @Override
        public Integer call() throws Exception {
            throw e;
        }
    }
}
