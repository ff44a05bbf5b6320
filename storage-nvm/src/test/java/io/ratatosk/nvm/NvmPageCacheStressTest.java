package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.StressWorkload;
import io.ratatosk.pagecache.NvmCacheStats;
import io.ratatosk.policies.PolicyRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PageCacheStressTest} through the NVM tier ({@code pagecache.swap=nvm}): many threads read and
 * write random pages of a file ten times the frames, with NVM twice the frames, so pages move between
 * frames, NVM and the file all the time. Readers check every validated read (no torn, misplaced or
 * stale page); at the end the cache is closed, the file reopened with {@code pagecache.swap=file},
 * and every page must hold its last committed version. Runs for every policy, with write-back and
 * write-aware eviction under the background evictor, write-through with cooperative eviction only,
 * once with a small injected latency, and twice with prefetching.
 */
class NvmPageCacheStressTest {
    private static final int PAGE_SIZE = StressWorkload.PAGE_SIZE;
    private static final int FRAMES = StressWorkload.FRAMES;
    private static final int NVM_SLOTS = FRAMES * 2;

    @TempDir
    Path dir;

    static Stream<Arguments> variants() {
        List<Arguments> args = new ArrayList<>();
        for (String policy : PolicyRegistry.NAMES) {
            args.add(Arguments.of(policy, true, "write-back", true, false, 0));
            args.add(Arguments.of(policy, false, "write-through", false, false, 0));
        }
        args.add(Arguments.of("muninn", true, "write-back", false, true, 0));
        args.add(Arguments.of("muninn", true, "write-back", false, false, 8));
        args.add(Arguments.of("global-clock", false, "write-through", true, false, 8));
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, background evictor {1}, {2}, write-aware {3}, injected latency {4}, prefetch {5}")
    @MethodSource("variants")
    void concurrentReadsAndWritesThroughNvmNeverTearLoseOrMisplaceAPage(String policy, boolean evictor, String writePolicy,
                                                                         boolean writeAware, boolean injectLatency, int prefetch)
        throws Exception {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(FRAMES * PAGE_SIZE));
        flags.put("pagecache.page_size", String.valueOf(PAGE_SIZE));
        flags.put("pagecache.policy", policy);
        flags.put("pagecache.evictor.enabled", String.valueOf(evictor));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(NVM_SLOTS * PAGE_SIZE));
        flags.put("pagecache.nvm.devices", "2");
        flags.put("pagecache.nvm.write_policy", writePolicy);
        flags.put("pagecache.nvm.write_aware", String.valueOf(writeAware));
        flags.put("pagecache.nvm.inject_latency", String.valueOf(injectLatency));
        flags.put("pagecache.nvm.read_latency", "1us");
        flags.put("pagecache.nvm.write_latency", "2us");
        flags.put("pagecache.nvm.prefetch", String.valueOf(prefetch));
        PageCacheConfig config = PageCacheConfig.parse(flags);
        Path path = dir.resolve("nvm-stress.db");
        AtomicLongArray committed = StressWorkload.nothingCommitted();
        PageCacheStats stats;
        try (PageCache cache = PageCache.open(config)) {
            PagedFile file = cache.map(path, PAGE_SIZE);
            StressWorkload.run(file, committed);
            stats = cache.stats();
            file.close();
            ((NvmSwapStore) cache.tier()).checkInvariants();
        }
        NvmCacheStats nvm = stats.nvm();
        assertTrue(nvm.swapOuts() > 0 && nvm.swapIns() > 0, "pages went through NVM both ways: " + stats);
        assertTrue(nvm.writes() >= nvm.swapOuts(), stats.toString());
        assertEquals(0, stats.evictionErrors(), stats.toString());
        verifyAfterReopenWithoutNvm(path, committed);
    }

    private static void verifyAfterReopenWithoutNvm(Path path, AtomicLongArray committed) throws Exception {
        PageCacheConfig plain = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE_SIZE),
            "pagecache.page_size", String.valueOf(PAGE_SIZE),
            "pagecache.swap", "file"));
        try (PageCache cache = PageCache.open(plain); PagedFile file = cache.map(path, PAGE_SIZE, false)) {
            StressWorkload.verify(file, committed, "after reopen without NVM");
        }
    }
}
