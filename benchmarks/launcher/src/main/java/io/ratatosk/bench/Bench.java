package io.ratatosk.bench;

import io.ratatosk.bench.demo.DemoCommand;
import io.ratatosk.bench.ldbc.LdbcCommand;
import io.ratatosk.bench.nvm.NvmCommand;
import io.ratatosk.bench.jmh.JmhCommand;
import io.ratatosk.bench.jmh.JmhReportCommand;
import io.ratatosk.bench.sim.cli.SimCommand;
import io.ratatosk.bench.sim.TraceFormatException;
import java.io.IOException;
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
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            String name = failed.getCommandSpec().qualifiedName();
            failed.getErr().println(name + ": " + e.getMessage());
            failed.getErr().println("Try '" + name + " --help' for more information.");
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // A page memory the machine cannot give (--cache 200g) is the user's size, not a bug: its message names it.
            boolean noMemory = e instanceof IllegalStateException && e.getCause() instanceof OutOfMemoryError;
            if (e instanceof TraceFormatException || e instanceof IOException || e instanceof IllegalArgumentException
                || noMemory) {
                commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cl;
    }
}
