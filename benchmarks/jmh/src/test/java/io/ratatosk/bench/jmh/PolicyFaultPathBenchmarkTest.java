package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The trial's warm-up line said its read count in the default locale: "1.234.567 reads" under de_DE. */
class PolicyFaultPathBenchmarkTest {
    @Test
    void theWarmUpLineCountsTheSameInEveryLocale() throws Exception {
        PolicyFaultPathBenchmark bench = new PolicyFaultPathBenchmark();
        bench.policy = "clock";
        bench.frames = 64;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream original = System.out;
        Locale before = Locale.getDefault();
        // JmhSmokeTest, in this JVM, turns the warm-up (and its line) off for the runs after it
        String warmUp = System.setProperty(PolicyFaultPathBenchmark.WARM_UP_UNTIL_QUIET, "true");
        try {
            Locale.setDefault(Locale.GERMANY);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            bench.open(); // reads until the compiler is quiet: a second or more, well over a thousand reads
            bench.close();
        } finally {
            System.setOut(original);
            Locale.setDefault(before);
            if (warmUp == null) {
                System.clearProperty(PolicyFaultPathBenchmark.WARM_UP_UNTIL_QUIET);
            } else {
                System.setProperty(PolicyFaultPathBenchmark.WARM_UP_UNTIL_QUIET, warmUp);
            }
        }
        String line = out.toString(StandardCharsets.UTF_8);
        assertTrue(Pattern.compile("# clock: \\d{1,3}(,\\d{3})+ reads before JMH's warm-up").matcher(line).find(), line);
    }
}
