package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.tier.SwapTier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plug-in tier whose {@link SwapTier#servesCache} fails with a bug of its own (a bare NullPointerException) fails the
 * open naming the tier and the hook, as {@code counters()} does: it came out as it was, naming neither. A tier's own
 * refusal (an IllegalStateException: it serves another cache) passes as it is.
 */
class ServesCacheFailureTest {
    @TempDir
    Path dir;

    @Test
    void aBugInTheTiersServesCacheFailsTheOpenNamingTheTierAndTheHook() throws IOException {
        NullPointerException bug = new NullPointerException();
        BuggyTier tier = new BuggyTier(bug);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> PageCache.open(config(), tier));
        assertTrue(refused.getMessage().contains("servesCache"), refused.getMessage());
        assertTrue(refused.getMessage().contains(tier.toString()), refused.getMessage());
        assertSame(bug, refused.getCause());

        tier.failure = null; // the failed open gave the tier back: it serves a cache now
        try (PageCache cache = PageCache.open(config(), tier)) {
            cache.map(dir.resolve("a.db"), 4096).close();
        }
    }

    @Test
    void theTiersOwnRefusalPassesAsItIs() {
        IllegalStateException own = new IllegalStateException("the tier already serves an open page cache");
        assertSame(own, assertThrows(IllegalStateException.class, () -> PageCache.open(config(), new BuggyTier(own))));
    }

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "4k",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    /** A tier over plain files whose servesCache throws {@link #failure} while it is set. */
    private static final class BuggyTier extends PlainFilesTier {
        volatile RuntimeException failure;

        BuggyTier(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void servesCache(BooleanSupplier cacheOpen) {
            RuntimeException f = failure;
            if (f != null) {
                throw f;
            }
        }
    }
}
