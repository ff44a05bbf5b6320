package io.ratatosk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySimulator;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.bench.sim.Trace;
import io.ratatosk.bench.sim.TraceReader;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.policies.PolicyRegistry;
import io.ratatosk.policies.TestData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page cache, driven on one thread with the background evictor off, counts exactly the hits
 * the simulator counts, for every deterministic policy. A real LIRS trace is read through one
 * PagedFile read cursor, one file page per trace key (numbered in order of first appearance, as the
 * simulator numbers them, so that both see the same page keys), in a cache of N frames, i.e.
 * {@code pagecache.memory = N * pagecache.page_size}.
 *
 * <p>Both fill empty frames 0, 1, 2, ... in order, evict by asking {@code nextVictim} (the cache
 * through its cooperative sweep), call {@code onEvicted} then {@code onFault}, and run housekeeping
 * before each eviction. Two policies are left out because they are not deterministic there:
 * {@code random} draws its frames at random, and {@code muninn} starts every cooperative eviction
 * at a random frame (in the simulator it is its background evictor's single arm).
 */
class PageCacheSimulatorEquivalenceTest {
    private static final int PAGE_SIZE = 512;
    private static final List<String> NOT_DETERMINISTIC = List.of("muninn", "random");
    private static final List<String> TRACES = List.of("multi2", "cpp", "2_pools");
    /** Flag variants worth their own run: the exact-LRU setting of deferred-lru, a small history. */
    private static final List<String> VARIANTS = List.of("global-clock:max_usage=4", "deferred-lru:pull_threshold=1",
        "deferred-lru:purge_count=0.1", "bitset-history:bits=64", "clock-pro:adaptive=false");

    @TempDir
    Path dir;

    @Test
    void everyPolicyButMuninnAndRandomIsCovered() {
        List<String> covered = new ArrayList<>(PolicyRegistry.NAMES);
        covered.removeAll(NOT_DETERMINISTIC);
        assertEquals(PolicyRegistry.NAMES.size() - 2, covered.size());
    }

    @TestFactory
    Stream<DynamicNode> pageCacheCountsTheSimulatorsHits() throws IOException {
        List<String> policies = new ArrayList<>(PolicyRegistry.NAMES);
        policies.removeAll(NOT_DETERMINISTIC);
        policies.addAll(VARIANTS);
        PolicyCatalog catalog = PolicyCatalog.standard();
        List<DynamicNode> perTrace = new ArrayList<>();
        for (String name : TRACES) {
            Path file = TestData.require("traces/lirs/" + name + ".trace.gz");
            Trace trace = TraceReader.read(file);
            int[] pages = densePages(file);
            List<DynamicNode> tests = new ArrayList<>();
            for (int frames : new int[] {trace.distinct() / 100, trace.distinct() / 10}) {
                for (String policy : policies) {
                    PolicySpec spec = catalog.parse(policy);
                    tests.add(DynamicTest.dynamicTest(policy + " at " + frames + " frames", () -> {
                        long simulated = catalog.simulator(spec).replay(trace, frames, PolicySimulator.Progress.NONE);
                        PageCacheStats stats = replayThroughPageCache(pages, trace.distinct(), frames, spec);
                        assertEquals(pages.length, stats.hits() + stats.faults(), "one pin per request");
                        assertEquals(simulated, stats.hits(), spec.text() + " on " + name + " at " + frames + " frames");
                        assertTrue(stats.cooperativeEvictions() > 0 && stats.backgroundEvictions() == 0, stats.toString());
                    }));
                }
            }
            perTrace.add(DynamicContainer.dynamicContainer(name + " (" + trace.requests() + " requests)", tests.stream()));
        }
        return perTrace.stream();
    }

    private PageCacheStats replayThroughPageCache(int[] pages, int distinct, int frames, PolicySpec spec) throws IOException {
        Path path = Files.createTempFile(dir, "trace", ".db");
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
            raf.setLength((long) distinct * PAGE_SIZE);
        }
        Map<String, String> flags = new HashMap<>(spec.flags());
        flags.put("pagecache.memory", String.valueOf((long) frames * PAGE_SIZE));
        flags.put("pagecache.page_size", String.valueOf(PAGE_SIZE));
        flags.put("pagecache.policy", spec.name());
        flags.put("pagecache.evictor.enabled", "false");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            assertEquals(frames, cache.frameCount());
            try (PagedFile file = cache.map(path, PAGE_SIZE, false)) {
                try (PageCursor cursor = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                    for (int page : pages) {
                        if (!cursor.next(page)) {
                            throw new AssertionError("page " + page + " is missing from the file");
                        }
                    }
                }
            }
            return cache.stats();
        }
    }

    /** The trace's keys as page numbers 0, 1, 2, ... in order of first appearance. */
    private static int[] densePages(Path gzipTrace) throws IOException {
        int[] pages = new int[1 << 16];
        int count = 0;
        Map<Long, Integer> pageOfKey = new HashMap<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(gzipTrace)), StandardCharsets.US_ASCII))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                line = line.trim();
                if (line.isEmpty() || line.contains("*")) {
                    continue;
                }
                if (count == pages.length) {
                    pages = Arrays.copyOf(pages, 2 * count);
                }
                pages[count++] = pageOfKey.computeIfAbsent(Long.parseLong(line), key -> pageOfKey.size());
            }
        }
        return Arrays.copyOf(pages, count);
    }
}
