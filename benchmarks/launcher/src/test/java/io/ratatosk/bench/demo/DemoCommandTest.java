package io.ratatosk.bench.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.BenchRun;
import io.ratatosk.policies.PolicyRegistry;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

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
        assertTrue(err.toString().contains("--seconds > 0"), err.toString());
        assertEquals(2, demo("--cache", "1x"));
        assertTrue(err.toString().contains("pagecache.memory=1x"), err.toString());
    }
}
