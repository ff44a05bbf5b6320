package io.ratatosk.pagecache;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache whose frames' bookkeeping (free list, policy arrays) does not fit the heap fails to open naming the flags
 * that sized it, not with a bare "Java heap space"; and keeps nothing, so the same JVM opens a smaller one.
 */
class OpenOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void framesWhoseBookkeepingDoesNotFitTheHeapFailTheOpenNamingTheFlags() throws Exception {
        ChildJvm.assertSucceeds(dir, "16m", OpenTooManyFrames.class);
    }

    /** In a JVM of 16 MiB heap: 4M frames of 512 bytes (a free list of 16 MiB alone), then 64 frames. */
    static final class OpenTooManyFrames {
        public static void main(String[] args) throws Exception {
            Map<String, String> flags = Map.of("pagecache.memory", "2g", "pagecache.page_size", "512",
                "pagecache.policy", "muninn", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false");
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
                System.out.println("opened 4M frames, which 16 MiB of heap should not allow");
                System.exit(2);
            } catch (Throwable t) {
                String message = String.valueOf(t.getMessage());
                for (String expected : new String[] {"4194304 frames", "pagecache.memory=2147483648", "pagecache.page_size=512",
                    "pagecache.policy=muninn"}) {
                    if (!(t instanceof IllegalStateException) || !message.contains(expected)) {
                        System.out.println("the failure does not name " + expected + ": " + t);
                        System.exit(1);
                    }
                }
            }
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "32k",
                "pagecache.page_size", "512", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false")))) {
                System.out.println("a small cache opens: " + cache.frameCount() + " frames");
            }
            System.exit(0);
        }
    }
}
