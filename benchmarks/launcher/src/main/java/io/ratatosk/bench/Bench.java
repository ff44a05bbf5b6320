package io.ratatosk.bench;

import io.ratatosk.bench.demo.DemoCommand;
import io.ratatosk.bench.ldbc.LdbcCommand;
import io.ratatosk.bench.nvm.NvmCommand;
import io.ratatosk.bench.jmh.JmhCommand;
import io.ratatosk.bench.jmh.JmhReportCommand;
import io.ratatosk.bench.sim.cli.SimCommand;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.TraceFormatException;
import io.ratatosk.pagecache.MachineMemoryExceededException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code ./bench} launcher: one subcommand per tool. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Ratatosk benchmarks, simulator and demos.",
    subcommands = {
        DemoCommand.class,
        SimCommand.class,
        LdbcCommand.class,
        NvmCommand.class,
        ThroughputCommand.class,
        JmhCommand.class,
        JmhReportCommand.class,
        CommandLine.HelpCommand.class,
    })
public final class Bench implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand");
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling: a user error prints one line, not a stack trace. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Bench());
        // one reading of decimal options for every command: picocli's took 3f as 3 and 0x1p-3 as an eighth
        cl.registerConverter(Double.class, new DecimalOption());
        cl.registerConverter(Double.TYPE, new DecimalOption());
        // every command's help offers -V, which printed nothing without a provider
        BenchVersion version = new BenchVersion();
        cl.getCommandSpec().versionProvider(version);
        cl.getSubcommands().values().forEach(command -> command.getCommandSpec().versionProvider(version));
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            String name = failed.getCommandSpec().qualifiedName();
            failed.getErr().println(name + ": " + e.getMessage());
            printCleanUpFailures(failed, e);
            failed.getErr().println("Try '" + name + " --help' for more information.");
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // A page memory the machine cannot give (--cache 200g) is the user's size, not a bug: its message names it.
            // So is one the page cache or the NVM tier refuses as more than the machine's memory (without an
            // OutOfMemoryError under it): ldbc --cache 900g ended in a stack trace.
            boolean noMemory = e instanceof MachineMemoryExceededException
                || e instanceof IllegalStateException && e.getCause() instanceof OutOfMemoryError;
            // An UncheckedIOException is an IOException a worker thread or a stream had to wrap: a full disk under
            // ldbc --record-trace, a store without a label's nodes; it came out as a stack trace.
            if (e instanceof TraceFormatException || e instanceof IOException || e instanceof UncheckedIOException
                || e instanceof IllegalArgumentException || noMemory) {
                commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + message(e));
                printCleanUpFailures(commandLine, e);
                return 1;
            }
            throw e;
        });
        return cl;
    }

    /**
     * The clean-ups that failed after {@code e} ended the run ({@link CleanUp}), each on a line of its own after the
     * run's failure: they were thrown instead of it, and the user saw a folder that would not go, not why the run failed.
     */
    private static void printCleanUpFailures(CommandLine commandLine, Exception e) {
        for (CleanUp.Failed failed : CleanUp.Failed.in(e)) {
            commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + message(failed));
        }
    }

    /**
     * What went wrong, in words: a {@link NoSuchFileException} or {@link AccessDeniedException} that a tool let through
     * has the bare path as its whole message ("bench ldbc: /data/static/place_0_0.csv"), saying nothing of why.
     */
    static String message(Exception e) {
        if (e instanceof CleanUp.Failed && e.getCause() instanceof Exception cause) {
            return "could not clean up after the run: " + message(cause); // a bare path said with why, as below
        }
        if (e instanceof UncheckedIOException u && u.getCause() != null
            && String.valueOf(u.getMessage()).equals(u.getCause().toString())) {
            return message(u.getCause()); // wrapped without words of its own: "java.io.IOException: ..." said nothing more
        }
        if (e instanceof FileSystemException f && f.getReason() == null && f.getFile() != null
            && String.valueOf(e.getMessage()).equals(f.getFile())) {
            String why = e instanceof NoSuchFileException ? "no such file or folder"
                : e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NotDirectoryException ? "not a folder"
                : e instanceof FileAlreadyExistsException ? "already there" : e.getClass().getSimpleName();
            return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + why;
        }
        return e.getMessage();
    }
}
