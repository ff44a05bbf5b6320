package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ThroughputCommandTest {
    @Test
    void measuresEachPolicyAtEachThreadCountWithItsFlags() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            status = Bench.commandLine().execute("throughput", "--policies", "deferred-lru:pull_threshold=0.5",
                "--threads", "1", "--frames", "64", "--seconds", "0.05");
        } finally {
            System.setOut(original);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertTrue(text.lines().anyMatch(line -> line.startsWith("deferred-lru:pull_threshold=0.5") && line.contains(" 1 ")), text);
    }

    /** Bad counts, and every bad policy in the list, are named together before any run prints a row. */
    @Test
    void badCountsAndPoliciesAreUsageErrorsBeforeAnyRun() {
        StringWriter err = new StringWriter();
        assertEquals(2, throughput(err, "--threads", "1,0", "--frames", "1", "--seconds", "0", "--runs", "0"));
        for (String expected : new String[] {"--threads must all be at least 1: [1, 0]", "--frames must be at least 2: 1",
            "--seconds must be above 0: 0.0", "--runs must be at least 1: 0"}) {
            assertTrue(err.toString().contains(expected), err.toString());
        }
        err = new StringWriter();
        assertEquals(2, throughput(err, "--policies", "muninn,nope,global-clock:max_usage,global-clock:max_usage=99",
            "--threads", "1", "--frames", "64", "--seconds", "0.05"));
        for (String expected : new String[] {"--policies nope: pagecache.policy=nope",
            "--policies global-clock:max_usage: 'max_usage' is not flag=value",
            "--policies global-clock:max_usage=99: pagecache.clock.max_usage=99"}) {
            assertTrue(err.toString().contains(expected), err.toString());
        }
        assertTrue(!err.toString().contains("--policies muninn:"), "muninn is fine: " + err);
    }

    private static int throughput(StringWriter err, String... args) {
        CommandLine cl = Bench.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "throughput";
        System.arraycopy(args, 0, all, 1, args.length);
        return cl.execute(all);
    }
}
