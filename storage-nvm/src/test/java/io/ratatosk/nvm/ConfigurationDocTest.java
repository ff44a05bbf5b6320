package io.ratatosk.nvm;

import io.ratatosk.core.config.Flag;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.policies.PolicyRegistry;
import org.junit.jupiter.api.BeforeAll;
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
 * Keeps docs/configuration.md and the parser from drifting apart: its flag table and its policy table
 * are generated from the flag declarations and the policy registry. It runs here, in storage-nvm, the
 * one module whose class path holds every flag the parser knows (the page cache's, the policies', the
 * NVM tier's). After a change, regenerate both tables in place:
 * {@code mvn -B -q -pl storage-nvm -am test -Dtest=ConfigurationDocTest -Dsurefire.failIfNoSpecifiedTests=false -Dratatosk.writeDoc=true}.
 */
class ConfigurationDocTest {
    /** Surefire runs in the module directory. */
    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final String FLAGS_BEGIN = "<!-- BEGIN GENERATED FLAG TABLE: edit the flag declarations, not this table -->\n";
    private static final String FLAGS_END = "<!-- END GENERATED FLAG TABLE -->";
    private static final String POLICIES_BEGIN = "<!-- BEGIN GENERATED POLICY TABLE: edit the policy registry, not this table -->\n";
    private static final String POLICIES_END = "<!-- END GENERATED POLICY TABLE -->";
    private static final Pattern ROW = Pattern.compile("^\\| `(pagecache\\.[^`]+)` \\|", Pattern.MULTILINE);

    @BeforeAll
    static void regenerateWhenAsked() throws IOException {
        if (Boolean.getBoolean("ratatosk.writeDoc")) {
            String doc = Files.readString(DOC).replace("\r\n", "\n");
            doc = replaced(doc, FLAGS_BEGIN, FLAGS_END, PageCacheFlags.ALL.markdownTable());
            doc = replaced(doc, POLICIES_BEGIN, POLICIES_END, PolicyRegistry.markdownTable());
            Files.writeString(DOC, doc);
        }
    }

    private static String replaced(String doc, String begin, String end, String table) {
        int from = doc.indexOf(begin);
        int to = doc.indexOf(end);
        assertTrue(from >= 0 && to > from, DOC + " must hold the markers " + begin.strip() + " ... " + end);
        return doc.substring(0, from + begin.length()) + table + doc.substring(to);
    }

    private static String section(String begin, String end) throws IOException {
        assertTrue(Files.isRegularFile(DOC), "missing " + DOC.toAbsolutePath());
        String doc = Files.readString(DOC).replace("\r\n", "\n");
        int from = doc.indexOf(begin);
        int to = doc.indexOf(end);
        assertTrue(from >= 0 && to > from, DOC + " must hold a generated table between " + begin.strip() + " and " + end);
        return doc.substring(from + begin.length(), to);
    }

    @Test
    void theDocListsExactlyTheFlagsOfTheParserInOrder() throws IOException {
        List<String> documented = new ArrayList<>();
        Matcher row = ROW.matcher(section(FLAGS_BEGIN, FLAGS_END));
        while (row.find()) {
            documented.add(row.group(1));
        }
        assertEquals(PageCacheFlags.ALL.all().stream().map(Flag::name).collect(Collectors.toList()), documented);
    }

    @Test
    void theDocFlagTableIsTheGeneratedTableVerbatim() throws IOException {
        assertEquals(PageCacheFlags.ALL.markdownTable(), section(FLAGS_BEGIN, FLAGS_END),
                "docs/configuration.md is out of date: regenerate it (see this class)");
    }

    @Test
    void theDocPolicyTableIsTheRegistrysVerbatim() throws IOException {
        assertEquals(PolicyRegistry.markdownTable(), section(POLICIES_BEGIN, POLICIES_END),
                "docs/configuration.md is out of date: regenerate it (see this class)");
    }
}
