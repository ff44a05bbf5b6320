package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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

    /** The line the launcher prints when a command throws {@code e}. */
    private static String run(IOException e) {
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new Failing(e));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, cl.execute("failing"));
        return err.toString().strip();
    }

    @Command(name = "failing")
    static final class Failing implements Callable<Integer> {
        private final IOException e;

        Failing(IOException e) {
            this.e = e;
        }

        @Override
        public Integer call() throws IOException {
            throw e;
        }
    }
}
