package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.load.LdbcDataException;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.run.Budget;
import io.ratatosk.bench.ldbc.run.CacheSpec;
import io.ratatosk.bench.ldbc.run.LdbcRun;
import io.ratatosk.bench.ldbc.run.OperationStream;
import io.ratatosk.bench.ldbc.run.RunResult;
import io.ratatosk.bench.ldbc.run.SubstitutionParameters;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.pagecache.PageCacheFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The query streams, the parameter files and the size and budget syntax of the runner. */
class LdbcWorkloadTest {
    private static final OperationStream.Fallback FIXED = new OperationStream.Fallback() {
        @Override
        public long randomPerson(SplittableRandom random) {
            return 933;
        }

        @Override
        public long randomMessage(SplittableRandom random) {
            return 1_000_000 + random.nextInt(10);
        }
    };

    /** {@code dir}'s substitution_parameters folder, made with one row of 1s and "Jose"s in each complex read's file. */
    private static Path oneRowOfEachParameterFile(Path dir) throws IOException {
        Path params = dir.resolve("substitution_parameters");
        Files.createDirectories(params);
        for (QueryType t : QueryType.COMPLEX) {
            String row = String.join("|", t.parameters().stream().map(name -> QueryType.isNumeric(name) ? "1" : "Jose").toList());
            Files.writeString(params.resolve(t.parameterFile()), String.join("|", t.parameters()) + "\n" + row + "\n");
        }
        return params;
    }

    private static List<Query> take(OperationStream stream, int n) throws IOException {
        List<Query> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Query q = stream.next();
            stream.completed(q, List.of());
            list.add(q);
        }
        return list;
    }

    @Test
    void aStreamRunsEveryComplexReadFirstThenShortReadWalks() throws IOException {
        SubstitutionParameters params = SubstitutionParameters.load(LdbcDataSource.sample());
        List<Query> queries = take(new OperationStream(params, FIXED, 1, 0), 2000);
        List<QueryType> complex = queries.stream().map(Query::type).filter(QueryType::isComplex).limit(QueryType.COMPLEX.size()).toList();
        assertEquals(QueryType.COMPLEX, complex);
        assertEquals(QueryType.IC1, queries.get(0).type());
        assertEquals(List.of(QueryType.IS1, QueryType.IS2, QueryType.IS3, QueryType.IS4, QueryType.IS5, QueryType.IS6,
            QueryType.IS7), queries.subList(1, 8).stream().map(Query::type).toList(), "a walk of at least one step");
        Map<QueryType, Integer> counts = new EnumMap<>(QueryType.class);
        queries.forEach(q -> counts.merge(q.type(), 1, Integer::sum));
        assertEquals(QueryType.values().length, counts.size(), counts.toString());
        assertTrue(counts.get(QueryType.IC13) > counts.get(QueryType.IC9), "IC13 is LDBC's most frequent: " + counts);
        assertTrue(counts.get(QueryType.IS1) > 5 * counts.values().stream().mapToInt(Integer::intValue).max().orElse(0)
            / 10, "short reads dominate: " + counts);
        assertEquals(queries, take(new OperationStream(params, FIXED, 1, 0), 2000), "a function of seed and thread");
        assertTrue(!queries.equals(take(new OperationStream(params, FIXED, 1, 1), 2000)), "threads differ");
    }

    /**
     * The types that a warm-up too short to finish the first round ran are measured too: the measured phase finishes
     * the round, then wraps around to them, so a short run still runs every type and its measured phase too.
     */
    @Test
    void aMeasuredPhaseAfterAShortWarmUpRunsEveryComplexReadFirst() throws IOException {
        SubstitutionParameters params = SubstitutionParameters.load(LdbcDataSource.sample());
        OperationStream stream = new OperationStream(params, FIXED, 1, 0);
        List<QueryType> warmUp = new ArrayList<>();
        while (warmUp.size() < 5) {
            Query q = stream.next();
            stream.completed(q, List.of());
            if (q.type().isComplex()) {
                warmUp.add(q.type());
            }
        }
        assertEquals(QueryType.COMPLEX.subList(0, 5), warmUp);
        stream.startRound();
        List<QueryType> measured = take(stream, 2000).stream().map(Query::type).filter(QueryType::isComplex)
            .limit(QueryType.COMPLEX.size()).toList();
        List<QueryType> expected = new ArrayList<>(QueryType.COMPLEX.subList(5, QueryType.COMPLEX.size()));
        expected.addAll(QueryType.COMPLEX.subList(0, 5));
        assertEquals(expected, measured);
        stream.startRound(); // a round already finished starts at IC1 again
        assertEquals(QueryType.COMPLEX, take(stream, 2000).stream().map(Query::type).filter(QueryType::isComplex)
            .limit(QueryType.COMPLEX.size()).toList());
    }

    @Test
    void walksFollowTheResultsOfEarlierReads() throws IOException {
        SubstitutionParameters params = SubstitutionParameters.load(LdbcDataSource.sample());
        OperationStream stream = new OperationStream(params, FIXED, 3, 0);
        Query first = stream.next();
        stream.completed(first, List.of(List.of(555L, "Doe", 1L)));
        Query is1 = stream.next();
        assertEquals(QueryType.IS1, is1.type());
        long person = is1.longParam("personId");
        assertTrue(person == 555L || person == first.longParam("personId"), is1.toString());
    }

    @Test
    void aParameterFileWithABadRowNamesItsLine(@TempDir Path dir) throws IOException {
        Path params = dir.resolve("substitution_parameters");
        Files.createDirectories(params);
        for (QueryType t : QueryType.COMPLEX) {
            String row = t == QueryType.IC2 ? "933|soon" : String.join("|", t.parameters().stream()
                .map(name -> QueryType.isNumeric(name) ? "1" : "Jose").toList());
            Files.writeString(params.resolve(t.parameterFile()), String.join("|", t.parameters()) + "\n" + row + "\n");
        }
        LdbcDataException e = assertThrows(LdbcDataException.class,
            () -> SubstitutionParameters.load(LdbcDataSource.directory(dir)));
        assertTrue(e.getMessage().endsWith("interactive_2_param.txt:2: maxDate: 'soon' is not a number"), e.getMessage());
        Files.delete(params.resolve("interactive_9_param.txt"));
        Files.writeString(params.resolve("interactive_2_param.txt"), "personId|maxDate\n933|1\n");
        e = assertThrows(LdbcDataException.class, () -> SubstitutionParameters.load(LdbcDataSource.directory(dir)));
        assertTrue(e.getMessage().startsWith("missing substitution parameters: "), e.getMessage());
        assertTrue(e.getMessage().contains("interactive_9_param.txt"), e.getMessage());
    }

    /**
     * A month that is none (IC10's 13 or 0) and a duration of no days or so many that its end passes the largest time
     * (IC3's and IC4's durationDays -5 or 10^17, whose end overflowed negative) were taken, and their reads found
     * nothing, or IC10 the birthdays of the wrong month, measured without a word.
     */
    @Test
    void aParameterOutOfItsRangeIsRefusedNamingItsLine(@TempDir Path dir) throws IOException {
        Path params = oneRowOfEachParameterFile(dir);
        Path ic10 = params.resolve(QueryType.IC10.parameterFile());
        Path ic4 = params.resolve(QueryType.IC4.parameterFile());
        for (String month : List.of("13", "0", "-1")) {
            Files.writeString(ic10, "personId|month\n933|5\n933|" + month + "\n");
            LdbcDataException e = assertThrows(LdbcDataException.class,
                () -> SubstitutionParameters.load(LdbcDataSource.directory(dir)));
            assertTrue(e.getMessage().endsWith("interactive_10_param.txt:3: month: " + month + " is no month (1 to 12)"),
                e.getMessage());
        }
        Files.writeString(ic10, "personId|month\n933|12\n");
        for (String days : List.of("0", "-5", "100000000000000000")) {
            Files.writeString(ic4, "personId|startDate|durationDays\n933|1275350400000|" + days + "\n");
            LdbcDataException e = assertThrows(LdbcDataException.class,
                () -> SubstitutionParameters.load(LdbcDataSource.directory(dir)));
            assertTrue(e.getMessage().contains("interactive_4_param.txt:2: durationDays: " + days), e.getMessage());
        }
        Files.writeString(ic4, "personId|startDate|durationDays\n933|1275350400000|29\n");
        assertEquals(1, SubstitutionParameters.load(LdbcDataSource.directory(dir)).of(QueryType.IC4).size());
    }

    /**
     * A header that names a parameter twice was taken, as its set of names is the read's: IC1's
     * personId|firstName|firstName ran every IC1 with the row's last column as its first name, the middle one dropped.
     */
    @Test
    void aParameterFileWhoseHeaderRepeatsANameIsRefused(@TempDir Path dir) throws IOException {
        Path params = oneRowOfEachParameterFile(dir);
        Files.writeString(params.resolve("interactive_1_param.txt"), "personId|firstName|firstName\n933|Jose|Ann\n");
        LdbcDataException e = assertThrows(LdbcDataException.class,
            () -> SubstitutionParameters.load(LdbcDataSource.directory(dir)));
        assertTrue(e.getMessage().endsWith("interactive_1_param.txt:1: header 'personId|firstName|firstName' does not name"
            + " IC1's parameters personId|firstName"), e.getMessage());
    }

    @Test
    void cacheSizesAreSharesOfTheStoreOrSizes() {
        assertEquals(819_200, CacheSpec.parse("10%").bytesFor(8_192_000, 8192));
        assertEquals(8192 * 12, CacheSpec.parse("2.5%").bytesFor(8192 * 500, 8192), "rounded down to pages");
        assertEquals(64L << 20, CacheSpec.parse("64m").bytesFor(1, 8192));
        assertEquals(2 * 8192, CacheSpec.parse("1k").bytesFor(1, 8192), "at least two pages");
        assertTrue(CacheSpec.parse("1k").belowMinimum(1, 8192), "1k is raised to two pages, and says so");
        assertTrue(CacheSpec.parse("0.1%").belowMinimum(8192 * 1000, 8192), "one page of a thousand");
        assertFalse(CacheSpec.parse("0.2%").belowMinimum(8192 * 1000, 8192), "two pages of a thousand");
        assertFalse(CacheSpec.parse("16k").belowMinimum(1, 8192));
        assertEquals(List.of("5%", "10%", "1g"), CacheSpec.parseList(List.of("5%,10%", "1g")).stream()
            .map(CacheSpec::text).toList());
        for (String bad : List.of("0%", "-1m", "ten", "", "5x")) {
            assertThrows(IllegalArgumentException.class, () -> CacheSpec.parse(bad), bad);
        }
    }

    /**
     * A size in bytes is read by the page cache's own parser, the one pagecache.memory (and demo's --cache) goes
     * through: CacheSpec had its own, which had no t (1t was "must be a share of the store or a size"), no 512MB or
     * 1GiB, and took whatever Double.parseDouble takes: 10f and 10d as 10 bytes, 1e3, Infinity, a hex float.
     */
    @Test
    void aCacheSizeInBytesIsWrittenAsThePageCachesMemoryIs() {
        for (String size : List.of("1t", "512MB", "1GiB", "8 k", "64m", "1.5m", "8192")) {
            assertEquals((long) PageCacheFlags.MEMORY.parse(size), CacheSpec.parse(size).bytes(), size);
        }
        for (String bad : List.of("10f", "10d", "1e3", "Infinity", "0x1p3", "2t", "0.3k", "NaN")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheSpec.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("cache size '" + bad + "' must be a share of the store (10%, 2.5%) or a size"
                + " in [2 pages of pagecache.page_size, 1t]"), e.getMessage());
        }
    }

    /**
     * The early check of a cache in bytes against the machine counts the frames' metadata, as the page cache's own
     * check at open does: a size whose pages fit but whose pages and metadata did not passed it, and was refused only
     * when its run opened the cache, after minutes of generating and loading the data.
     */
    @Test
    void aCacheWhosePagesFitTheMachineButNotWithTheirMetadataIsRefusedBeforeTheDataIsPrepared() {
        java.util.OptionalLong machine = io.ratatosk.pagecache.internal.MachineMemory.total();
        org.junit.jupiter.api.Assumptions.assumeTrue(machine.isPresent() && machine.getAsLong() < 1L << 40,
            "a machine whose memory is known and under the page cache's 1 TiB");
        int pageSize = 8192;
        long pages = machine.getAsLong() / pageSize * pageSize; // fits; with 32 bytes of metadata a frame it does not
        List<CacheSpec> caches = List.of(CacheSpec.parse(Long.toString(pages)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LdbcRun.checkSizes(Map.of(),
            List.of(PolicyCatalog.standard().parsePageCachePolicy("muninn")), caches, pageSize));
        assertTrue(e.getMessage().contains("bytes of frame metadata"), e.getMessage());
    }

    /**
     * A share of the store is a plain decimal percentage: Double.parseDouble read 10f% and 10d% as 10%, 0x1p3% as 8%
     * and 1e1% as 10%, which no one writes meaning that.
     */
    @Test
    void aShareOfTheStoreIsAPlainDecimalPercentage() {
        for (String share : List.of("10%", "2.5%", ".5%", "5.%", " 10 %")) {
            assertEquals(Double.parseDouble(share.strip().replace("%", "")), CacheSpec.parse(share).percent(), share);
        }
        for (String bad : List.of("10f%", "10d%", "0x1p3%", "1e1%", "%", "+5%", "NaN%")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheSpec.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("cache size '" + bad + "' must be a share of the store (10%, 2.5%)"),
                e.getMessage());
        }
    }

    /**
     * A generated data set's scale is a plain decimal: Double.parseDouble read generated:0.002f and generated:0.002d as
     * 0.002, and generated:0x1p-9 as a scale of 1/512, generating that without a word.
     */
    @Test
    void aGeneratedScaleIsAPlainDecimal(@TempDir Path dir) {
        for (String bad : List.of("generated:0.002f", "generated:0.002d", "generated:0x1p-9", "generated:2e-3",
            "generated:+0.002", "generated:Infinity")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> io.ratatosk.bench.ldbc.run.LdbcDatasets.prepare(bad, dir, 42, false, ProgressOutput.none()), bad);
            assertTrue(e.getMessage().startsWith("--data " + bad + ": the scale must be a number in (0, 10000]"),
                e.getMessage());
        }
        assertFalse(Files.exists(dir.resolve("scale-0.002-seed-42-g" + io.ratatosk.bench.ldbc.gen.LdbcGenerator.VERSION)),
            "nothing generated");
    }

    /**
     * Every short read of a person in a run on the sample finds that person: the walks took the persons of every read's
     * parameters whatever it found, and the sample's IC13 names two persons that do not exist (3279|3280), so some
     * walks read the profile, messages and friends of nobody.
     */
    @Test
    void walksReadOnlyPersonsThatExist(@TempDir Path dir) throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            1, Budget.operations(0), Budget.operations(6000), 42, false, Map.of(), Map.of(), List.of());
        Path dump = dir.resolve("dump.jsonl");
        try (io.ratatosk.bench.ldbc.run.ResultDump out = new io.ratatosk.bench.ldbc.run.ResultDump(dump)) {
            new LdbcRun(settings, ProgressOutput.none()).execute(PolicyCatalog.standard().parse("clock"),
                CacheSpec.parse("50%"), GraphStore.sizeOnDisk(storeDir), out, null);
        }
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        int is1 = 0;
        int ic13Unknown = 0;
        List<String> nobody = new ArrayList<>();
        for (String line : Files.readAllLines(dump)) {
            com.fasterxml.jackson.databind.JsonNode node = json.readTree(line);
            String query = node.get("query").asText();
            if (query.equals("IC13") && node.get("params").get("person1Id").asLong() == 3279) {
                ic13Unknown++;
            }
            if (query.equals("IS1")) {
                is1++;
                if (node.get("rows").isEmpty()) {
                    nobody.add(node.get("params").toString());
                }
            }
        }
        assertTrue(ic13Unknown > 0 && is1 > 100, ic13Unknown + " IC13 of unknown persons, " + is1 + " IS1");
        assertEquals(List.of(), nobody, "IS1 of persons that do not exist");
    }

    /** A --duration shorter than an operation measured none, reported as 0 ops/s and a hit ratio of 0%. */
    @Test
    void aMeasuredDurationShorterThanAnOperationStillMeasuresOneAThread(@TempDir Path dir) throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        Budget overBeforeItStarts = new Budget("1ns", 0, 1);
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            2, Budget.operations(0), overBeforeItStarts, 42, false, Map.of(), Map.of(), List.of());
        RunResult result = new LdbcRun(settings, ProgressOutput.none()).execute(PolicyCatalog.standard().parse("clock"),
            CacheSpec.parse("10%"), GraphStore.sizeOnDisk(storeDir), null, null);
        assertEquals(2, result.operations(), "one operation on each thread");
        assertTrue(result.measured().hitRatio() > 0, result.measured().toString());
    }

    /**
     * A timed phase's bar moves while the phase runs: it counts seconds, and was stepped only once the phase was over,
     * standing at 0 for the whole of a --duration (and the plain lines, every 10 s, said nothing for as long).
     */
    @Test
    void aTimedPhasesProgressMovesWhileItRuns(@TempDir Path dir) throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            1, Budget.operations(0), Budget.parse("3s"), 42, false, Map.of(), Map.of(), List.of());
        java.io.ByteArrayOutputStream drawn = new java.io.ByteArrayOutputStream();
        ProgressOutput bar = new ProgressOutput(new java.io.PrintStream(drawn, true, java.nio.charset.StandardCharsets.UTF_8),
            false, true);
        new LdbcRun(settings, bar).execute(PolicyCatalog.standard().parse("clock"), CacheSpec.parse("10%"),
            GraphStore.sizeOnDisk(storeDir), null, null);
        String frames = drawn.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(frames.matches("(?s).* [12]/3 ?s.*"), "a frame between 0 and 3 s: " + frames);
    }

    /**
     * A run of timed phases ends its bar at the whole of its seconds, fractions of a second included: each phase stepped
     * its own whole seconds, so --warmup 0.5s and --duration 1.5s (a task of 2 s) ended at 0 + 1, the bar of a finished
     * run left at 1/2 s.
     */
    @Test
    void timedPhasesOfFractionsOfASecondEndTheirBarAtTheWhole(@TempDir Path dir) throws IOException {
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        LdbcRun.Settings settings = new LdbcRun.Settings(storeDir, SubstitutionParameters.load(LdbcDataSource.sample()),
            1, Budget.parse("0.5s"), Budget.parse("1.5s"), 42, false, Map.of(), Map.of(), List.of());
        java.io.ByteArrayOutputStream drawn = new java.io.ByteArrayOutputStream();
        ProgressOutput bar = new ProgressOutput(new java.io.PrintStream(drawn, true, java.nio.charset.StandardCharsets.UTF_8),
            false, true);
        new LdbcRun(settings, bar).execute(PolicyCatalog.standard().parse("clock"), CacheSpec.parse("10%"),
            GraphStore.sizeOnDisk(storeDir), null, null);
        String frames = drawn.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
        String last = frames.substring(Math.max(frames.lastIndexOf('\r'), frames.lastIndexOf('\n')) + 1);
        assertTrue(last.matches(".* 2/2 ?s.*"), "the last frame at 2 of 2 s: " + last + "\nall: " + frames);
    }

    /**
     * A time is written as the page cache's durations are (its own parser), and in minutes: 1.5s was "neither an
     * operation count nor a duration", and so were 250us and 2 s; minutes take a fraction too.
     */
    @Test
    void aBudgetsTimeIsWrittenAsThePageCachesDurationsAre() {
        assertEquals(1_500_000_000L, Budget.parse("1.5s").nanos());
        assertEquals(250_000L, Budget.parse("250us").nanos());
        assertEquals(2_000_000_000L, Budget.parse("2 s").nanos());
        assertEquals(2_000_000_000L, Budget.parse("2S").nanos());
        assertEquals(90_000_000_000L, Budget.parse("1.5m").nanos());
        assertEquals(100L, Budget.parse("100ns").nanos());
        for (String bad : List.of("1.5", "2.0", "0.0", "", "1.5ms5", "0.5ns", "s", "m", "-1s", "1h", "1e3s", "5mm")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Budget.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("'" + bad + "' is neither an operation count (20000) nor a duration"),
                e.getMessage());
        }
    }

    @Test
    void budgetsAreOperationsOrDurations() {
        assertEquals(20_000, Budget.parse("20000").operations());
        assertEquals(30_000_000_000L, Budget.parse("30s").nanos());
        assertEquals(120_000_000_000L, Budget.parse("2m").nanos());
        assertEquals(500_000_000L, Budget.parse("500ms").nanos());
        assertTrue(Budget.parse("1s").isDuration());
        assertThrows(IllegalArgumentException.class, () -> Budget.parse("soon"));
        assertThrows(IllegalArgumentException.class, () -> Budget.parse("-5"));
        assertThrows(IllegalArgumentException.class, () -> Budget.parse("18446744073710ms"), "past a long's nanoseconds");
        assertThrows(IllegalArgumentException.class, () -> Budget.parse("9999999999999m"));
        // A time whose end (now + its nanos) passed Long.MAX_VALUE ended the phase at once: 2 ops measured, exit 0.
        assertEquals(525_600L * 60_000_000_000L, Budget.parse("525600m").nanos(), "a year is the longest phase");
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> Budget.parse("153722867m"));
        assertTrue(tooLong.getMessage().startsWith("'153722867m' is longer than a year"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Budget.parse("525601m"));
    }
}
