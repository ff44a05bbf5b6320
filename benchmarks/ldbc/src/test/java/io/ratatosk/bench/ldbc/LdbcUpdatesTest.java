package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.run.Budget;
import io.ratatosk.bench.ldbc.run.CacheSpec;
import io.ratatosk.bench.ldbc.run.LdbcRun;
import io.ratatosk.bench.ldbc.run.ResultDump;
import io.ratatosk.bench.ldbc.run.RunResult;
import io.ratatosk.bench.ldbc.run.SubstitutionParameters;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.ldbc.store.StoreUpdater;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.ldbc.update.UpdateApplier;
import io.ratatosk.bench.ldbc.update.UpdatePrecheck;
import io.ratatosk.bench.ldbc.update.UpdateStreams;
import io.ratatosk.bench.ldbc.update.UpdateType;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.pagecache.PageCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Updates IU1-IU8 from the sample's update streams, interleaved with the reads: every read of the dump
 * agrees with the independent reference given exactly the updates dumped before it; the updated store
 * keeps every update across close and reopen; bad update streams are refused with file and line, the
 * store left as it was.
 */
class LdbcUpdatesTest {
    @TempDir
    Path dir;

    @Test
    void theSampleStreamIsMergedInExecutionOrder() throws IOException {
        List<Update> updates = UpdateStreams.load(LdbcDataSource.sample());
        assertEquals(6920, updates.size());
        Map<UpdateType, Long> byType = updates.stream().collect(Collectors.groupingBy(Update::type,
            Collectors.counting()));
        assertEquals(Map.of(UpdateType.IU1, 28L, UpdateType.IU2, 818L, UpdateType.IU3, 656L, UpdateType.IU4, 155L,
            UpdateType.IU5, 2507L, UpdateType.IU6, 1271L, UpdateType.IU7, 1296L, UpdateType.IU8, 189L), byType);
        for (int i = 1; i < updates.size(); i++) {
            Update a = updates.get(i - 1);
            Update b = updates.get(i);
            assertTrue(a.scheduledStartTime() <= b.scheduledStartTime(), b.toString());
            if (a.scheduledStartTime() == b.scheduledStartTime() && a.file().equals(b.file())) {
                assertTrue(a.line() < b.line(), "file order on equal times: " + b);
            }
            if (a.scheduledStartTime() == b.scheduledStartTime() && !a.file().equals(b.file())) {
                assertTrue(a.file().endsWith("_person.csv"), "person file first on equal times: " + b);
            }
        }
        Update iu7 = updates.stream().filter(u -> u.type() == UpdateType.IU7).findFirst().orElseThrow();
        assertEquals(List.of("commentId", "creationDate", "locationIP", "browserUsed", "content", "length",
            "authorPersonId", "countryId", "replyToPostId", "replyToCommentId", "tagIds"), List.copyOf(iu7.params().keySet()));
        assertTrue(iu7.id("replyToPostId") == -1 ^ iu7.id("replyToCommentId") == -1, iu7.toString());
    }

    @Test
    void aRunWithInterleavedUpdatesAgreesWithTheReferenceAndKeepsEveryUpdateAcrossReopen() throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        StoreMeta loaded = GraphStore.readMeta(storeDir).orElseThrow();
        List<Update> updates = UpdateStreams.load(LdbcDataSource.sample());
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            1, Budget.operations(2000), Budget.operations(48_000), 42, false, Map.of(), Map.of(), updates);
        Path dumpFile = dir.resolve("dump.jsonl");
        RunResult result;
        try (ResultDump dump = new ResultDump(dumpFile)) {
            result = new LdbcRun(settings, ProgressOutput.none()).execute(PolicyCatalog.standard().parse("muninn"),
                CacheSpec.parse("20%"), GraphStore.sizeOnDisk(storeDir), dump, null);
        }
        assertEquals(6920, result.updates(), "the whole stream is applied");
        assertTrue(result.wholeRun().evictionWrites() + result.wholeRun().flushedPages() > 0, result.wholeRun().toString());

        ReferenceGraph reference = ReferenceGraph.load(LdbcTestData.sampleRoot());
        DumpReplay.Counts counts = DumpReplay.replay(dumpFile, reference);
        assertEquals(6920, counts.updateTotal());
        assertEquals(8, counts.updates().size(), counts.updates().toString());
        assertEquals(EnumSet.allOf(QueryType.class), counts.reads().keySet());
        for (QueryType t : QueryType.values()) {
            if (t != QueryType.IC3) {
                assertTrue(counts.reads().get(t)[1] > 0, t + " never had rows");
            }
        }
        assertEquals(loaded, GraphStore.readMeta(storeDir).orElseThrow(), "the loaded store itself is untouched");

        // Reopened on another cache, the updated copy answers as the reference with every update applied.
        Path updated = LdbcRun.updatedStoreDir(storeDir);
        StoreMeta meta = GraphStore.readMeta(updated).orElseThrow();
        assertEquals(loaded.nodes() + 28 + 155 + 1271 + 1296, meta.nodes());
        try (PageCache cache = LdbcTestData.cache("2m");
             GraphStore store = GraphStore.open(updated, cache);
             StoreReader reader = store.newReader()) {
            LdbcQueries queries = new LdbcQueries(reader);
            for (long p : reference.personIds()) {
                for (Query q : List.of(Query.of(QueryType.IS1, p), Query.of(QueryType.IS2, p), Query.of(QueryType.IS3, p),
                    Query.of(QueryType.IC7, p), Query.of(QueryType.IC5, p, 0L), Query.of(QueryType.IC8, p),
                    Query.of(QueryType.IC10, p, 11L))) {
                    assertEquals(reference.run(q), queries.run(q), q::toString);
                }
            }
            for (long m : reference.messageIds()) {
                for (Query q : List.of(Query.of(QueryType.IS4, m), Query.of(QueryType.IS5, m), Query.of(QueryType.IS6, m),
                    Query.of(QueryType.IS7, m))) {
                    assertEquals(reference.run(q), queries.run(q), q::toString);
                }
            }
        }
    }

    /**
     * An update stream that adds more nodes than half those loaded applies whole: the id index was sized for the loaded
     * nodes alone (twice their number, inserts refused past 75% of its slots), and the run failed in its middle with
     * "the id index ... holds N keys ...: no room for more", though the precheck had passed and no load could make room.
     * A store loaded before its streams grew, whose index has no room for them, is refused before any run.
     */
    @Test
    void anUpdateStreamAddingMoreNodesThanHalfThoseLoadedAppliesWhole() throws IOException {
        Path data = dir.resolve("data");
        new io.ratatosk.bench.ldbc.gen.LdbcGenerator(0.002, 3, ProgressOutput.none()).write(data);
        Path dynamic = data.resolve("vanilla").resolve("dynamic");
        long loadedRows = 0;
        try (java.util.stream.Stream<Path> files = Files.list(dynamic)) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("(person|forum|post|comment)_\\d+_\\d+\\.csv"))
                .toList()) {
                loadedRows += Files.readAllLines(f).size() - 1;
            }
        }
        try (java.util.stream.Stream<Path> files = Files.list(data.resolve("vanilla").resolve("static"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("(place|organisation|tag|tagclass)_\\d+_\\d+\\.csv"))
                .toList()) {
                loadedRows += Files.readAllLines(f).size() - 1;
            }
        }
        String moderator = Files.readAllLines(dynamic.resolve("person_0_0.csv")).get(1).split("\\|")[0];
        Path forumStream;
        try (java.util.stream.Stream<Path> files = Files.list(data.resolve("update_streams"))) {
            forumStream = files.filter(f -> f.getFileName().toString().endsWith("_forum.csv")).sorted().findFirst()
                .orElseThrow();
        }
        // Twice the loaded nodes in new forums (IU4), after every update of the stream: more than any index had room for.
        long added = 2 * loadedRows;
        StringBuilder lines = new StringBuilder();
        for (long i = 0; i < added; i++) {
            long time = 1_900_000_000_000L + i;
            lines.append(time).append('|').append(time).append("|4|").append(8_000_000_000_000L + i).append("|Forum ")
                .append(i).append('|').append(time).append('|').append(moderator).append("|\n");
        }
        Path storeDir = dir.resolve("store");
        io.ratatosk.bench.ldbc.load.LdbcLoader loader =
            new io.ratatosk.bench.ldbc.load.LdbcLoader(LdbcDataSource.directory(data), ProgressOutput.none());
        loader.load(storeDir, 8L << 20); // before the streams grew, as a store an earlier invocation left
        Files.writeString(forumStream, lines, java.nio.file.StandardOpenOption.APPEND);
        // That store's index has no room for them: refused before any run, not in the middle of one.
        List<Update> grown = UpdateStreams.load(LdbcDataSource.directory(data));
        try (PageCache cache = LdbcTestData.cache("4m");
             GraphStore store = GraphStore.open(storeDir, cache);
             StoreReader reader = store.newReader()) {
            LdbcDataException e = assertThrows(LdbcDataException.class, () -> UpdatePrecheck.check(reader, grown));
            assertTrue(e.getMessage().contains("--reload loads it again with room for them"), e.getMessage());
        }
        loader.load(storeDir, 8L << 20);
        List<Update> updates = UpdateStreams.load(LdbcDataSource.directory(data));
        StoreMeta loaded = GraphStore.readMeta(storeDir).orElseThrow();
        long inserts = updates.stream().filter(u -> EnumSet.of(UpdateType.IU1, UpdateType.IU4, UpdateType.IU6,
            UpdateType.IU7).contains(u.type())).count();
        try (PageCache cache = LdbcTestData.cache("4m");
             GraphStore store = GraphStore.open(storeDir, cache)) {
            try (StoreReader reader = store.newReader()) {
                UpdatePrecheck.check(reader, updates);
            }
            try (StoreUpdater updater = store.newUpdater()) {
                UpdateApplier applier = new UpdateApplier(updater);
                for (Update u : updates) {
                    applier.apply(u);
                }
            }
            assertEquals(loaded.nodes() + inserts, store.meta().nodes());
            try (StoreReader reader = store.newReader()) {
                int last = reader.nodeById(io.ratatosk.bench.ldbc.store.Label.FORUM, 8_000_000_000_000L + added - 1);
                assertEquals(8_000_000_000_000L + added - 1, reader.ldbcId(last));
            }
        }
    }

    /** With two threads the dump's order is still the order of effect: the replay agrees line by line. */
    @Test
    void twoThreadsDumpReadsAndUpdatesInTheOrderTheyTookEffect() throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        List<Update> updates = UpdateStreams.load(LdbcDataSource.sample());
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            2, Budget.operations(1000), Budget.operations(15_000), 7, false, Map.of(), Map.of(), updates);
        Path dumpFile = dir.resolve("dump.jsonl");
        RunResult result;
        try (ResultDump dump = new ResultDump(dumpFile)) {
            result = new LdbcRun(settings, ProgressOutput.none()).execute(PolicyCatalog.standard().parse("clock"),
                CacheSpec.parse("10%"), GraphStore.sizeOnDisk(storeDir), dump, null);
        }
        DumpReplay.Counts counts = DumpReplay.replay(dumpFile, ReferenceGraph.load(LdbcTestData.sampleRoot()));
        assertEquals(result.updates(), counts.updateTotal());
        assertTrue(counts.updateTotal() > 1000, counts.updates().toString());
        assertEquals(16_000, counts.reads().values().stream().mapToInt(c -> c[0]).sum());
    }

    @Test
    void aMalformedUpdateLineIsRefusedWithItsFileAndLine() throws IOException {
        Path streams = dir.resolve("data/update_streams");
        Files.createDirectories(streams);
        Files.writeString(streams.resolve("updateStream_0_0_person.csv"), "");
        Files.writeString(streams.resolve("updateStream_0_0_forum.csv"),
            "1290687902110|1269267731928|3|2199023255589|343597393168|1290687902110\n"
                + "1290689142333|1277047948150|5|68719477243|4398046511147|1290689142333\n"
                + "1290689142334|1277047948150|5|68719477243|soon|1290689142334\n");
        LdbcDataException e = assertThrows(LdbcDataException.class,
            () -> UpdateStreams.load(LdbcDataSource.directory(dir.resolve("data"))));
        assertTrue(e.getMessage().endsWith("updateStream_0_0_forum.csv:3: personId: 'soon' is not a number"),
            e.getMessage());
        Files.writeString(streams.resolve("updateStream_0_0_forum.csv"), "1290687902110|1269267731928|9|1|2|3\n");
        e = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(dir.resolve("data"))));
        assertTrue(e.getMessage().endsWith("updateStream_0_0_forum.csv:1: type 9 is not an update type (1-8 for IU1-IU8)"),
            e.getMessage());
        Files.writeString(streams.resolve("updateStream_0_0_forum.csv"), "1290687902110|1269267731928|8|1|2\n");
        e = assertThrows(LdbcDataException.class, () -> UpdateStreams.load(LdbcDataSource.directory(dir.resolve("data"))));
        assertTrue(e.getMessage().contains("updateStream_0_0_forum.csv:1: expected 6 columns for IU8"), e.getMessage());
    }

    /**
     * Before the first run, every update's ids against the loaded store and the ids the stream's earlier updates
     * add: the sample's whole stream passes (it refers to persons and messages it adds itself), and a bad update
     * at its very end is refused with the applier's message, file and line.
     */
    @Test
    void thePrecheckRefusesABadUpdateAtTheEndOfTheStreamBeforeAnyRun() throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        List<Update> sample = UpdateStreams.load(LdbcDataSource.sample());
        try (PageCache cache = LdbcTestData.cache("8m"); GraphStore store = GraphStore.open(storeDir, cache);
             StoreReader reader = store.newReader()) {
            UpdatePrecheck.check(reader, sample);
            Update addedPerson = sample.stream().filter(u -> u.type() == UpdateType.IU1).findFirst().orElseThrow();
            String file = "updates.csv";
            Map<String, String> bad = new java.util.LinkedHashMap<>();
            bad.put("1|0|2|2199023255589|1|1290687902110", "updates.csv:9001: IU2: postId 1 is no post of the store");
            bad.put("1|0|8|" + addedPerson.id("personId") + "|" + addedPerson.id("personId") + "|1290687902110",
                "updates.csv:9001: IU8: a person cannot befriend themselves: " + addedPerson.id("personId"));
            bad.put("1|0|7|999999999|1290693129505|1.2.3.4|Firefox|great|5|4398046511268|50|-1|-1|",
                "updates.csv:9001: IU7: exactly one of replyToPostId (-1) and replyToCommentId (-1) must be -1");
            bad.put("1|0|5|999999|2199023255589|1290687902110", "updates.csv:9001: IU5: forumId 999999 is no forum of the store");
            bad.put("1|0|4|274877906944|title|1290687902110|2199023255589|",
                "updates.csv:9001: IU4: forumId 274877906944 exists already");
            bad.put(addedPerson.scheduledStartTime() + "|0|1|" + addedPerson.id("personId")
                    + "|Ann|Smith|female|0|1|1.2.3.4|Firefox|" + addedPerson.id("cityId") + "|||||",
                "updates.csv:9001: IU1: personId " + addedPerson.id("personId") + " exists already (added by "
                    + addedPerson.where() + ")");
            for (Map.Entry<String, String> e : bad.entrySet()) {
                List<Update> stream = new java.util.ArrayList<>(sample);
                stream.add(UpdateStreams.parse(e.getKey(), file, 9001));
                LdbcDataException error = assertThrows(LdbcDataException.class, () -> UpdatePrecheck.check(reader, stream));
                assertEquals(e.getValue(), error.getMessage());
            }
        }
    }

    @Test
    void anUpdateThatRefersToNothingOrRepeatsAnInsertLeavesTheStoreAsItWas() throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        String file = "updates.csv";
        List<Update> bad = List.of(
            UpdateStreams.parse("1|0|2|2199023255589|1|1290687902110", file, 1),
            UpdateStreams.parse("1|0|8|4398046511325|4398046511192|1290687902110", file, 2),
            UpdateStreams.parse("1|0|7|343597387672|1290693129505|1.2.3.4|Firefox|great|5|4398046511268|50|-1|-1|",
                file, 3),
            UpdateStreams.parse("1|0|6|343597386912|photo.jpg|1290691111683|1.2.3.4|Safari|||0|6597069766835|"
                + "274877906944|1|99999999", file, 4));
        List<String> problems = List.of("updates.csv:1: IU2: postId 1 is no post of the store",
            "updates.csv:2: IU8: persons 4398046511325 and 4398046511192 know each other already",
            "updates.csv:3: IU7: exactly one of replyToPostId (-1) and replyToCommentId (-1) must be -1",
            "updates.csv:4: IU6: tagIds 99999999 is no tag of the store");
        ReferenceGraph reference = ReferenceGraph.load(LdbcTestData.sampleRoot());
        try (PageCache cache = LdbcTestData.cache("4m")) {
            try (GraphStore store = GraphStore.open(storeDir, cache);
                 StoreUpdater updater = store.newUpdater()) {
                UpdateApplier applier = new UpdateApplier(updater);
                StoreMeta before = store.meta();
                for (int i = 0; i < bad.size(); i++) {
                    Update u = bad.get(i);
                    LdbcDataException e = assertThrows(LdbcDataException.class, () -> applier.apply(u));
                    assertEquals(problems.get(i), e.getMessage());
                    assertEquals(before, store.meta(), "nothing published");
                }
                try (StoreReader reader = store.newReader()) {
                    LdbcQueries queries = new LdbcQueries(reader);
                    long p = 4398046511333L;
                    for (Query q : List.of(Query.of(QueryType.IS3, p), Query.of(QueryType.IS2, 4398046511268L),
                        Query.of(QueryType.IC7, 2199023255589L))) {
                        assertEquals(reference.run(q), queries.run(q), q::toString);
                    }
                }
            }
            assertEquals(GraphStore.readMeta(storeDir).orElseThrow().nodes(),
                reference.persons.size() + reference.messages.size() + reference.forumTitle.size()
                    + reference.placeName.size() + reference.organisationName.size() + reference.tagName.size()
                    + reference.tagClassName.size(), "no node was added");
        }
    }
}
