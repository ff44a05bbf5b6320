package io.ratatosk.pagecache;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.Flags;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps docs/configuration.md and the parser from drifting apart. When this fails after a change in
 * {@link Flags}, regenerate the table: {@code java -cp cache-core/target/classes io.ratatosk.core.config.Flags}.
 */
class ConfigurationDocTest {
    /** Surefire runs in the module directory, cache-core. */
    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final String BEGIN = "<!-- BEGIN GENERATED FLAG TABLE: edit Flags.java, not this table -->\n";
    private static final String END = "<!-- END GENERATED FLAG TABLE -->";
    private static final Pattern ROW = Pattern.compile("^\\| `(pagecache\\.[^`]+)` \\|", Pattern.MULTILINE);

    private static String generatedSection() throws IOException {
        assertTrue(Files.isRegularFile(DOC), "missing " + DOC.toAbsolutePath());
        String doc = Files.readString(DOC).replace("\r\n", "\n");
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " must hold the generated flag table between its BEGIN and END markers");
        return doc.substring(begin + BEGIN.length(), end);
    }

    @Test
    void theDocListsExactlyTheFlagsOfTheParserInOrder() throws IOException {
        List<String> documented = new ArrayList<>();
        Matcher row = ROW.matcher(generatedSection());
        while (row.find()) {
            documented.add(row.group(1));
        }
        assertEquals(Flags.ALL.stream().map(Flag::name).collect(Collectors.toList()), documented);
    }

    @Test
    void theDocTableIsTheGeneratedTableVerbatim() throws IOException {
        assertEquals(Flags.markdownTable(), generatedSection(),
                "docs/configuration.md is out of date: regenerate with java -cp cache-core/target/classes io.ratatosk.core.config.Flags");
    }
}
