package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.pagecache.PageCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped sample, loaded into the graph store, answers every query exactly as the independent
 * in-memory {@link ReferenceGraph} does: with the substitution parameters, and beyond them for every
 * person and message, so that every code path of every query is compared. The cache holds a fifth
 * of the store, so the reads fault and evict all along.
 */
class LdbcSampleQueriesTest {
    @TempDir
    static Path dir;

    private static ReferenceGraph reference;
    private static PageCache cache;
    private static GraphStore store;
    private static StoreReader reader;
    private static LdbcQueries queries;
    private static final Map<QueryType, int[]> compared = new EnumMap<>(QueryType.class);

    @BeforeAll
    static void load() throws IOException {
        reference = ReferenceGraph.load(LdbcTestData.sampleRoot());
        Path storeDir = dir.resolve("store");
        LdbcTestData.loadSample(storeDir);
        long storeBytes = GraphStore.sizeOnDisk(storeDir);
        cache = LdbcTestData.cache(Long.toString(Math.max(16 * 8192, storeBytes / 5)));
        store = GraphStore.open(storeDir, cache);
        reader = store.newReader();
        queries = new LdbcQueries(reader);
    }

    @AfterAll
    static void close() throws IOException {
        reader.close();
        store.close();
        cache.close();
    }

    private static void check(Query q, List<List<Object>> expected) throws IOException {
        List<List<Object>> actual = queries.run(q);
        assertEquals(LdbcTestData.canonical(q.type(), expected), LdbcTestData.canonical(q.type(), actual),
            () -> q + " differs from the reference");
        int[] counts = compared.computeIfAbsent(q.type(), t -> new int[2]);
        counts[0]++;
        counts[1] += expected.isEmpty() ? 0 : 1;
    }

    @Test
    void complexReadsWithTheSubstitutionParametersMatchTheReference() throws IOException {
        Path root = LdbcTestData.sampleRoot();
        for (String[] p : LdbcTestData.parameters(root, QueryType.IC1)) {
            check(Query.of(QueryType.IC1, Long.parseLong(p[0]), p[1]), reference.ic1(Long.parseLong(p[0]), p[1]));
        }
        for (String[] p : LdbcTestData.parameters(root, QueryType.IC2)) {
            long person = Long.parseLong(p[0]);
            long maxDate = Long.parseLong(p[1]);
            check(Query.of(QueryType.IC2, person, maxDate), reference.ic2(person, maxDate));
        }
        for (String[] p : LdbcTestData.parameters(root, QueryType.IC8)) {
            check(Query.of(QueryType.IC8, Long.parseLong(p[0])), reference.ic8(Long.parseLong(p[0])));
        }
        for (String[] p : LdbcTestData.parameters(root, QueryType.IC9)) {
            long person = Long.parseLong(p[0]);
            long maxDate = Long.parseLong(p[1]);
            check(Query.of(QueryType.IC9, person, maxDate), reference.ic9(person, maxDate));
        }
        for (String[] p : LdbcTestData.parameters(root, QueryType.IC13)) {
            long a = Long.parseLong(p[0]);
            long b = Long.parseLong(p[1]);
            check(Query.of(QueryType.IC13, a, b), reference.ic13(a, b));
        }
    }

    @Test
    void personReadsMatchTheReferenceForEveryPerson() throws IOException {
        List<Long> persons = reference.personIds();
        List<String> names = reference.firstNamesByFrequency().subList(0, 6);
        long[] dates = {1285891200000L, 1289865600000L, Long.MAX_VALUE};
        for (int i = 0; i < persons.size(); i++) {
            long p = persons.get(i);
            check(Query.of(QueryType.IS1, p), reference.is1(p));
            check(Query.of(QueryType.IS2, p), reference.is2(p));
            check(Query.of(QueryType.IS3, p), reference.is3(p));
            check(Query.of(QueryType.IC8, p), reference.ic8(p));
            String name = names.get(i % names.size());
            check(Query.of(QueryType.IC1, p, name), reference.ic1(p, name));
            long date = dates[i % dates.length];
            check(Query.of(QueryType.IC2, p, date), reference.ic2(p, date));
            check(Query.of(QueryType.IC9, p, date), reference.ic9(p, date));
            long other = persons.get((i * 37 + 11) % persons.size());
            check(Query.of(QueryType.IC13, p, other), reference.ic13(p, other));
        }
        check(Query.of(QueryType.IC13, persons.get(0), persons.get(0)), reference.ic13(persons.get(0), persons.get(0)));
        check(Query.of(QueryType.IS1, 1L), reference.is1(1L));
        check(Query.of(QueryType.IC13, persons.get(0), 1L), reference.ic13(persons.get(0), 1L));
        assertNonTrivial(QueryType.IS1, QueryType.IS2, QueryType.IS3, QueryType.IC1, QueryType.IC2, QueryType.IC8,
            QueryType.IC9, QueryType.IC13);
    }

    @Test
    void messageReadsMatchTheReferenceForEveryMessage() throws IOException {
        for (long m : reference.messageIds()) {
            check(Query.of(QueryType.IS4, m), reference.is4(m));
            check(Query.of(QueryType.IS5, m), reference.is5(m));
            check(Query.of(QueryType.IS6, m), reference.is6(m));
            check(Query.of(QueryType.IS7, m), reference.is7(m));
        }
        check(Query.of(QueryType.IS4, 7L), reference.is4(7L));
        assertNonTrivial(QueryType.IS4, QueryType.IS5, QueryType.IS6, QueryType.IS7);
    }

    /** Each type was compared on many inputs, and on many with rows: the comparison is not vacuous. */
    private static void assertNonTrivial(QueryType... types) {
        for (QueryType t : types) {
            int[] counts = compared.get(t);
            assertTrue(counts != null && counts[1] >= 10, () -> t + " had results only "
                + (counts == null ? 0 : counts[1]) + " times");
        }
    }
}
