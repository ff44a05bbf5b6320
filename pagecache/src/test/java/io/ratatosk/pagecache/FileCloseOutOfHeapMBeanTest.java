package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache's close takes its MBean out of the platform MBean server (pagecache.jmx.enabled, on by default) even
 * where a mapped file's swapper close, which the cache's close runs before it unregisters the bean, fills the heap:
 * unregistering allocates, and the bean stayed registered for the JVM's life, the closed cache reachable from the server
 * and its name taken. In a JVM of its own, whose heap the file's close fills.
 */
class FileCloseOutOfHeapMBeanTest {
    @TempDir
    Path dir;

    @Test
    void aCloseWhoseFilesSwapperFillsTheHeapStillUnregistersTheMBean() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "32m", CloseWithTheHeapFull.class, dir.toString());
        assertEquals(0, child.status(), child.output());
    }

    @Test
    void aCloseThatLeavesTheCacheOpenLeavesItsMBeanRegistered() throws Exception {
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
            "pagecache.page_size", "8k", "pagecache.jmx.enabled", "true", "pagecache.name", "refused-close")));
        ObjectName bean = cache.mbeanName();
        try (PagedFile file = cache.map(dir.resolve("held.db"), 8192);
             PageCursor writer = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(writer.next());
            assertThrows(IllegalStateException.class, cache::close, "a write cursor holds a page");
            assertFalse(cache.isClosed());
            assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(bean), "the open cache's bean is back");
        }
        cache.close();
        assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(bean), "the closed cache's bean is gone");
    }

    @Test
    void aCacheOpenedUnderTheNameWhileARefusedCloseHadTheBeanOutLeavesBothCachesTheirBeans() throws Exception {
        // The close takes the bean out first; a cache opened under the same pagecache.name meanwhile takes the freed name.
        // The close then fails (a write cursor holds a page) and the cache stays open: its bean must go back somewhere.
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, String> settings = Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
            "pagecache.jmx.enabled", "true", "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false",
            "pagecache.name", "name-taken-meanwhile");
        AtomicBoolean hold = new AtomicBoolean();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        PageCache cache = PageCache.open(PageCacheConfig.parse(settings),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                private void holdOnce() {
                    if (hold.compareAndSet(true, false)) {
                        held.countDown();
                        Waits.awaitQuietly(letGo);
                    }
                }

                @Override
                public void write(long pageId, long address) throws IOException {
                    holdOnce();
                    super.write(pageId, address);
                }

                @Override
                public void write(long startPageId, long[] addresses, int count) throws IOException {
                    holdOnce();
                    super.write(startPageId, addresses, count);
                }

                @Override
                public void force() throws IOException {
                    holdOnce();
                    super.force();
                }
            }));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        PageCache other = null;
        try {
            PagedFile file = cache.map(dir.resolve("held-while-taken.db"), 8192);
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.putLong(0, 7);
            }
            try (PageCursor writer = file.io(1, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(writer.next());
                hold.set(true);
                Future<?> close = pool.submit(() -> {
                    cache.close();
                    return null;
                });
                Waits.await(held, "the close reached its write or force of the file");
                other = PageCache.open(PageCacheConfig.parse(settings));
                letGo.countDown();
                ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> close.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS), "a write cursor holds a page");
                assertTrue(refused.getCause() instanceof IllegalStateException, String.valueOf(refused.getCause()));
                assertFalse(cache.isClosed());
                assertTrue(server.isRegistered(cache.mbeanName()), "the open cache's bean is back: " + cache.mbeanName()
                    + ", the close's failure: " + refused.getCause() + " suppressed "
                    + Arrays.toString(refused.getCause().getSuppressed()));
                assertTrue(server.isRegistered(other.mbeanName()), "the other cache's bean stays");
                assertNotEquals(cache.mbeanName(), other.mbeanName(), "each cache names its own bean");
            }
            cache.close();
            assertFalse(server.isRegistered(cache.mbeanName()), "the closed cache's bean is gone");
            assertTrue(server.isRegistered(other.mbeanName()), "the other cache's bean stays");
        } finally {
            letGo.countDown();
            pool.shutdownNow();
            cache.close();
            if (other != null) {
                other.close();
            }
        }
    }

    /** One cache with its MBean, one file written; the file's swapper close fills the heap and returns normally. */
    static final class CloseWithTheHeapFull {

        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]).resolve("a.db");
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
                    "pagecache.page_size", "8k", "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "true",
                    "pagecache.warmup.enabled", "false", "pagecache.name", "file-heap-full")),
                SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                    @Override
                    public void close() throws IOException {
                        super.close();
                        HeapFiller.fillAndHold();
                    }
                }));
            ObjectName bean = cache.mbeanName();
            String wrong = "";
            if (!ManagementFactory.getPlatformMBeanServer().isRegistered(bean)) {
                wrong += "the open cache's MBean " + bean + " is not registered; ";
            }
            try (PageCursor c = cache.map(file, 8192).io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 42);
            }
            Throwable failure = HeapFiller.closeAndRelease(cache);
            if (failure != null) {
                failure.printStackTrace(System.out);
                wrong += "the close threw " + failure + " where nothing failed; ";
            }
            if (!cache.isClosed() || !cache.isMemoryReleased()) {
                wrong += "the cache is not closed with its memory freed; ";
            }
            if (ManagementFactory.getPlatformMBeanServer().isRegistered(bean)) {
                wrong += "the closed cache's MBean " + bean + " is still registered; ";
            }
            if (!wrong.isEmpty()) {
                System.out.println(wrong);
                System.exit(1);
            }
            System.out.println("closed, its MBean unregistered");
            System.exit(0);
        }
    }
}
