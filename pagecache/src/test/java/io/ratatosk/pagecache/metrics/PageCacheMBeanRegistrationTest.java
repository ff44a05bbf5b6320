package io.ratatosk.pagecache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class PageCacheMBeanRegistrationTest {
    /**
     * Someone else (a harness's clean-up, a management agent) unregisters a cache's bean just as the cache closes, after
     * the close looked whether its bean was still there and before its unregister, and a second cache registers under
     * the freed name in between: the close's unregister, by name, then met the second cache's bean and took it away,
     * while that cache was open. The second cache's bean stays now, and the first close throws nothing.
     */
    @Test
    void aCloseLeavesTheBeanOfACacheThatTookTheNameBetweenItsLookAndItsUnregister() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        String cacheName = "registration-window-" + ProcessHandle.current().pid();
        PageCacheMXBean secondBean = new PageCacheMetrics(cacheName, () -> null);
        PageCacheMBeanRegistration[] second = new PageCacheMBeanRegistration[1];
        // The platform server, but the first unregister of the name lets the other two players in first.
        MBeanServer racing = (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(),
            new Class<?>[] {MBeanServer.class}, (proxy, method, args) -> {
                if (method.getName().equals("unregisterMBean") && second[0] == null) {
                    platform.unregisterMBean((ObjectName) args[0]); // someone else's clean-up
                    second[0] = PageCacheMBeanRegistration.register(cacheName, secondBean); // takes the freed name
                }
                try {
                    return method.invoke(platform, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        PageCacheMBeanRegistration first = PageCacheMBeanRegistration.register(racing, cacheName,
            new PageCacheMetrics(cacheName, () -> null));
        ObjectName name = first.objectName();
        try {
            first.close();

            assertEquals(name, second[0].objectName(), "the second cache took the name the first one had");
            assertTrue(platform.isRegistered(name), "the second cache's bean is still registered after the first's close");
            assertEquals(cacheName, platform.getAttribute(name, "Name"));
        } finally {
            if (second[0] != null) {
                second[0].close();
            }
        }
        assertFalse(platform.isRegistered(name), "the second cache's own close unregisters its bean");
    }
}
