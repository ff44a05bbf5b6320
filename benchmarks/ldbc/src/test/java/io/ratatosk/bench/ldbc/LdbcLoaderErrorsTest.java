package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.gen.LdbcGenerator;
import io.ratatosk.bench.ldbc.load.BoundedLineReader;
import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.load.LdbcLoader;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.run.SubstitutionParameters;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreFile;
import io.ratatosk.bench.ldbc.update.UpdateStreams;
import io.ratatosk.pagecache.PageCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input stops the load with an error naming the file and the line, and leaves no store that
 * looks complete: no store.meta (the marker a finished load writes last), no store files, and
 * {@link GraphStore#open} refuses the folder, even where a complete store lay before.
 */
class LdbcLoaderErrorsTest {
    @TempDir
    static Path shared;
    private static Path pristine;

    @TempDir
    Path dir;
    private Path data;
    private Path store;

    @BeforeAll
    static void generate() throws IOException {
        pristine = shared.resolve("tiny");
        new LdbcGenerator(0.002, 3, ProgressOutput.none()).write(pristine);
    }

    @BeforeEach
    void copy() throws IOException {
        data = dir.resolve("data");
        try (Stream<Path> walk = Files.walk(pristine)) {
            for (Path p : walk.toList()) {
                Path target = data.resolve(pristine.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        store = dir.resolve("store");
        // A complete store from good data lies there first: a failed load must not leave it looking valid.
        load();
        assertTrue(GraphStore.readMeta(store).isPresent());
    }

    private void load() throws IOException {
        new LdbcLoader(LdbcDataSource.directory(data), ProgressOutput.none()).load(store, 8L << 20);
    }

    private Path csv(String relative) {
        return data.resolve("vanilla").resolve(relative);
    }

    private static long lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).size();
    }

    private static void append(Path file, String line) throws IOException {
        Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Loads, expects a failure whose message starts with {@code file:line:} and holds {@code problem}. */
    private void assertFailsAt(Path file, long line, String problem) throws IOException {
        LdbcDataException e = assertThrows(LdbcDataException.class, this::load);
        assertTrue(e.getMessage().startsWith(file + ":" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertNothingLooksComplete();
    }

    /** The load counts its CSV in MiB (2^20 bytes) and said them MB, which the rest of the runner's output never says. */
    @Test
    void aLoadsProgressSaysItsUnitAsMib() throws IOException {
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        ProgressOutput progress = new ProgressOutput(new java.io.PrintStream(said, true, StandardCharsets.UTF_8), false, false);
        new LdbcLoader(LdbcDataSource.directory(data), progress).load(store, 8L << 20);
        String lines = said.toString(StandardCharsets.UTF_8);
        assertTrue(lines.matches("(?s).*ldbc: load " + java.util.regex.Pattern.quote(data.toString())
            + ": started \\([0-9.,]+ MiB\\).*"), lines);
    }

    /** A load that failed was said done: "load ...: done in 1.1 s", then the CSV's error. */
    @Test
    void aLoadThatFailedIsNotSaidDone() throws IOException {
        append(csv("dynamic/person_0_0.csv"), "garbage|line");
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        ProgressOutput progress = new ProgressOutput(new java.io.PrintStream(said, true, StandardCharsets.UTF_8), false, false);
        assertThrows(LdbcDataException.class,
            () -> new LdbcLoader(LdbcDataSource.directory(data), progress).load(store, 8L << 20));
        String lines = said.toString(StandardCharsets.UTF_8);
        assertFalse(lines.contains(": done in"), lines);
        assertTrue(lines.contains("ldbc: load " + data + ": stopped after "), lines);

        Files.writeString(csv("dynamic/person_0_0.csv"), Files.readString(pristine.resolve("vanilla/dynamic/person_0_0.csv")));
        said.reset();
        new LdbcLoader(LdbcDataSource.directory(data), progress).load(store, 8L << 20);
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("ldbc: load " + data + ": done in "), said.toString());
    }

    private void assertNothingLooksComplete() throws IOException {
        assertFalse(Files.exists(store.resolve(GraphStore.META_FILE)), "store.meta must not exist");
        for (StoreFile f : StoreFile.values()) {
            assertFalse(Files.exists(store.resolve(f.fileName())), f.fileName() + " was left behind");
        }
        try (PageCache cache = LdbcTestData.cache("1m")) {
            GraphStore.IncompleteStoreException e =
                assertThrows(GraphStore.IncompleteStoreException.class, () -> GraphStore.open(store, cache));
            assertTrue(e.getMessage().contains("no complete graph store in " + store), e.getMessage());
        }
    }

    /**
     * A byte that is no UTF-8 (a file saved as Latin-1: Jos\xe9) stops the load naming the file and line: the reader
     * put U+FFFD in its place without a word, and the store held a name that is in no file, which no query parameter
     * written right would find.
     */
    @Test
    void aByteThatIsNoUtf8StopsTheLoadNamingTheLine() throws IOException {
        Path person = csv("dynamic/person_0_0.csv");
        List<String> lines = Files.readAllLines(person, StandardCharsets.UTF_8);
        String[] row = lines.get(1).split("\\|", -1);
        row[0] = "987654321"; // an id of no other person
        row[1] = "Jos@"; // firstName, its last letter written in Latin-1 below
        byte[] latin1 = (String.join("|", row) + "\n").getBytes(StandardCharsets.US_ASCII);
        latin1[String.join("|", row).indexOf('@')] = (byte) 0xe9;
        Files.write(person, latin1, StandardOpenOption.APPEND);
        assertFailsAt(person, lines.size() + 1, "character " + (String.join("|", row).indexOf('@') + 1) + " is not UTF-8");

        // The parameters and the update streams alike: IC1 looked for a firstName no person has.
        Path parameters = data.resolve("substitution_parameters").resolve("interactive_1_param.txt");
        long parameterLines = lines(parameters);
        Files.write(parameters, new byte[] {'9', '3', '3', '|', 'J', 'o', 's', (byte) 0xe9, '\n'}, StandardOpenOption.APPEND);
        LdbcDataException badParameter = assertThrows(LdbcDataException.class,
            () -> SubstitutionParameters.load(LdbcDataSource.directory(data)));
        assertTrue(badParameter.getMessage().matches(".*interactive_1_param.txt:" + (parameterLines + 1)
            + ": character 8 is not UTF-8 .*"), badParameter.getMessage()); // 933|Jos and the byte
        Path stream;
        try (Stream<Path> files = Files.list(data.resolve("update_streams"))) {
            stream = files.filter(p -> p.toString().endsWith(".csv")).sorted().findFirst().orElseThrow();
        }
        long streamLines = lines(stream);
        List<String> streamRows = Files.readAllLines(stream, StandardCharsets.UTF_8);
        byte[] update = (streamRows.get(0) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] damaged = java.util.Arrays.copyOf(update, update.length + 1);
        damaged[update.length - 1] = (byte) 0xff; // a byte no UTF-8 holds, before the line break
        damaged[update.length] = '\n';
        Files.write(stream, damaged, StandardOpenOption.APPEND);
        LdbcDataException badUpdate = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(data)));
        assertTrue(badUpdate.getMessage().contains(":" + (streamLines + 1) + ": character " + update.length + " is not UTF-8"),
            badUpdate.getMessage());
    }

    /**
     * U+FFFD written as UTF-8 (EF BF BD, which text taken from the web holds where its source lost a character) is a
     * character like any other: a person named with it loads and reads back, a parameter and an update line holding it
     * are read. The lines were searched for U+FFFD, the character the reader put for a byte that is no UTF-8, and such
     * a valid file was refused as "character 4 is not UTF-8".
     */
    @Test
    void theReplacementCharacterWrittenAsUtf8IsLoadedAsAnyOther() throws IOException {
        Path person = csv("dynamic/person_0_0.csv");
        List<String> lines = Files.readAllLines(person, StandardCharsets.UTF_8);
        String[] row = lines.get(1).split("\\|", -1);
        row[0] = "987654321"; // an id of no other person
        row[1] = "Jos\uFFFD";
        append(person, String.join("|", row));
        Path parameters = data.resolve("substitution_parameters").resolve("interactive_1_param.txt");
        append(parameters, row[0] + "|" + row[1]);
        load();
        try (PageCache cache = LdbcTestData.cache("2m");
             GraphStore graph = GraphStore.open(store, cache);
             io.ratatosk.bench.ldbc.store.StoreReader reader = graph.newReader()) {
            List<List<Object>> is1 = new io.ratatosk.bench.ldbc.query.LdbcQueries(reader).is1(987654321L);
            assertEquals(1, is1.size());
            assertEquals("Jos\uFFFD", is1.get(0).get(0));
        }
        List<io.ratatosk.bench.ldbc.query.Query> ic1 = SubstitutionParameters.load(LdbcDataSource.directory(data))
            .of(QueryType.IC1);
        assertEquals("Jos\uFFFD", ic1.get(ic1.size() - 1).stringParam("firstName"));
    }

    /**
     * Files saved with a UTF-8 byte order mark were refused as "header is 'id|...' but the LDBC layout has 'id|...'",
     * the two alike to the eye (an update stream's first time "is not a number"): the mark is skipped.
     */
    @Test
    void aByteOrderMarkBeforeTheFirstLineIsSkipped() throws IOException {
        List<Path> marked = new java.util.ArrayList<>(List.of(csv("dynamic/person_0_0.csv")));
        try (Stream<Path> files = Stream.concat(Files.list(data.resolve("substitution_parameters")),
            Files.list(data.resolve("update_streams")))) {
            files.filter(p -> p.toString().endsWith(".txt") || p.toString().endsWith(".csv")).forEach(marked::add);
        }
        for (Path file : marked) {
            byte[] text = Files.readAllBytes(file);
            byte[] withMark = new byte[text.length + 3];
            withMark[0] = (byte) 0xEF;
            withMark[1] = (byte) 0xBB;
            withMark[2] = (byte) 0xBF;
            System.arraycopy(text, 0, withMark, 3, text.length);
            Files.write(file, withMark);
        }
        load();
        assertTrue(GraphStore.readMeta(store).isPresent());
        assertFalse(SubstitutionParameters.load(LdbcDataSource.directory(data)).of(QueryType.IC1).isEmpty());
        assertFalse(UpdateStreams.load(LdbcDataSource.directory(data)).isEmpty());
    }

    /**
     * Files whose lines end in a lone carriage return (as old Mac tools write them) read as the rows they hold, as
     * CRLF and LF files do: the rows were counted by their LF alone, so the id index was sized for none and the load
     * failed with "the id index is full at 511 keys" and a stack trace.
     */
    @Test
    void filesWithCarriageReturnLineEndsLoadEveryRow() throws IOException {
        long persons;
        try (PageCache cache = LdbcTestData.cache("1m"); GraphStore s = GraphStore.open(store, cache)) {
            persons = s.meta().range(io.ratatosk.bench.ldbc.store.Label.PERSON).count();
        }
        try (Stream<Path> files = Files.walk(data.resolve("vanilla"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".csv")).toList()) {
                Files.writeString(file, Files.readString(file, StandardCharsets.UTF_8).replace('\n', '\r'),
                    StandardCharsets.UTF_8);
            }
        }
        load();
        try (PageCache cache = LdbcTestData.cache("1m"); GraphStore s = GraphStore.open(store, cache)) {
            assertEquals(persons, s.meta().range(io.ratatosk.bench.ldbc.store.Label.PERSON).count());
        }
    }

    /**
     * A file the data set cannot be read from is named with why: a folder in a CSV's place failed with "Is a directory",
     * naming no file, and a link to nothing with its bare path as the whole message.
     */
    @Test
    void aFileThatCannotBeReadIsNamedWithWhy() throws IOException {
        Path persons = csv("dynamic/person_0_0.csv");
        Files.delete(persons);
        Files.createDirectory(persons);
        LdbcDataException e = assertThrows(LdbcDataException.class, this::load);
        assertEquals(persons + ": a folder, where the LDBC layout has a file", e.getMessage());
        assertNothingLooksComplete();

        Files.delete(persons);
        Path nowhere = dir.resolve("gone.csv");
        Files.createSymbolicLink(persons, nowhere);
        e = assertThrows(LdbcDataException.class, this::load);
        assertEquals(persons + ": a link to " + nowhere + ", which is not there", e.getMessage());

        Path stream = data.resolve("update_streams").resolve("updateStream_0_1_forum.csv");
        Files.createDirectory(stream);
        e = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(data)));
        assertEquals(stream + ": a folder, where the LDBC layout has a file", e.getMessage());
        Files.delete(stream);

        Path parameters = data.resolve("substitution_parameters").resolve(QueryType.IC1.parameterFile());
        Files.delete(parameters);
        Files.createSymbolicLink(parameters, nowhere);
        e = assertThrows(LdbcDataException.class, () -> SubstitutionParameters.load(LdbcDataSource.directory(data)));
        assertEquals(parameters + ": a link to " + nowhere + ", which is not there", e.getMessage());
    }

    /**
     * A line without a break (a binary or compressed file in an LDBC file's place, a damaged download) stops the read at
     * that line, naming the file, in a CSV, a parameter file and an update stream alike: each was read with readLine,
     * which gathered the whole line into one string (a large file's ran the heap out, naming nothing), and a line of
     * 2 MiB was then refused as a row of one column.
     */
    @Test
    void aLineLongerThanTheBoundIsRefusedNamingTheFileAndTheLine() throws IOException {
        String tooLong = "x".repeat(2 * BoundedLineReader.MAX_LINE_CHARS);
        String problem = String.format(java.util.Locale.ROOT, "a line of more than %,d characters",
            BoundedLineReader.MAX_LINE_CHARS);
        Path person = csv("dynamic/person_0_0.csv");
        long personLines = lines(person);
        append(person, tooLong);
        assertFailsAt(person, personLines + 1, problem);

        Path parameters = data.resolve("substitution_parameters").resolve(QueryType.IC1.parameterFile());
        long parameterLines = lines(parameters);
        append(parameters, tooLong);
        LdbcDataException e = assertThrows(LdbcDataException.class, () -> SubstitutionParameters.load(LdbcDataSource.directory(data)));
        assertTrue(e.getMessage().startsWith(parameters + ":" + (parameterLines + 1) + ": " + problem), e.getMessage());

        Path stream;
        try (Stream<Path> files = Files.list(data.resolve("update_streams"))) {
            stream = files.filter(p -> p.toString().endsWith(".csv")).sorted().findFirst().orElseThrow();
        }
        long streamLines = lines(stream);
        append(stream, tooLong);
        e = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(data)));
        assertTrue(e.getMessage().startsWith(stream + ":" + (streamLines + 1) + ": " + problem), e.getMessage());
    }

    /**
     * A long value the reader refuses is quoted cut, with its length: the messages quoted the whole header, number or
     * column, which a file that is no LDBC file (a line of JSON, say) made as long as its line, up to a mebibyte on the
     * terminal for one error.
     */
    @Test
    void aLongValueInAMessageIsCutNamingItsLength() throws IOException {
        String longValue = "x".repeat(200_000);
        String quoted = "'" + "x".repeat(100) + "...' (200,000 characters)";
        Path person = csv("dynamic/person_0_0.csv");
        List<String> lines = Files.readAllLines(person, StandardCharsets.UTF_8);
        String[] row = lines.get(1).split("\\|", -1);
        row[0] = longValue;
        append(person, String.join("|", row));
        assertFailsAt(person, lines.size() + 1, "column id: " + quoted + " is not a number");
        Files.writeString(person, longValue + "\n", StandardCharsets.UTF_8);
        assertFailsAt(person, 1, "header is " + quoted + " but the LDBC layout has");

        Path parameters = data.resolve("substitution_parameters").resolve(QueryType.IC1.parameterFile());
        List<String> parameterLines = Files.readAllLines(parameters, StandardCharsets.UTF_8);
        append(parameters, longValue + "|Jose");
        LdbcDataException e = assertThrows(LdbcDataException.class, () -> SubstitutionParameters.load(LdbcDataSource.directory(data)));
        assertEquals(parameters + ":" + (parameterLines.size() + 1) + ": personId: " + quoted + " is not a number", e.getMessage());
        Files.writeString(parameters, longValue + "\n", StandardCharsets.UTF_8);
        e = assertThrows(LdbcDataException.class, () -> SubstitutionParameters.load(LdbcDataSource.directory(data)));
        assertTrue(e.getMessage().startsWith(parameters + ":1: header " + quoted + " does not name IC1"), e.getMessage());

        Path stream;
        try (Stream<Path> files = Files.list(data.resolve("update_streams"))) {
            stream = files.filter(p -> p.toString().endsWith(".csv")).sorted().findFirst().orElseThrow();
        }
        long streamLines = lines(stream);
        append(stream, longValue + "|0|1");
        e = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(data)));
        assertEquals(stream + ":" + (streamLines + 1) + ": scheduledStartTime: " + quoted + " is not a number", e.getMessage());
    }

    @Test
    void aMissingFileIsNamed() throws IOException {
        Path missing = csv("dynamic/post_hasCreator_person_0_0.csv");
        Files.delete(missing);
        LdbcDataException e = assertThrows(LdbcDataException.class, this::load);
        assertTrue(e.getMessage().startsWith("missing LDBC file: " + missing), e.getMessage());
        assertNothingLooksComplete();
    }

    @Test
    void aRowWithTooFewColumnsIsRefusedWithItsLine() throws IOException {
        Path persons = csv("dynamic/person_0_0.csv");
        append(persons, "123|Ann|Smith");
        assertFailsAt(persons, lines(persons), "expected 10 columns (id|firstName|lastName|");
    }

    @Test
    void aRowWithTooManyColumnsIsRefusedWithItsLine() throws IOException {
        Path knows = csv("dynamic/person_knows_person_0_0.csv");
        append(knows, "10000|10037|1300000000000|extra");
        assertFailsAt(knows, lines(knows), "expected 3 columns");
    }

    @Test
    void aBadNumberIsRefusedWithItsColumnAndLine() throws IOException {
        Path comments = csv("dynamic/comment_0_0.csv");
        List<String> rows = new ArrayList<>(Files.readAllLines(comments, StandardCharsets.UTF_8));
        String[] fields = rows.get(2).split("\\|", -1);
        fields[1] = "yesterday";
        rows.set(2, String.join("|", fields));
        Files.write(comments, rows, StandardCharsets.UTF_8);
        assertFailsAt(comments, 3, "column creationDate: 'yesterday' is not a number");
    }

    @Test
    void aDanglingEdgeIsRefusedWithItsLine() throws IOException {
        Path creators = csv("dynamic/post_hasCreator_person_0_0.csv");
        String someone = Files.readAllLines(csv("dynamic/person_0_0.csv")).get(1).split("\\|")[0];
        append(creators, "999999999999|" + someone);
        assertFailsAt(creators, lines(creators), "dangling edge: Post.id 999999999999 is no post of the data set");
    }

    @Test
    void anEdgeToTheWrongKindOfNodeIsDangling() throws IOException {
        Path replies = csv("dynamic/comment_replyOf_post_0_0.csv");
        String comment = Files.readAllLines(csv("dynamic/comment_0_0.csv")).get(1).split("\\|")[0];
        String anotherComment = Files.readAllLines(csv("dynamic/comment_0_0.csv")).get(2).split("\\|")[0];
        append(replies, comment + "|" + anotherComment);
        assertFailsAt(replies, lines(replies), "dangling edge: Post.id " + anotherComment);
    }

    @Test
    void aDuplicateIdIsRefusedWithItsLine() throws IOException {
        Path persons = csv("dynamic/person_0_0.csv");
        append(persons, Files.readAllLines(persons).get(1));
        assertFailsAt(persons, lines(persons), "duplicate Person id");
    }

    /**
     * A friend listed twice is found twice by every query. A published data set may hold such rows (older generators
     * wrote a few friendships both ways), so they are loaded as given, with a warning, quiet or not, that names the
     * first repeat's line, the line it repeats and how many there are.
     */
    @Test
    void aRepeatedRelationshipRowLoadsWithAWarningNamingBothLines() throws IOException {
        Path members = csv("dynamic/forum_hasMember_person_0_0.csv");
        List<String> rows = Files.readAllLines(members, StandardCharsets.UTF_8);
        String[] second = rows.get(2).split("\\|");
        String[] third = rows.get(3).split("\\|");
        append(members, second[0] + "|" + second[1] + "|1300000000000"); // another join date: still the same membership
        long firstRepeat = lines(members);
        append(members, third[0] + "|" + third[1] + "|1300000000000");
        String warnings = loadWarnings();
        assertTrue(warnings.contains(members + ":" + firstRepeat + ": duplicate edge: Forum.id " + second[0] + "|Person.id "
            + second[1] + " repeats line 3; 2 rows of forum_hasMember_person repeat an earlier one, all loaded as given"),
            warnings);
    }

    /** Knows has no direction: b|a after a|b is the same friendship, listed twice by IC1, IS3 and the rest. */
    @Test
    void aFriendshipRepeatedTheOtherWayRoundLoadsWithAWarning() throws IOException {
        Path knows = csv("dynamic/person_knows_person_0_0.csv");
        String[] first = Files.readAllLines(knows, StandardCharsets.UTF_8).get(1).split("\\|");
        append(knows, first[1] + "|" + first[0] + "|" + first[2]);
        String warnings = loadWarnings();
        assertTrue(warnings.contains(knows + ":" + lines(knows) + ": duplicate edge: Person.id " + first[1] + "|Person.id "
            + first[0] + " repeats line 2 (" + first[0] + "|" + first[1] + "): knows has no direction; 1 row of"
            + " person_knows_person repeat"), warnings);
    }

    /** Loads {@link #data} quietly into {@link #store}, which must succeed; returns what it printed (its warnings). */
    private String loadWarnings() throws IOException {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        new LdbcLoader(LdbcDataSource.directory(data), new ProgressOutput(new java.io.PrintStream(err, true,
            StandardCharsets.UTF_8), true, false)).load(store, 8L << 20);
        assertTrue(Files.exists(store.resolve("store.meta")), "the load completed");
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aHeaderThatIsNotLdbcsIsRefused() throws IOException {
        Path forums = csv("dynamic/forum_0_0.csv");
        List<String> rows = new ArrayList<>(Files.readAllLines(forums, StandardCharsets.UTF_8));
        rows.set(0, "id|name|creationDate");
        Files.write(forums, rows, StandardCharsets.UTF_8);
        assertFailsAt(forums, 1, "header is 'id|name|creationDate' but the LDBC layout has 'id|title|creationDate'");
    }

    @Test
    void aGoodLoadAfterAFailedOneIsComplete() throws IOException {
        Path persons = csv("dynamic/person_0_0.csv");
        List<String> good = Files.readAllLines(persons, StandardCharsets.UTF_8);
        append(persons, "1|2");
        assertThrows(LdbcDataException.class, this::load);
        Files.write(persons, good, StandardCharsets.UTF_8);
        load();
        try (PageCache cache = LdbcTestData.cache("1m"); GraphStore s = GraphStore.open(store, cache)) {
            assertEquals(good.size() - 1, s.meta().range(io.ratatosk.bench.ldbc.store.Label.PERSON).count());
        }
        try (Stream<Path> files = Files.list(store)) {
            assertEquals(List.of("ldbc-id.index", "nodes.store", "properties.store", "relationships.store", "store.meta",
                "strings.store"), files.map(p -> p.getFileName().toString()).sorted(Comparator.naturalOrder()).toList());
        }
    }
}
