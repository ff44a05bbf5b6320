package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault that must evict, whose victim's write-out fails, throws that failure (the pending eviction error, reported
 * once, to the fault that needed the frame); a cursor waiting for that fault's page is not told of it: it is another
 * page's failure, not this page's, and the waiter's own fault evicts another frame. It was recorded as the page's
 * failure, and every cursor waiting for the page threw it too, though its own read would have succeeded.
 */
class EvictionFailureNotSharedTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    @Test
    void aCursorWaitingForAFaultWhoseEvictionFailedFaultsThePageItself() throws Exception {
        Path path = dir.resolve("f.db");
        CountDownLatch evicting = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        AtomicBoolean failNextEviction = new AtomicBoolean();
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void evict(long pageId, long address, boolean dirty) throws IOException {
                if (failNextEviction.compareAndSet(true, false)) {
                    evicting.countDown();
                    Waits.awaitQuietly(fail);
                    throw new IOException("injected eviction failure");
                }
                super.evict(pageId, address, dirty);
            }
        }))) {
            int frames = cache.frameCount();
            long target = frames + 5;
            try (PagedFile file = cache.map(path, PAGE); PageCursor w = file.io(target, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, target);
            } // unmapped: the file holds the target page, the cache nothing
            try (PagedFile file = cache.map(path, PAGE)) {
                try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (int p = 0; p < frames; p++) { // every frame dirty: a fault must evict, and write its victim out
                        assertTrue(w.next());
                        w.putLong(0, p);
                    }
                }
                failNextEviction.set(true);
                AtomicReference<Throwable> faulterFailure = new AtomicReference<>();
                Thread faulter = StaleFaultFailureTest.reader(file, target, faulterFailure, new AtomicReference<>(), "faulter");
                faulter.start();
                Waits.await(evicting, "the fault's eviction", faulter);
                AtomicReference<Throwable> waiterFailure = new AtomicReference<>();
                AtomicReference<Long> waiterRead = new AtomicReference<>();
                Thread waiter = StaleFaultFailureTest.reader(file, target, waiterFailure, waiterRead, "waiter");
                waiter.start();
                Waits.until(() -> StaleFaultFailureTest.inFaultWait(waiter), "the waiter asleep on the fault", waiter);
                fail.countDown();
                Waits.join(faulter, "the faulter");
                Waits.join(waiter, "the waiter");
                assertTrue(faulterFailure.get() instanceof IOException
                    && faulterFailure.get().getMessage().contains("injected eviction failure"),
                    "the fault that needed the frame reports the eviction's failure: " + faulterFailure.get());
                assertNull(waiterFailure.get(), "the waiter's own fault evicts another frame");
                assertEquals(target, waiterRead.get());
            }
        }
    }
}
