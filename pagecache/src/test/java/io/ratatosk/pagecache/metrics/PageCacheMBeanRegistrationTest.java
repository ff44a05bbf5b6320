package io.ratatosk.pagecache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.BiFunction;
import javax.management.JMRuntimeException;
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

    /** The platform server, but {@code registerMBean} does what {@code register} says with the bean and its name. */
    private static MBeanServer registeringAs(MBeanServer platform, BiFunction<Object, ObjectName, Object> register) {
        return (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(), new Class<?>[] {MBeanServer.class},
            (proxy, method, args) -> {
                if (method.getName().equals("registerMBean")) {
                    return register.apply(args[0], (ObjectName) args[1]);
                }
                try {
                    return method.invoke(platform, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    /**
     * A host's server that refuses the bean with a RuntimeException (a SecurityException for a missing MBeanPermission,
     * as a security manager or an MBeanServerForwarder throws): it came out of the open bare, naming neither the bean nor
     * the flag that does without it. Now the refusal says both, as a refusal with a JMException did.
     */
    @Test
    void aServerRefusingTheBeanWithARuntimeExceptionIsReportedNamingTheBeanAndTheFlag() {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        String cacheName = "refused-" + ProcessHandle.current().pid();
        SecurityException denied = new SecurityException("access denied (\"javax.management.MBeanPermission\" \"register\")");
        MBeanServer refusing = registeringAs(platform, (bean, name) -> {
            throw denied;
        });

        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> PageCacheMBeanRegistration.register(refusing, cacheName, new PageCacheMetrics(cacheName, () -> null)));

        assertSame(denied, refused.getCause());
        String message = refused.getMessage();
        assertTrue(message.contains(PageCacheMBeanRegistration.objectName(cacheName).toString()), message);
        assertTrue(message.contains("pagecache.jmx.enabled"), message);
        assertTrue(message.contains("access denied"), message);
    }

    /**
     * A server that registers the bean and then throws (a forwarder checking after the fact): the failed registration
     * left the bean registered, and as the open failed, no close ever took it out. Now it is unregistered before the
     * failure is thrown.
     */
    @Test
    void aServerThatThrowsAfterRegisteringTheBeanIsLeftWithoutIt() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        String cacheName = "registered-then-refused-" + ProcessHandle.current().pid();
        ObjectName name = PageCacheMBeanRegistration.objectName(cacheName);
        JMRuntimeException afterwards = new JMRuntimeException("the forwarder refuses the bean after registering it");
        MBeanServer refusingLate = registeringAs(platform, (bean, objectName) -> {
            try {
                platform.registerMBean(bean, objectName);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            throw afterwards;
        });
        try {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PageCacheMBeanRegistration.register(refusingLate, cacheName, new PageCacheMetrics(cacheName, () -> null)));

            assertSame(afterwards, refused.getCause());
            assertFalse(platform.isRegistered(name), "the bean of the failed registration is not left in the server");
        } finally {
            if (platform.isRegistered(name)) {
                platform.unregisterMBean(name);
            }
        }
    }

    /**
     * A host's server that refuses the unregister with a RuntimeException (a SecurityException): it came out of the
     * cache's close bare, naming no bean. Now the close's failure names the bean, with the refusal as its cause.
     */
    @Test
    void aServerRefusingTheUnregisterWithARuntimeExceptionIsReportedNamingTheBean() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        String cacheName = "unregister-refused-" + ProcessHandle.current().pid();
        SecurityException denied = new SecurityException("access denied (\"javax.management.MBeanPermission\" \"unregister\")");
        MBeanServer refusing = (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(),
            new Class<?>[] {MBeanServer.class}, (proxy, method, args) -> {
                if (method.getName().equals("unregisterMBean")) {
                    throw denied;
                }
                try {
                    return method.invoke(platform, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        PageCacheMBeanRegistration registration = PageCacheMBeanRegistration.register(refusing, cacheName,
            new PageCacheMetrics(cacheName, () -> null));
        ObjectName name = registration.objectName();
        try {
            IllegalStateException refused = assertThrows(IllegalStateException.class, registration::close);

            assertSame(denied, refused.getCause());
            assertTrue(refused.getMessage().contains(name.toString()), refused.getMessage());
        } finally {
            if (platform.isRegistered(name)) {
                platform.unregisterMBean(name);
            }
        }
    }
}
