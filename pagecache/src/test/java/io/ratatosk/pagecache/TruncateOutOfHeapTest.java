package io.ratatosk.pagecache;

import io.ratatosk.core.PageKey;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncate that runs out of heap while it holds the pages past the cut (its lists of them growing) leaves none of
 * them locked: it held every such page's exclusive lock while it sorted the clean ones from the dirty ones into a list
 * that grew, and when that growth threw the dirty pages stayed locked for good: every cursor on them waited for ever,
 * and so did the unmap of the file, and the cache's close. In a JVM of its own, whose heap the test fills as the
 * truncate drops the first clean page (the policy's onEvicted).
 */
class TruncateOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aTruncateRunningOutOfHeapLeavesNoPageLocked() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", TruncateWithTheHeapFull.class);
    }

    /** A file of 16 pages, page 0 clean and the rest dirty, truncated to 0 as the heap fills; then every frame looked at. */
    static final class TruncateWithTheHeapFull {
        private static final int PAGE_SIZE = 8192;
        private static final int PAGES = 16;
        static volatile boolean fillOnEviction;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(PAGES * PAGE_SIZE),
                "pagecache.page_size", "8k", "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false",
                "pagecache.warmup.enabled", "false"));
            EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert") {
                @Override
                public void onEvicted(int frame, long pageKey) {
                    if (fillOnEviction) {
                        fillOnEviction = false;
                        HeapFiller.fillAndHold();
                    }
                }
            });
            FileMapping file = new FileMapping(engine, mapping -> { }, 1, Path.of("cut.db"), "identity", PAGE_SIZE,
                new ZeroPagesSwapper(PAGE_SIZE, PAGES));
            engine.register(1, file);
            for (int page = 0; page < PAGES; page++) {
                int frame = file.faultIn(page, PageKey.of(1, page), page > 0, true);
                if (page > 0) {
                    engine.frames().exclusiveToWriteLock(frame); // dirty
                    engine.frames().unlockWrite(frame);
                } else {
                    engine.frames().unlockExclusive(frame);
                }
            }
            fillOnEviction = true;
            Throwable failure = null;
            try {
                file.truncate(0);
            } catch (Throwable t) {
                failure = t;
            }
            HeapFiller.release();
            for (int frame = 0; frame < PAGES; frame++) {
                if (engine.frames().isExclusivelyLocked(frame)) {
                    System.out.println("frame " + frame + " (page " + PageKey.pageId(engine.frames().binding(frame))
                        + ") is left exclusively locked by the truncate, which " + (failure == null ? "returned"
                        : "failed with " + failure));
                    System.exit(1);
                }
            }
            System.out.println("no frame is left locked by the truncate, which " + (failure == null ? "returned"
                : "failed with " + failure));
            System.exit(0);
        }
    }
}
