package io.ratatosk.bench.ldbc;

import io.ratatosk.bench.ldbc.load.LdbcDataSource;
import io.ratatosk.bench.ldbc.load.LdbcLoader;
import io.ratatosk.bench.ldbc.query.QueryType;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Shared helpers of the LDBC tests: the shipped sample, small caches, result canonical forms. */
final class LdbcTestData {
    private LdbcTestData() {
    }

    /** The sample as shipped, as a folder (the test class path is a folder, not a jar). */
    static Path sampleRoot() {
        try {
            return Path.of(LdbcTestData.class.getResource("/ldbc/sample").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static PageCache cache(String memory) {
        // No warm-up: these caches test the store, which then holds its own files only, no resident-page profiles.
        return PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", memory, "pagecache.warmup.enabled", "false")));
    }

    static void loadSample(Path storeDir) throws IOException {
        new LdbcLoader(LdbcDataSource.sample(), ProgressOutput.none()).load(storeDir, 32L << 20);
    }

    /** The rows of one substitution parameter file, header dropped, split on '|'. */
    static List<String[]> parameters(Path root, QueryType type) throws IOException {
        List<String> lines = Files.readAllLines(root.resolve("substitution_parameters").resolve(type.parameterFile()),
            StandardCharsets.UTF_8);
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                rows.add(line.split("\\|", -1));
            }
        }
        return rows;
    }

    /** The {@code n} most frequent values, most frequent first (ties by value). */
    static List<String> mostCommon(List<String> values, int n) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        values.forEach(v -> counts.merge(v, 1, Integer::sum));
        List<String> sorted = new ArrayList<>(counts.keySet());
        sorted.sort(Comparator.<String>comparingInt(counts::get).reversed().thenComparing(Comparator.naturalOrder()));
        return sorted.subList(0, Math.min(n, sorted.size()));
    }

    /**
     * Rows with IC1's unordered lists (emails, languages, universities, companies) sorted, so that
     * two implementations compare equal whatever order they list those sets in.
     */
    static List<List<Object>> canonical(QueryType type, List<List<Object>> rows) {
        if (type == QueryType.IC12) {
            List<List<Object>> out = new ArrayList<>();
            for (List<Object> row : rows) {
                List<Object> copy = new ArrayList<>(row);
                List<Object> set = new ArrayList<>((List<?>) copy.get(3));
                set.sort(Comparator.comparing(String::valueOf));
                copy.set(3, set);
                out.add(copy);
            }
            return out;
        }
        if (type != QueryType.IC1) {
            return rows;
        }
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> copy = new ArrayList<>(row);
            for (int column : new int[] {8, 9, 11, 12}) {
                List<Object> set = new ArrayList<>((List<?>) copy.get(column));
                set.sort(Comparator.comparing(String::valueOf));
                copy.set(column, set);
            }
            out.add(copy);
        }
        return out;
    }
}
