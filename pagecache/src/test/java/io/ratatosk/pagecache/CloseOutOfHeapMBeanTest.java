package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache's close takes its MBean out of the platform MBean server (pagecache.jmx.enabled, on by default) even
 * where the swapper factory's close fills the heap: unregistering allocates, and it was the close's last step, after the
 * factory's, so with the heap full the close threw an OutOfMemoryError where nothing had failed, and the bean stayed
 * registered for the JVM's life, the closed cache's counters and engine reachable from the server and its name taken.
 * In a JVM of its own, whose heap the factory's close fills.
 */
class CloseOutOfHeapMBeanTest {
    @TempDir
    Path dir;

    @Test
    void aCloseWhoseFactoryFillsTheHeapStillUnregistersTheMBean() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", CloseWithTheHeapFull.class, dir.toString());
    }

    /** One cache with its MBean, one file written; the factory's close fills the heap and returns normally. */
    static final class CloseWithTheHeapFull {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]).resolve("a.db");
            FileSwapperFactory real = new FileSwapperFactory();
            PageSwapperFactory swappers = new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                    return real.create(path, fileId, filePageSize, create);
                }

                @Override
                public void close() throws IOException {
                    real.close();
                    HeapFiller.fillAndHold();
                }
            };
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
                "pagecache.page_size", "8k", "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "true",
                "pagecache.warmup.enabled", "false", "pagecache.name", "heap-full")), swappers);
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
                wrong += "the close threw " + failure + " where nothing failed; ";
            }
            if (!cache.isClosed() || !cache.isMemoryReleased()) {
                wrong += "the cache is not closed with its memory freed; ";
            }
            if (ManagementFactory.getPlatformMBeanServer().isRegistered(bean)) {
                wrong += "the closed cache's MBean " + bean + " is still registered; ";
            }
            ChildJvm.exit(wrong, "closed, its MBean unregistered");
        }
    }
}
