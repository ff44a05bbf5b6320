package io.ratatosk.nvm;

import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.pagecache.PageCacheConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md quotes the parser's error messages, one a line, in the fenced blocks of its "Errors"
 * section. Each quoted line must be what the parser says for some configuration: this test makes each of them,
 * checks that its message is a quoted line, and that there are as many quoted lines as cases, so a reworded message
 * or a stale quote fails here rather than misleading a reader. In storage-nvm, whose class path holds the NVM flags
 * two of the lines are about.
 */
class ConfigurationErrorsDocTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    private static Map<String, Supplier<PageCacheConfig>> cases() {
        Map<String, Supplier<PageCacheConfig>> cases = new LinkedHashMap<>();
        cases.put("max_usage out of range", () -> PageCacheConfig.parse(Map.of("pagecache.clock.max_usage", "9")));
        cases.put("misspelt name", () -> PageCacheConfig.parse(Map.of("pagecache.memroy", "2g")));
        cases.put("unknown policy", () -> PageCacheConfig.parse(Map.of("pagecache.policy", "lru")));
        cases.put("one frame", () -> PageCacheConfig.parse(Map.of("pagecache.memory", "8k")));
        cases.put("fault_usage above max_usage", () -> PageCacheConfig.parse(
            Map.of("pagecache.clock.max_usage", "4", "pagecache.clock.fault_usage", "5")));
        cases.put("argument not a flag", () -> PageCacheConfig.fromArgs("-Xmx2g"));
        cases.put("cold_min above cold_max", () -> PageCacheConfig.parse(
            Map.of("pagecache.clockpro.cold_min", "0.5", "pagecache.clockpro.cold_max", "0.1")));
        cases.put("cold_max below default cold_min", () -> PageCacheConfig.parse(
            Map.of("pagecache.memory", "800k", "pagecache.clockpro.cold_max", "1")));
        cases.put("default ghosts too many", () -> PageCacheConfig.parse(
            Map.of("pagecache.memory", "1t", "pagecache.page_size", "1024", "pagecache.policy", "clock-pro")));
        cases.put("history capacity", () -> PageCacheConfig.parse(
            Map.of("pagecache.memory", "1m", "pagecache.history.capacity", "513")));
        cases.put("nvm capacity below a page", () -> PageCacheConfig.parse(Map.of("pagecache.nvm.capacity", "4k")));
        cases.put("nvm devices above slots", () -> PageCacheConfig.parse(
            Map.of("pagecache.nvm.capacity", "32k", "pagecache.nvm.devices", "5")));
        return cases;
    }

    /** The lines of the fenced blocks of the "Errors" section, up to "## Flags": the quoted messages. */
    private static List<String> quotedLines() throws IOException {
        assertTrue(Files.isRegularFile(DOC), "missing " + DOC.toAbsolutePath());
        String doc = Files.readString(DOC).replace("\r\n", "\n");
        int from = doc.indexOf("\n## Errors\n");
        int to = doc.indexOf("\n## Flags\n");
        assertTrue(from >= 0 && to > from, "no '## Errors' section before '## Flags' in " + DOC);
        String section = doc.substring(from, to);
        List<String> lines = new ArrayList<>();
        boolean inBlock = false;
        for (String line : section.split("\n", -1)) {
            if (line.startsWith("```")) {
                inBlock = !inBlock;
            } else if (inBlock && !line.isBlank()) {
                lines.add(line);
            }
        }
        assertTrue(!inBlock, "an unclosed fenced block in the Errors section of " + DOC);
        return lines;
    }

    @Test
    void everyQuotedErrorIsWhatTheParserSays() throws IOException {
        List<String> quoted = quotedLines();
        assertEquals(cases().size(), quoted.size(), "quoted lines: " + quoted);
        for (Map.Entry<String, Supplier<PageCacheConfig>> c : cases().entrySet()) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, c.getValue()::get, c.getKey());
            assertTrue(quoted.contains(e.getMessage()),
                c.getKey() + ": the parser says\n" + e.getMessage() + "\nwhich docs/configuration.md does not quote");
        }
    }
}
