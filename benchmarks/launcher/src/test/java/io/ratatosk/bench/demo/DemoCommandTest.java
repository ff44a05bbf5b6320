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
        assertTrue(err.toString().contains("--seconds must be above 0 and at most 86400 (a day): 0.0"), err.toString());
        assertEquals(2, demo("--cache", "1x"));
        assertTrue(err.toString().contains("pagecache.memory=1x"), err.toString());
    }

    /** Each count out of range names its flag and value, not one line for all four. */
    @Test
    void eachCountOutOfRangeNamesItsFlagAndValue() {
        String[][] cases = {
            {"--threads", "0", "--threads must be from 1 to 4096: 0"},
            {"--threads", "99999999", "--threads must be from 1 to 4096: 99999999"},
            {"--file-factor", "-1", "--file-factor must be at least 1: -1"},
            {"--seconds", "-1", "--seconds must be above 0 and at most 86400 (a day): -1.0"},
            {"--skew", "0", "--skew must be a finite number of at least 1 (1 = uniform): 0.0"},
            {"--skew", "NaN", "--skew must be a finite number of at least 1 (1 = uniform): NaN"}};
        for (String[] c : cases) {
            StringWriter one = new StringWriter();
            BenchRun.Output run = BenchRun.run(one, "demo", c[0], c[1]);
            assertEquals(2, run.status(), one.toString());
            assertTrue(one.toString().contains(c[2]), one.toString());
            assertEquals(1, one.toString().split("must be").length - 1, "only the flag at fault: " + one);
        }
    }

    /** A deadline past what nanoseconds hold ran no operation and reported zeros as a result, with status 0. */
    @Test
    void secondsTooLongForTheDeadlineAreRefused() {
        for (String seconds : new String[] {"Infinity", "1e10", "86401"}) {
            assertEquals(2, demo("--seconds", seconds, "--cache", "1m", "--file-factor", "2"), seconds);
            assertTrue(err.toString().contains("--seconds must be above 0 and at most 86400 (a day): "), err.toString());
        }
    }
}
