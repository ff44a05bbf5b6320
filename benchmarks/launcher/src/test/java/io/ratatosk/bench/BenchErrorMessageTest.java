package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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

    /** The line the launcher prints when a command throws {@code e}. */
    private static String run(Exception e) {
        CommandLine cl = Bench.commandLine();
        cl.addSubcommand("failing", new Failing(e));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, cl.execute("failing"));
        return err.toString().strip();
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
