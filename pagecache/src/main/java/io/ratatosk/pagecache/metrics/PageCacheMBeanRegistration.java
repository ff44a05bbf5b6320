package io.ratatosk.pagecache.metrics;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A page cache's MBean in the platform MBean server, from open to close. Two caches open at once under
 * one {@code pagecache.name} both show: the first gets {@code name=<name>}, the next {@code name=<name>-2},
 * and so on (the name an operator looks for stays with the cache opened first; {@link #objectName()} says
 * which one a cache got). Unregistering is idempotent.
 */
public final class PageCacheMBeanRegistration implements AutoCloseable {
    /** The domain and type every page cache's MBean is registered under. */
    public static final String DOMAIN_AND_TYPE = "io.ratatosk:type=PageCache";
    private static final int MAX_SUFFIX = 10_000;

    private final MBeanServer server;
    private final ObjectName name;
    private boolean registered;

    private PageCacheMBeanRegistration(MBeanServer server, ObjectName name) {
        this.server = server;
        this.name = name;
        this.registered = true;
    }

    /** Registers {@code bean} under {@code io.ratatosk:type=PageCache,name=<cacheName>} (or the first free suffix). */
    public static PageCacheMBeanRegistration register(String cacheName, PageCacheMXBean bean) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (int suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
            ObjectName name = objectName(suffix == 1 ? cacheName : cacheName + "-" + suffix);
            try {
                server.registerMBean(bean, name);
                return new PageCacheMBeanRegistration(server, name);
            } catch (InstanceAlreadyExistsException taken) {
                // another open cache has this name: try the next suffix
            } catch (JMException e) {
                throw new IllegalStateException("cannot register the page cache's MBean " + name
                    + " (pagecache.jmx.enabled=true; set it to false to do without): " + e, e);
            }
        }
        throw new IllegalStateException("cannot register the page cache's MBean: " + MAX_SUFFIX + " caches named "
            + cacheName + " are open (pagecache.name=" + cacheName + ")");
    }

    /** {@code io.ratatosk:type=PageCache,name=<name>}. */
    public static ObjectName objectName(String name) {
        try {
            return new ObjectName(DOMAIN_AND_TYPE + ",name=" + name);
        } catch (JMException e) {
            throw new IllegalArgumentException("pagecache.name=" + name + " makes no valid JMX object name: " + e, e);
        }
    }

    public ObjectName objectName() {
        return name;
    }

    @Override
    public synchronized void close() {
        if (!registered) {
            return;
        }
        registered = false;
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // unregistered by someone else: nothing left to do
        } catch (JMException e) {
            throw new IllegalStateException("cannot unregister the page cache's MBean " + name + ": " + e, e);
        }
    }
}
