package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapper;
import io.ratatosk.policies.PolicyRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many threads read and write random pages of a file ten times the cache, every page carrying its id,
 * a version and a body derived from both. Readers check every validated read (no torn or misplaced
 * page, never older than the version known to be committed before the read began); at the end the
 * cache is closed, reopened, and every page must hold exactly its last committed version. Runs for
 * every policy, with the background evictor on and off.
 */
class PageCacheStressTest {
    @TempDir
    Path dir;

    static Stream<Arguments> policiesAndEvictor() {
        List<Arguments> args = new ArrayList<>();
        for (String policy : PolicyRegistry.NAMES) {
            args.add(Arguments.of(policy, true));
            args.add(Arguments.of(policy, false));
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, background evictor {1}")
    @MethodSource("policiesAndEvictor")
    void concurrentReadsAndWritesNeverTearLoseOrMisplaceAPage(String policy, boolean evictor) throws Exception {
        // The default swappers move pages straight between the file and page memory (FileSwapper's zero-copy IO).
        runAndVerify(policy, evictor, (file, fileId, filePageSize, create) -> new FileSwapper(file, filePageSize, create));
    }

    /**
     * Records that span two pages, read through a cursor and a linked cursor with the length checked
     * through a cursor exception, while other threads rewrite them and the cache evicts: no torn record is
     * ever accepted, no write is lost.
     */
    @ParameterizedTest(name = "{0}, background evictor {1}")
    @MethodSource("policiesAndEvictor")
    void recordsSpanningTwoPagesReadThroughLinkedCursorsAreNeverAcceptedTorn(String policy, boolean evictor) throws Exception {
        PageCacheConfig config = config(policy, evictor);
        Path path = dir.resolve("spanning.db");
        AtomicLongArray committed = StressWorkload.nothingCommitted();
        long accepted;
        PageCacheStats stats;
        try (PageCache cache = PageCache.open(config)) {
            PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE);
            accepted = StressWorkload.runSpanning(file, committed);
            file.close();
            stats = cache.stats();
        }
        assertTrue(accepted > 0, "records were read");
        assertTrue(stats.evictions() > 0, "the file is ten times the cache, so pages must have been evicted: " + stats);
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE, false)) {
            StressWorkload.verifySpanning(file, committed, "after reopen");
        }
    }

    private static PageCacheConfig config(String policy, boolean evictor) {
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(StressWorkload.FRAMES * StressWorkload.PAGE_SIZE),
            "pagecache.page_size", String.valueOf(StressWorkload.PAGE_SIZE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", String.valueOf(evictor)));
    }

    /** The fallback for JDKs where zero-copy IO is unavailable: every page copied through a scratch buffer. */
    @Test
    void theCopyingFallbackKeepsEveryPageToo() throws Exception {
        runAndVerify("muninn", true, (file, fileId, filePageSize, create) -> new FileSwapper(file, filePageSize, create, false));
    }

    private void runAndVerify(String policy, boolean evictor, PageSwapperFactory swappers) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(StressWorkload.FRAMES * StressWorkload.PAGE_SIZE),
            "pagecache.page_size", String.valueOf(StressWorkload.PAGE_SIZE),
            "pagecache.policy", policy,
            "pagecache.evictor.enabled", String.valueOf(evictor)));
        Path path = dir.resolve("stress.db");
        AtomicLongArray committed = StressWorkload.nothingCommitted();
        PageCacheStats stats;
        try (PageCache cache = PageCache.open(config, swappers)) {
            PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE);
            StressWorkload.run(file, committed);
            file.close();
            stats = cache.stats();
        }
        assertTrue(stats.evictions() > 0, "the file is ten times the cache, so pages must have been evicted: " + stats);
        if (!evictor) {
            assertEquals(0, stats.backgroundEvictions(), "no background evictions with the evictor off: " + stats);
        }
        try (PageCache cache = PageCache.open(config, swappers); PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE, false)) {
            StressWorkload.verify(file, committed, "after reopen");
        }
    }
}
