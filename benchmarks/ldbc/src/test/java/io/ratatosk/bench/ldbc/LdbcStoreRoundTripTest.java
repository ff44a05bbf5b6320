package io.ratatosk.bench.ldbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.ldbc.query.LdbcQueries;
import io.ratatosk.bench.ldbc.query.Query;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.bench.ldbc.store.GraphStore;
import io.ratatosk.bench.ldbc.store.StoreMeta;
import io.ratatosk.bench.ldbc.store.StoreReader;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Load, close, reopen: the same store, the same answers, whatever cache it is reopened on. */
class LdbcStoreRoundTripTest {
    @TempDir
    Path dir;

    private static List<Query> queries() throws IOException {
        ReferenceGraph g = ReferenceGraph.load(LdbcTestData.sampleRoot());
        List<Query> list = new ArrayList<>();
        List<Long> persons = g.personIds();
        List<Long> messages = g.messageIds();
        for (int i = 0; i < 40; i++) {
            long p = persons.get(i * 5 % persons.size());
            long m = messages.get(i * 197 % messages.size());
            list.add(Query.of(QueryType.IS1, p));
            list.add(Query.of(QueryType.IS2, p));
            list.add(Query.of(QueryType.IS3, p));
            list.add(Query.of(QueryType.IS4, m));
            list.add(Query.of(QueryType.IS5, m));
            list.add(Query.of(QueryType.IS6, m));
            list.add(Query.of(QueryType.IS7, m));
            list.add(Query.of(QueryType.IC1, p, "Jose"));
            list.add(Query.of(QueryType.IC2, p, 1289260800000L));
            list.add(Query.of(QueryType.IC8, p));
            list.add(Query.of(QueryType.IC9, p, 1289260800000L));
            list.add(Query.of(QueryType.IC13, p, persons.get((i * 31 + 7) % persons.size())));
        }
        return list;
    }

    private static List<List<List<Object>>> answers(Path store, PageCache cache, List<Query> queries) throws IOException {
        List<List<List<Object>>> answers = new ArrayList<>();
        try (GraphStore s = GraphStore.open(store, cache); StoreReader reader = s.newReader()) {
            LdbcQueries q = new LdbcQueries(reader);
            for (Query query : queries) {
                answers.add(q.run(query));
            }
        }
        return answers;
    }

    @Test
    void reopenedStoreGivesIdenticalResultsOnAnyCache() throws IOException {
        Path store = dir.resolve("store");
        LdbcTestData.loadSample(store);
        List<Query> queries = queries();
        List<List<List<Object>>> first;
        StoreMeta meta;
        try (PageCache cache = LdbcTestData.cache("64m")) {
            first = answers(store, cache, queries);
            try (GraphStore s = GraphStore.open(store, cache)) {
                meta = s.meta();
            }
        }
        assertTrue(first.stream().filter(a -> !a.isEmpty()).count() > queries.size() / 2, "mostly non-empty answers");
        try (PageCache tiny = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "160k",
            "pagecache.policy", "global-clock")))) {
            assertEquals(first, answers(store, tiny, queries), "reopened on a 20-frame cache");
            try (GraphStore s = GraphStore.open(store, tiny)) {
                assertEquals(meta, s.meta());
                assertTrue(s.meta().chainsGroupedByType());
            }
        }
        try (PageCache again = LdbcTestData.cache("8m")) {
            assertEquals(first, answers(store, again, queries), "reopened a second time");
        }
    }
}
