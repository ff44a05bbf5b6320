package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameTable;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A policy's onHit that throws inside a write cursor's pin of a resident page: the next() fails, and the cursor is on
 * no page (getCurrentPageId() -1, as after any failed next()), holding no lock, as a read cursor's pin leaves it. The
 * write pin locked the page before it told the policy, and a throw there left the cursor pinned and write-locked on the
 * new page while getCurrentPageId() named the page it had left: a put landed on a page the cursor did not report, and
 * the lock stayed until the cursor's close.
 */
class HitFailureInWritePinTest {
    private static final int PAGE_SIZE = 8192;

    @Test
    void aWriteCursorWhosePolicyHitThrowsIsLeftOnNoPageAndHoldsNoLock() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        AtomicBoolean hitFails = new AtomicBoolean();
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("throws-on-hit") {
            @Override
            public void onHit(int frame) {
                if (hitFails.get()) {
                    throw new IllegalStateException("STUB: the policy's onHit fails");
                }
            }
        });
        try {
            FileMapping mapping = new FileMapping(engine, m -> { }, 1, Path.of("hit-fails.db"), "identity", PAGE_SIZE,
                new ZeroPagesSwapper(PAGE_SIZE, 4));
            engine.register(1, mapping);
            PagedFile file = new PagedFile(mapping);
            FrameTable frames = engine.frames();
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next()); // page 0, faulted in: no onHit
                assertTrue(c.next()); // page 1
                int page0 = mapping.table().get(0) - 1;
                assertTrue(page0 >= 0, "page 0 is resident");
                assertEquals(0, frames.writeLockCount(page0));

                hitFails.set(true);
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.next(0)); // a hit
                assertTrue(e.getMessage().startsWith("STUB"), e.getMessage());
                assertEquals(-1, c.getCurrentPageId(), "the next() failed: the cursor is on no page");
                assertEquals(0, frames.writeLockCount(page0), "the cursor holds no lock on the page it failed to move to");
                int page1 = mapping.table().get(1) - 1;
                assertEquals(0, frames.writeLockCount(page1), "nor on the page it left");

                hitFails.set(false);
                assertTrue(c.next(0), "the cursor moves again");
                assertEquals(0, c.getCurrentPageId());
                assertEquals(1, frames.writeLockCount(page0));
            }
            assertEquals(0, frames.writeLockCount(mapping.table().get(0) - 1), "the close let go");
        } finally {
            engine.close();
        }
    }
}
