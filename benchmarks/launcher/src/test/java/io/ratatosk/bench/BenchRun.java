package io.ratatosk.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Runs a {@code ./bench} command in this JVM with {@code System.out} captured: the commands that print their
 * tables there (demo, throughput) are checked by what they printed. Usage errors go to the given writer.
 */
public final class BenchRun {
    /** The exit status and what went to standard output. */
    public record Output(int status, String out) {
    }

    private BenchRun() {
    }

    /** {@code ./bench command args...}. */
    public static Output run(StringWriter err, String command, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cl = Bench.commandLine();
            cl.setOut(new PrintWriter(new StringWriter(), true));
            cl.setErr(new PrintWriter(err, true));
            status = cl.execute(all);
        } finally {
            System.setOut(original);
        }
        return new Output(status, out.toString(StandardCharsets.UTF_8));
    }
}
