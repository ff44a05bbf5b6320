package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.nio.file.Path;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * An {@code Error} that comes after an eviction unbound its victim (the JFR eviction event's, under a recording that
 * enables it: an {@code OutOfMemoryError} building the file's name) leaves the frame usable: the eviction is done, so
 * the frame goes back to the free list, unlocked, and the Error goes on to the caller. The frame stayed exclusively
 * locked, unbound and off the free list for good: one frame fewer for the cache's life, pinned in the eyes of every
 * later eviction.
 */
class EvictionErrorAfterUnbindTest {
    private static final int FILE_ID = 1;

    @Test
    void anErrorFromTheEvictionEventGivesTheEvictedFrameBack() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        OutOfMemoryError failure = new OutOfMemoryError("Java heap space (injected: naming the file for the event)");
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("first-frame") {
            @Override
            public int nextVictim(Sweep sweep) {
                return 0;
            }
        });
        try (Recording recording = new Recording()) {
            recording.enable("io.ratatosk.Eviction");
            recording.start();
            engine.register(FILE_ID, new CleanPagesFailingToBeNamed(failure));
            for (int frame = engine.tryGrabFreeFrame(), page = 0; frame >= 0; frame = engine.tryGrabFreeFrame(), page++) {
                engine.bind(frame, PageKey.of(FILE_ID, page));
                engine.frames().unlockExclusive(frame);
            }
            assertEquals(0, engine.freeFrames());

            assertSame(failure, assertThrows(OutOfMemoryError.class, engine::grabFrame));

            assertEquals(PageKey.UNBOUND, engine.frames().binding(0), "the victim was evicted");
            assertTrue(engine.frames().isUnlocked(0), "the evicted frame is not left locked");
            assertEquals(1, engine.freeFrames(), "the evicted frame went back to the free list");
            assertEquals(1, engine.counters().get(io.ratatosk.pagecache.internal.CacheCounter.COOPERATIVE_EVICTIONS),
                "the eviction is counted");
            assertEquals(0, engine.tryGrabFreeFrame(), "and a fault gets it");
        } finally {
            engine.close();
        }
    }

    /** A file of clean pages whose name cannot be had: the eviction event's failure. */
    private static final class CleanPagesFailingToBeNamed extends CleanPagesOwner {
        private final Error failure;

        CleanPagesFailingToBeNamed(Error failure) {
            super(Path.of("unnamed.db"));
            this.failure = failure;
        }

        @Override
        public Path path() {
            throw failure;
        }
    }
}
