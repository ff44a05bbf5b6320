package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
}
