package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.config.Flag;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Javadoc promises of the public package that no other test held to account. */
class PublicApiPromiseTest {
    @TempDir
    Path dir;

    /**
     * PageCacheConfig's class Javadoc names the flags whose unset value the by-name accessors refuse with an
     * IllegalStateException (their default is the policy's to compute): exactly those, each named in its message; every
     * other flag reads its default, keep_free as keepFree().
     */
    @Test
    void theFlagsWhoseUnsetValueIsRefusedAreTheOnesTheJavadocNames() {
        PageCacheConfig defaults = PageCacheConfig.defaults();
        Set<String> refused = new TreeSet<>();
        for (Flag flag : PageCacheFlags.ALL.all()) {
            try {
                defaults.getString(flag.name());
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().startsWith(flag.name() + " is not set"), e.getMessage());
                refused.add(flag.name());
            }
        }
        assertEquals(new TreeSet<>(Set.of("pagecache.clock.max_usage", "pagecache.clockpro.cold_min",
            "pagecache.clockpro.cold_max", "pagecache.clockpro.ghosts", "pagecache.history.bits",
            "pagecache.history.capacity", "pagecache.history.boost_usage", "pagecache.tinylfu.window")), refused,
            "the flags PageCacheConfig's Javadoc names as refused while unset");
        assertEquals(Integer.toString(defaults.keepFree()), defaults.getString("pagecache.evictor.keep_free"));
        assertEquals(defaults.keepFree(), defaults.getInt("pagecache.evictor.keep_free"));
    }

    /** PageCache.map(path, size, false): a missing file, and a dangling link, are a NoSuchFileException naming the path. */
    @Test
    void mapWithoutCreateRefusesAMissingFileAndADanglingLinkWithNoSuchFile() throws Exception {
        Path missing = dir.resolve("missing.db");
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.db"), dir.resolve("gone.db"));
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")))) {
            for (Path path : new Path[] {missing, dangling}) {
                NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> cache.map(path, 8192, false));
                assertTrue(e.getMessage().contains(path.getFileName().toString())
                    || e.getMessage().contains("gone.db"), e.getMessage());
            }
            assertFalse(Files.exists(missing), "a refused map creates nothing");
            assertFalse(Files.exists(dir.resolve("gone.db")), "nor the link's target");
        }
    }

    /**
     * PagedFile.maxPageId(): the highest id whose page ends within a long's byte offsets (so that fileSize() of a file
     * reaching it is a long) and whose id fits 48 bits; io() refuses the next id. With 1 MiB pages the offset is the bound
     * (the next page would begin at a long's offset, but end past it), with 8 KiB pages the 48 bits.
     */
    @Test
    void maxPageIdIsTheLastPageThatEndsWithinALongAndHasA48BitId() throws Exception {
        for (String pageSize : new String[] {"1m", "8k"}) {
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "4m",
                "pagecache.page_size", pageSize, "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")));
                 PagedFile file = cache.map(dir.resolve("max-" + pageSize + ".db"), cache.pageSize())) {
                long max = file.maxPageId();
                long size = file.pageSize();
                Math.multiplyExact(max + 1, size); // its end is a long
                assertTrue(max <= (1L << 48) - 1, "a 48-bit id: " + max);
                assertTrue(max == (1L << 48) - 1 || endOverflows(max + 1, size),
                    "the next page would end past a long's offsets, or its id pass 48 bits: " + max);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> file.io(max + 1, PagedFile.PF_SHARED_READ_LOCK));
                assertTrue(e.getMessage().contains("pageId=" + (max + 1)), e.getMessage());
                // With 1 MiB pages the refused page begins at a long's offset: a message saying the offset must fit one
                // contradicts the refusal. It says the bound that refused it.
                assertTrue(e.getMessage().contains("must end within") && !e.getMessage().contains("offset must fit"),
                    e.getMessage());
            }
        }
    }

    private static boolean endOverflows(long pageId, long pageSize) {
        try {
            Math.multiplyExact(pageId + 1, pageSize);
            return false;
        } catch (ArithmeticException overflow) {
            return true;
        }
    }
}
