package io.ratatosk.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README and docs/*.md show ./bench commands to copy: every subcommand the launcher has is named in the README's
 * table of tools, and every {@code --option} written after {@code ./bench <command>} is an option of that command,
 * so a renamed or removed option cannot leave a documented command that fails with "Unknown option".
 */
class DocumentedCommandsTest {
    private static final Path ROOT = Path.of("..", "..");
    /** A command and what follows it up to the end of the code: a backtick, a table cell, a comment, a chain. */
    private static final Pattern COMMAND =
        Pattern.compile("\\./bench (jmh-report|jmh|sim|ldbc|nvm|throughput|demo)\\b([^`|#&;)]*)");
    private static final Pattern OPTION = Pattern.compile("(?<=\\s)--[a-z][a-z-]*");

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (Path doc : docs) {
            assertTrue(Files.isRegularFile(doc), "missing " + doc.toAbsolutePath());
        }
        return docs;
    }

    @Test
    void everySubcommandIsInTheReadmesTable() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String table = readme.substring(readme.indexOf("## Tools"), readme.indexOf("## Modules"));
        for (String name : Bench.commandLine().getSubcommands().keySet()) {
            if (!name.equals("help")) {
                assertTrue(Pattern.compile("`\\./bench " + Pattern.quote(name) + "[ `]").matcher(table).find(),
                    "README.md's table of tools does not name ./bench " + name);
            }
        }
    }

    @Test
    void everyDocumentedOptionExists() throws IOException {
        Map<String, CommandLine> commands = Bench.commandLine().getSubcommands();
        TreeSet<String> unknown = new TreeSet<>();
        int checked = 0;
        for (Path doc : documents()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                StringBuilder line = new StringBuilder(lines.get(i));
                while (line.toString().endsWith("\\") && i + 1 < lines.size()) { // a shell line continued
                    line.setLength(line.length() - 1);
                    line.append(' ').append(lines.get(++i));
                }
                Matcher command = COMMAND.matcher(line);
                while (command.find()) {
                    CommandLine sub = commands.get(command.group(1));
                    Matcher option = OPTION.matcher(" " + command.group(2));
                    while (option.find()) {
                        checked++;
                        if (!sub.getCommandSpec().optionsMap().containsKey(option.group())) {
                            unknown.add(doc.getFileName() + ":" + (i + 1) + ": ./bench " + command.group(1) + " " + option.group());
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "found only " + checked + " documented options: is the pattern still right?");
        assertTrue(unknown.isEmpty(), "documented options the commands do not have:\n" + String.join("\n", unknown));
    }
}
