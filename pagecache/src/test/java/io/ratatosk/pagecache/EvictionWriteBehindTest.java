package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.Sweep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * The background evictor and read-ahead workers both evict with background sweeps, so two threads may
     * write dirty runs of one file at once: each run must stay its own (it once shared one scratch run, and the
     * write-outs failed, wrote pages to each other's places, and left flush locks held that hung the close).
     */
    @Test
    void twoBackgroundSweepsWritingOutRunsOfOneFileAtOnceKeepEveryPage() throws Exception {
        Path path = dir.resolve("two.db");
        int pages = 600; // past the 256 frames, so the writer's faults need the frames the sweeps free
        long[] versions = new long[pages];
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE)) {
            EvictionEngine engine = cache.engine();
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] sweepers = new Thread[2];
            for (int t = 0; t < sweepers.length; t++) {
                sweepers[t] = new Thread(() -> {
                    Sweep sweep = Sweep.background();
                    try {
                        while (!done.get()) {
                            int victim = engine.evict(sweep);
                            if (victim != EvictionEngine.NO_FRAME) {
                                engine.free(victim);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "sweeper " + t);
                sweepers[t].setDaemon(true); // one stuck for good must not keep the test JVM alive
                sweepers[t].start();
            }
            Random random = new Random(42);
            try {
                for (int round = 0; round < 5_000 && failure.get() == null; round++) {
                    long start = random.nextInt(pages - 7);
                    for (long p = start; p < start + 8; p++) { // runs of adjacent dirty pages
                        try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                            assertTrue(c.next());
                            PageContent.write(c, p, ++versions[(int) p]);
                        }
                    }
                }
            } finally {
                done.set(true);
                for (Thread sweeper : sweepers) {
                    Waits.join(sweeper, "a sweeper");
                }
            }
            assertNull(failure.get(), () -> "a sweeper failed: " + failure.get());
            assertEquals(0, cache.stats().evictionErrors(), cache.stats().toString());
            for (long p = 0; p < pages; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    assertEquals(versions[(int) p], PageContent.readValidated(c, p, BODY), "page " + p + " in the cache");
                }
            }
        }
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE, false)) {
            for (long p = 0; p < pages; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    assertEquals(versions[(int) p], PageContent.readValidated(c, p, BODY), "page " + p + " on disk");
                }
            }
        }
    }
}
