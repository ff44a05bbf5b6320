package io.ratatosk.bench.sim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.BenchRun;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * {@code ./bench sim} on a small trace, with random values for its flags (sizes, policies with overrides, formats,
 * timeline, threads): it runs (exit 0) or refuses, in one line starting with the command's name, never with a stack
 * trace or an exception's class name.
 */
class SimFlagsPropertiesTest {
    private Path dir;
    private Path trace;

    @BeforeProperty
    void writeTrace() throws IOException {
        dir = Files.createTempDirectory("sim-flags");
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            keys.append(i * 7 % 61).append('\n');
        }
        trace = Files.createDirectories(dir.resolve("lirs")).resolve("small.trace");
        Files.writeString(trace, keys, StandardCharsets.US_ASCII);
    }

    @AfterProperty
    void deleteTrace() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 25)
    void anyFlagValueRunsOrIsRefusedInOneLine(@ForAll("flags") List<String> flags) {
        List<String> args = new ArrayList<>(List.of("--quiet", "--policies", "lru,clock"));
        args.addAll(flags);
        args.add(trace.toString());
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, "sim", args.toArray(String[]::new));
        String said = err.toString();
        assertTrue(run.status() == 0 || run.status() == 1 || run.status() == 2, run.status() + " " + said);
        assertTrue(!said.contains("\tat ") && !said.matches("(?s).*[a-z]+\\.[A-Za-z.]*(Exception|Error)\\b.*"),
            args + ": " + said);
        if (run.status() != 0) {
            assertTrue(said.startsWith("bench sim: "), args + ": " + said);
        }
    }

    @Provide
    Arbitrary<List<String>> flags() {
        Arbitrary<String> number = Arbitraries.oneOf(Arbitraries.integers().map(String::valueOf),
            Arbitraries.of("0", "-1", "1", "/0", "/1", "/-3", "/", "99999999999", "2147483647", "1e3", "", ",", " ", "5,5",
                "/10,/10", "1.5", "NaN"));
        Arbitrary<String> policy = Arbitraries.oneOf(Arbitraries.of("lru", "clock", "muninn", "opt", "nope", "", ",",
            "global-clock:max_usage=4", "global-clock:max_usage=99", "global-clock:max_usage", "global-clock:=", "clock:x=1",
            "muninn:clock.max_usage=-1", "default", "all", "lru,lru", "caffeine", ":"),
            Arbitraries.strings().ofMaxLength(12));
        Arbitrary<List<String>> one = Arbitraries.oneOf(
            number.map(n -> List.of("--sizes", n)),
            policy.map(p -> List.of("--policies", p)),
            Arbitraries.of("lirs", "LIRS", "arc", "nope", "", "cache2k", "pagetrace").map(f -> List.of("--format", f)),
            number.map(n -> List.of("--timeline", n)),
            number.map(n -> List.of("--threads", n)));
        return one.list().ofMinSize(1).ofMaxSize(3).map(lists -> lists.stream().flatMap(List::stream).toList());
    }
}
