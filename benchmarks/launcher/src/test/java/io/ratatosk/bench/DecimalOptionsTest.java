package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * A decimal option (seconds, skew, shares, warm-up) takes a decimal number as written in a sentence: picocli and
 * Double.parseDouble also read Java's literal suffixes and hex floats, so demo --seconds 3f ran three seconds and
 * nvm --dram 0x1p-3 an eighth, a typo run without a word.
 */
class DecimalOptionsTest {
    @Test
    void aDecimalOptionRefusesJavasLiteralSuffixesAndHexFloats() {
        String[][] cases = {
            {"demo", "--seconds", "--threads"}, {"demo", "--skew", "--threads"},
            {"throughput", "--seconds", "--runs"}, {"throughput", "--warmup", "--runs"},
            {"nvm", "--dram", "--ops"}, {"nvm", "--nvm", "--ops"}};
        for (String[] c : cases) {
            for (String value : new String[] {"3f", "3d", "0x1p-3", "3F"}) {
                StringWriter err = new StringWriter();
                BenchRun.Output run = BenchRun.run(err, c[0], c[1], value, c[2], "0"); // refused besides: nothing runs
                assertEquals(2, run.status(), err.toString());
                assertTrue(err.toString().contains(c[1]) && err.toString().contains("'" + value + "'")
                    && err.toString().contains("is not a decimal number"), c[0] + " " + c[1] + " " + value + ": " + err);
            }
            for (String value : new String[] {"0.5", "1e-1", ".5", "5."}) { // still decimal numbers
                StringWriter err = new StringWriter();
                BenchRun.run(err, c[0], c[1], value, c[2], "0");
                assertTrue(!err.toString().contains("is not a decimal number"), c[0] + " " + c[1] + " " + value + ": " + err);
            }
        }
    }
}
