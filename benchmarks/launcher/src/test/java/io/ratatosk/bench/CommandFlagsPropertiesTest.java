package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The flags of demo, throughput and nvm with random values, each next to a flag refused whatever the others say (so
 * that nothing runs): the command refuses in one line that starts with its name, exit 2, never with a stack trace or
 * an exception's class name, whatever the random value is (a number past a long, a word, a blank, a sign, NaN).
 */
class CommandFlagsPropertiesTest {
    /** A command, its flags, and two flags it refuses whatever else is given: the second where the first is drawn. */
    private record Command(String name, List<String> flags, List<String> refused, List<String> refusedOtherwise) {
    }

    private static final List<Command> COMMANDS = List.of(
        new Command("demo", List.of("--cache", "--file-factor", "--threads", "--seconds", "--skew", "--policies"),
            List.of("--file-factor", "0"), List.of("--threads", "0")),
        new Command("throughput", List.of("--policies", "--set", "--threads", "--frames", "--seconds", "--warmup", "--runs"),
            List.of("--runs", "0"), List.of("--frames", "1")),
        new Command("nvm", List.of("--pages", "--page-size", "--dram", "--nvm", "--profile", "--devices", "--file-latency-us",
            "--ops", "--warmup", "--mix-ops", "--threads", "--policy", "--seed", "--io"),
            List.of("--ops", "0"), List.of("--pages", "1")));

    @Property(tries = 60)
    void aFlagOfAnyValueBesideARefusedOneIsRefusedInOneLine(@ForAll("commandAndValue") List<String> drawn) {
        Command command = COMMANDS.stream().filter(c -> c.name().equals(drawn.get(0))).findFirst().orElseThrow();
        String flag = drawn.get(1);
        List<String> args = new ArrayList<>(List.of(flag, drawn.get(2)));
        args.addAll(command.refused().get(0).equals(flag) ? command.refusedOtherwise() : command.refused());
        StringWriter err = new StringWriter();
        BenchRun.Output run = BenchRun.run(err, command.name(), args.toArray(String[]::new));
        String said = err.toString();
        assertEquals(2, run.status(), args + ": " + said + run.out());
        assertTrue(said.startsWith("bench " + command.name() + ": "), args + ": " + said);
        assertTrue(!said.contains("\tat ") && !said.matches("(?s).*[a-z]+\\.[A-Za-z.]*(Exception|Error)\\b.*"),
            args + ": " + said);
        assertEquals("", run.out(), args + ": nothing ran");
    }

    @Provide
    Arbitrary<List<String>> commandAndValue() {
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
            Arbitraries.doubles().map(String::valueOf), Arbitraries.strings().ofMaxLength(10),
            Arbitraries.of("", " ", "0", "-1", "1", "NaN", "Infinity", "-Infinity", "1e400", "99999999999999999999",
                "2147483648", "9223372036854775807", "0.0", "1,2", ",", "1,,2", "nope", "muninn", "default", "16m", "1t",
                "quiet", "pagecache.memory=1g", "x=y", "=", "nvme", "direct", "buffered", "0x10", "\u0000", "\u00e9"));
        return Arbitraries.of(COMMANDS).flatMap(command -> Combinators.combine(Arbitraries.of(command.flags()), value)
            .as((flag, v) -> List.of(command.name(), flag, v)));
    }
}
