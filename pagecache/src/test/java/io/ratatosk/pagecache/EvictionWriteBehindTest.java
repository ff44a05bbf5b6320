package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background evictor writes a dirty victim out together with the dirty pages adjacent to it, in one
 * call: they stay resident and clean, and every byte reaches the file.
 */
class EvictionWriteBehindTest {
    private static final int PAGE = 4096;
    private static final long[] BODY = new long[PageContent.bodyWords(PAGE)];

    @TempDir
    Path dir;

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    @Test
    void aBackgroundEvictionWritesTheVictimsDirtyRunInOneCall() throws IOException {
        Path path = dir.resolve("behind.db");
        int pages = 64; // a quarter of the 256 frames: all resident, all dirty, one run
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
            for (long p = 0; p < pages; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    PageContent.write(c, p, 7);
                }
            }
            EvictionEngine engine = cache.engine();
            int victim = engine.evict(Sweep.background());
            assertNotEquals(EvictionEngine.NO_FRAME, victim);
            engine.free(victim);

            IoStats io = cache.stats().io();
            assertEquals(1, io.writeCalls(), "one call for the victim and its neighbours: " + io);
            assertEquals(pages, io.pagesWritten(), io.toString());
            FrameTable frames = cache.frames();
            int dirtyLeft = 0;
            for (long p = 0; p < pages; p++) {
                int entry = file.table().get(p);
                if (entry > 0 && frames.isModified(entry - 1)) {
                    dirtyLeft++;
                }
            }
            assertEquals(0, dirtyLeft, "the neighbours written behind are clean");
            file.flush();
            assertEquals(1, cache.stats().io().writeCalls(), "the flush found nothing left to write");
        }
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE, false)) {
            for (long p = 0; p < pages; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    assertEquals(7, PageContent.readValidated(c, p, BODY), "page " + p);
                }
            }
        }
    }

    @Test
    void aNeighbourHeldByAFlusherEndsTheRunAndStaysDirty() throws IOException {
        Path path = dir.resolve("held.db");
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
            for (long p = 0; p < 8; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next());
                    PageContent.write(c, p, 3);
                }
            }
            FrameTable frames = cache.frames();
            int held = file.table().get(4) - 1;
            long stamp = frames.tryFlushLock(held);
            assertNotEquals(FrameTable.FLUSH_LOCK_FAILED, stamp);
            try {
                int victim = cache.engine().evict(Sweep.background());
                assertNotEquals(EvictionEngine.NO_FRAME, victim);
                cache.engine().free(victim);
            } finally {
                frames.unlockFlush(held, stamp, false);
            }
            assertTrue(frames.isModified(held), "the page the evictor could not lock was not written");
            assertFalse(cache.stats().io().pagesWritten() > 7);
        }
    }
}
