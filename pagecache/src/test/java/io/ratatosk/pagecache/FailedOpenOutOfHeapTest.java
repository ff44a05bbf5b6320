package io.ratatosk.pagecache;

import io.ratatosk.pagecache.tier.SwapTier;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache whose open fails with the heap full still gives back what the open took: it released the frames' memory
 * and the swapper factory (or tier) through steps it allocated after the failure (an array of its workers, a lambda per
 * step, the array of steps), and where the heap had no room for them that OutOfMemoryError came out of the open in the
 * failure's place, the page memory never freed and the factory kept as serving an open cache, refused to every later
 * open for the JVM's life. In a JVM of its own, whose heap the tier fills as it refuses the cache.
 */
class FailedOpenOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void anOpenFailingWithTheHeapFullStillGivesItsTierBack() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", OpenWithTheHeapFull.class, dir.toString());
    }

    /** A tier whose {@link SwapTier#servesCache} refuses the cache, with the heap filled first when {@link #fillTheHeap}. */
    static final class OpenWithTheHeapFull extends PlainFilesTier {
        static volatile boolean refusing;
        static volatile boolean fillTheHeap;
        /** Made before the heap fills: the open's failure, which it must throw as itself. */
        static final IllegalStateException REFUSED = new IllegalStateException("injected: the tier refuses the cache");

        @Override
        public void servesCache(BooleanSupplier cacheOpen) {
            if (refusing) {
                if (fillTheHeap) {
                    HeapFiller.fillAndHold();
                }
                throw REFUSED;
            }
        }

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
            OpenWithTheHeapFull tier = new OpenWithTheHeapFull();
            refusing = true;
            try {
                PageCache.open(config, tier).close();
            } catch (IllegalStateException linking) {
                // links the failed open's path with the heap free: nothing new is needed for it with the heap full
            }
            fillTheHeap = true;
            Throwable failure = null;
            try {
                PageCache.open(config, tier).close();
            } catch (Throwable t) {
                failure = t;
            }
            HeapFiller.release();
            String wrong = failure == REFUSED ? ""
                : "the open threw " + failure + " in place of the tier's refusal " + REFUSED + "; ";
            refusing = false;
            try (PageCache again = PageCache.open(config, tier)) {
                again.map(Path.of(args[0]).resolve("a.db"), 8192).close();
            } catch (IllegalArgumentException kept) {
                wrong += "the failed open kept its tier as serving an open cache: " + kept;
            }
            ChildJvm.exit(wrong, "the open threw the tier's refusal, and gave the tier back");
        }
    }
}
