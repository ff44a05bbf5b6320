package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's --help renders as written: picocli formats descriptions with String.format, so a bare
 * "%" in one (a share of the store, "90% of") fails the format, and picocli then prints the raw text with a
 * warning on stderr each time anyone asks for help.
 */
class HelpTextTest {
    @Test
    void everyCommandsHelpFormatsWithoutWarnings() {
        CommandLine bench = Bench.commandLine();
        assertHelpIsClean("bench", bench);
        for (Map.Entry<String, CommandLine> command : bench.getSubcommands().entrySet()) {
            assertHelpIsClean(command.getKey(), command.getValue());
        }
    }

    /** Every command's help offers -V (--version): it printed nothing, exit 0. */
    @Test
    void everyCommandsVersionSaysTheVersionAndTheJava() {
        CommandLine bench = Bench.commandLine();
        assertVersionIsSaid("bench", bench);
        for (Map.Entry<String, CommandLine> command : bench.getSubcommands().entrySet()) {
            if (command.getValue().getCommandSpec().optionsMap().containsKey("-V")) {
                assertVersionIsSaid(command.getKey(), command.getValue());
            }
        }
    }

    private static void assertVersionIsSaid(String name, CommandLine command) {
        StringWriter out = new StringWriter();
        command.setOut(new PrintWriter(out, true));
        assertEquals(0, command.execute("-V"), name);
        assertTrue(out.toString().startsWith("Ratatosk bench " + BenchVersion.version() + System.lineSeparator()),
            name + " -V: " + out);
        assertTrue(out.toString().contains("Java " + System.getProperty("java.version")), name + " -V: " + out);
    }

    private static void assertHelpIsClean(String name, CommandLine command) {
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String usage;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            usage = command.getUsageMessage();
        } finally {
            System.setErr(original);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8), "picocli's complaint about " + name + "'s help");
        assertFalse(usage.contains("%n"), name + "'s help shows an unformatted %n:\n" + usage);
    }
}
