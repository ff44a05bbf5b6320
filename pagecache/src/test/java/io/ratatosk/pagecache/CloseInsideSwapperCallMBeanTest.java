package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swapper that closes its own page cache from inside a read is refused (the close would wait for that read), and the
 * refusal leaves the open cache's MBean alone: the close unregistered the bean before closeAll refused it, then put it
 * back, so that JMX clients saw the cache go and come back.
 */
class CloseInsideSwapperCallMBeanTest {
    @TempDir
    Path dir;

    @Test
    void aCloseRefusedInsideASwapperCallLeavesTheBeanRegistered() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        AtomicReference<PageCache> self = new AtomicReference<>();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size",
                "8k", "pagecache.jmx.enabled", "true", "pagecache.warmup.enabled", "false", "pagecache.name",
                "closed-inside-a-read")),
            SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public int read(long pageId, long address) throws IOException {
                    PageCache closing = self.getAndSet(null);
                    if (closing != null) {
                        try {
                            closing.close();
                        } catch (Throwable t) {
                            refused.set(t);
                        }
                    }
                    return super.read(pageId, address);
                }
            }));
        ObjectName bean = cache.mbeanName();
        List<ObjectName> unregistered = new CopyOnWriteArrayList<>();
        NotificationListener listener = (notification, handback) -> {
            if (notification instanceof MBeanServerNotification n
                && MBeanServerNotification.UNREGISTRATION_NOTIFICATION.equals(n.getType())) {
                unregistered.add(n.getMBeanName());
            }
        };
        server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, listener, null, null);
        try (PagedFile file = cache.map(dir.resolve("a.db"), 8192)) {
            self.set(cache);
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next()); // a write cursor's fault reads the empty file's page 0
            }
            assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
            assertTrue(server.isRegistered(bean), "the open cache's bean");
            assertEquals(List.of(), unregistered.stream().filter(bean::equals).toList(), "the bean was never taken out");
        } finally {
            server.removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, listener);
            cache.close();
        }
        assertTrue(cache.isClosed());
    }
}
