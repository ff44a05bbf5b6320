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

    /**
     * docs/simulator.md and docs/ldbc.md each have a table of their command's options under "## Command line", one row
     * an option: every row names an option the command has, and every option the command has (but --help and
     * --version) has a row, so an option added, renamed or removed cannot leave the table that users read it from
     * behind. The rows are no ./bench lines, which {@link #everyDocumentedOptionExists} checks.
     */
    @Test
    void theCommandLineTablesListEveryOptionOfTheirCommand() throws IOException {
        Map<String, CommandLine> commands = Bench.commandLine().getSubcommands();
        Pattern title = Pattern.compile("\\A# [^\n]*\\(`\\./bench ([a-z-]+)`\\)");
        Pattern row = Pattern.compile("^\\| `(--[a-z][a-z-]*)[ `]", Pattern.MULTILINE);
        List<String> wrong = new ArrayList<>();
        int tables = 0;
        for (Path doc : documents()) {
            String text = Files.readString(doc).replace("\r\n", "\n");
            Matcher command = title.matcher(text);
            int from = text.indexOf("\n## Command line\n");
            if (!command.find() || from < 0) {
                continue;
            }
            tables++;
            int to = text.indexOf("\n## ", from + 1);
            String table = text.substring(from, to < 0 ? text.length() : to);
            CommandLine sub = commands.get(command.group(1));
            assertTrue(sub != null, doc.getFileName() + " is about ./bench " + command.group(1) + ", which the launcher lacks");
            TreeSet<String> rows = new TreeSet<>();
            Matcher option = row.matcher(table);
            while (option.find()) {
                rows.add(option.group(1));
                if (!sub.getCommandSpec().optionsMap().containsKey(option.group(1))) {
                    wrong.add(doc.getFileName() + ": a row for " + option.group(1) + ", which ./bench " + command.group(1) + " lacks");
                }
            }
            for (CommandLine.Model.OptionSpec spec : sub.getCommandSpec().options()) {
                if (!spec.usageHelp() && !spec.versionHelp() && !rows.contains(spec.longestName())) {
                    wrong.add(doc.getFileName() + ": no row for ./bench " + command.group(1) + " " + spec.longestName());
                }
            }
        }
        assertTrue(tables >= 2, "found " + tables + " command-line tables: are the documents' titles still '# ... (`./bench X`)'?");
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
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
