package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ratatosk.bench.ldbc.gen.LdbcGenerator;
import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.load.LdbcLoader;
import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.run.ResultDump;
import io.ratatosk.bench.ldbc.run.SubstitutionParameters;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.bench.ldbc.store.StoreUpdater;
import io.ratatosk.bench.ldbc.update.Update;
import io.ratatosk.bench.ldbc.update.UpdateApplier;
import io.ratatosk.bench.ldbc.update.UpdateStreams;
import io.ratatosk.pagecache.PageCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator: deterministic, skewed like a social network, and loadable with consistent answers. */
class LdbcGeneratorTest {
    @TempDir
    Path dir;

    private static Map<String, String> digests(Path root) throws IOException {
        Map<String, String> digests = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                digests.put(root.relativize(p).toString(), sha256(Files.readAllBytes(p)));
            }
        }
        return digests;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theSameScaleAndSeedGiveTheSameFilesByteForByte() throws IOException {
        new LdbcGenerator(0.02, 11, ProgressOutput.none()).write(dir.resolve("a"));
        new LdbcGenerator(0.02, 11, ProgressOutput.none()).write(dir.resolve("b"));
        new LdbcGenerator(0.02, 12, ProgressOutput.none()).write(dir.resolve("c"));
        Map<String, String> a = digests(dir.resolve("a"));
        assertEquals(47, a.size(), "31 CSV files, 14 parameter files and 2 update streams: " + a.keySet());
        assertEquals(a, digests(dir.resolve("b")));
        Map<String, String> c = digests(dir.resolve("c"));
        assertEquals(a.keySet(), c.keySet());
        assertNotEquals(a.get("vanilla/dynamic/person_knows_person_0_0.csv"),
            c.get("vanilla/dynamic/person_knows_person_0_0.csv"), "another seed, another graph");
    }

    /**
     * Skew, stated: with 1,000 persons the best-connected 1% hold over 10% of all knows endpoints
     * (ten times their share under uniform degrees), the best-connected 10% over 35%, and the highest
     * degree is over ten times the median.
     */
    @Test
    void knowsDegreesFollowAPowerLaw() throws IOException {
        LdbcGenerator generator = new LdbcGenerator(0.1, 42, ProgressOutput.none());
        generator.write(dir);
        Map<String, Integer> degree = new HashMap<>();
        List<String> persons = Files.readAllLines(dir.resolve("vanilla/dynamic/person_0_0.csv"), StandardCharsets.UTF_8);
        persons.subList(1, persons.size()).forEach(line -> degree.put(line.split("\\|")[0], 0));
        List<String> knows = Files.readAllLines(dir.resolve("vanilla/dynamic/person_knows_person_0_0.csv"),
            StandardCharsets.UTF_8);
        for (String line : knows.subList(1, knows.size())) {
            String[] f = line.split("\\|");
            degree.merge(f[0], 1, Integer::sum);
            degree.merge(f[1], 1, Integer::sum);
        }
        int n = degree.size();
        assertEquals(generator.persons(), n);
        int[] sorted = degree.values().stream().mapToInt(Integer::intValue).sorted().toArray();
        long total = Arrays.stream(sorted).asLongStream().sum();
        double top1 = (double) Arrays.stream(sorted, n - n / 100, n).sum() / total;
        double top10 = (double) Arrays.stream(sorted, n - n / 10, n).sum() / total;
        int median = sorted[n / 2];
        int max = sorted[n - 1];
        assertTrue(top1 > 0.10, "top 1% of persons hold " + top1 + " of knows endpoints");
        assertTrue(top10 > 0.35, "top 10% of persons hold " + top10 + " of knows endpoints");
        assertTrue(max > 10 * median, "max degree " + max + ", median " + median);
    }

    /** Generated data is consistent: loaded, it answers its own parameters as the reference does. */
    @Test
    void generatedDataAnswersLikeTheReference() throws IOException {
        Path root = dir.resolve("data");
        new LdbcGenerator(0.03, 5, ProgressOutput.none()).write(root);
        new LdbcLoader(LdbcDataSource.directory(root), ProgressOutput.none()).load(dir.resolve("store"), 16L << 20);
        ReferenceGraph reference = ReferenceGraph.load(root);
        int compared = 0;
        Map<QueryType, Integer> nonEmpty = new java.util.EnumMap<>(QueryType.class);
        try (PageCache cache = LdbcTestData.cache("2m");
             GraphStore store = GraphStore.open(dir.resolve("store"), cache);
             StoreReader reader = store.newReader()) {
            LdbcQueries queries = new LdbcQueries(reader);
            SubstitutionParameters parameters = SubstitutionParameters.load(LdbcDataSource.directory(root));
            compared += compareAll(parameters, reference, queries, nonEmpty);
            // The generated update stream applies cleanly, and afterwards the answers still agree.
            List<Update> updates = UpdateStreams.load(LdbcDataSource.directory(root));
            assertTrue(updates.size() >= 50, updates.size() + " updates");
            assertEquals(8, updates.stream().map(Update::type).distinct().count(), "every update type");
            try (StoreUpdater updater = store.newUpdater()) {
                UpdateApplier applier = new UpdateApplier(updater);
                for (Update u : updates) {
                    applier.apply(u);
                    JsonNode line = new ObjectMapper().readTree(ResultDump.line(u));
                    reference.apply(line.get("update").asText(), line.get("params"));
                }
            }
            reader.refresh();
            compared += compareAll(parameters, reference, queries, new java.util.EnumMap<>(QueryType.class));
            List<Long> persons = reference.personIds();
            for (long p : persons.subList(0, Math.min(100, persons.size()))) {
                assertEquals(reference.is2(p), queries.run(Query.of(QueryType.IS2, p)), "IS2 " + p);
                assertEquals(reference.is3(p), queries.run(Query.of(QueryType.IS3, p)), "IS3 " + p);
            }
            List<Long> messages = reference.messageIds();
            for (int i = 0; i < messages.size(); i += Math.max(1, messages.size() / 300)) {
                long m = messages.get(i);
                assertEquals(reference.is6(m), queries.run(Query.of(QueryType.IS6, m)), "IS6 " + m);
                assertEquals(reference.is7(m), queries.run(Query.of(QueryType.IS7, m)), "IS7 " + m);
            }
        }
        assertEquals(2 * 100 * QueryType.COMPLEX.size(), compared);
        for (QueryType type : QueryType.COMPLEX) {
            assertTrue(nonEmpty.get(type) >= 5, () -> type + " had rows for only " + nonEmpty.get(type) + " of 100 parameters");
        }
    }

    private static int compareAll(SubstitutionParameters parameters, ReferenceGraph reference, LdbcQueries queries,
                                  Map<QueryType, Integer> nonEmpty) throws IOException {
        int compared = 0;
        for (QueryType type : QueryType.COMPLEX) {
            for (Query q : parameters.of(type)) {
                List<List<Object>> expected = reference.run(q);
                assertEquals(LdbcTestData.canonical(type, expected), LdbcTestData.canonical(type, queries.run(q)),
                    () -> q + " differs from the reference");
                compared++;
                nonEmpty.merge(type, expected.isEmpty() ? 0 : 1, Integer::sum);
            }
        }
        return compared;
    }
}
