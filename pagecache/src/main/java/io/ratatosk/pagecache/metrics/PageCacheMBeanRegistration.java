package io.ratatosk.pagecache.metrics;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * A page cache's MBean in the platform MBean server, from open to close. Two caches open at once under
 * one {@code pagecache.name} both show: the first gets {@code name=<name>}, the next {@code name=<name>-2},
 * and so on (the name an operator looks for stays with the cache opened first; {@link #objectName()} says
 * which one a cache got). Unregistering is idempotent, and unregisters this cache's bean only: once someone else
 * unregistered it, the name may be another cache's, also where that happens between the close's look and its unregister.
 */
public final class PageCacheMBeanRegistration implements AutoCloseable {
    /** The domain and type every page cache's MBean is registered under. */
    public static final String DOMAIN_AND_TYPE = "io.ratatosk:type=PageCache";
    private static final int MAX_SUFFIX = 10_000;

    private final MBeanServer server;
    /** {@code pagecache.name}: where {@link #restore} finds the bean's name taken, it takes the next free suffix of it. */
    private final String cacheName;
    /** Changed only by {@link #restore}, where another cache took the name while a failed close had the bean out. */
    private volatile ObjectName name;
    private final TrackedBean bean;
    private boolean registered;

    private PageCacheMBeanRegistration(MBeanServer server, String cacheName, ObjectName name, TrackedBean bean) {
        this.server = server;
        this.cacheName = cacheName;
        this.name = name;
        this.bean = bean;
        this.registered = true;
    }

    /**
     * The cache's MXBean, knowing whether the server still holds it: a bean someone else unregistered is told so
     * ({@code postDeregister}), and its name may since be another cache's.
     */
    private static final class TrackedBean extends StandardMBean {
        /**
         * The bean the close on this thread means to unregister, while it does: JMX unregisters by name only, so a bean
         * someone else unregistered after the close's look at {@link #inServer}, and another cache's bean registered under
         * the freed name, would be what the close's unregister took away. That bean refuses it.
         */
        private static final ThreadLocal<TrackedBean> CLOSING = new ThreadLocal<>();

        private volatile boolean inServer;

        TrackedBean(PageCacheMXBean bean) {
            super(bean, PageCacheMXBean.class, true);
        }

        @Override
        public void postRegister(Boolean registrationDone) {
            super.postRegister(registrationDone);
            inServer = Boolean.TRUE.equals(registrationDone);
        }

        @Override
        public void preDeregister() throws Exception {
            TrackedBean closing = CLOSING.get();
            if (closing != null && closing != this) {
                throw new NotTheClosingCachesBean();
            }
            super.preDeregister();
        }

        @Override
        public void postDeregister() {
            super.postDeregister();
            inServer = false;
        }
    }

    /** A close's unregister met another cache's bean under its name: that bean stays. */
    private static final class NotTheClosingCachesBean extends Exception {
        private static final long serialVersionUID = 1L;

        NotTheClosingCachesBean() {
            super("the bean under this name is another page cache's", null, false, false);
        }
    }

    /** Registers {@code bean} under {@code io.ratatosk:type=PageCache,name=<cacheName>} (or the first free suffix). */
    public static PageCacheMBeanRegistration register(String cacheName, PageCacheMXBean bean) {
        return register(ManagementFactory.getPlatformMBeanServer(), cacheName, bean);
    }

    /** {@link #register(String, PageCacheMXBean)} in {@code server}; for tests. */
    static PageCacheMBeanRegistration register(MBeanServer server, String cacheName, PageCacheMXBean bean) {
        TrackedBean tracked = new TrackedBean(bean);
        for (int suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
            ObjectName name = nameWithSuffix(cacheName, suffix);
            try {
                server.registerMBean(tracked, name);
                return new PageCacheMBeanRegistration(server, cacheName, name, tracked);
            } catch (InstanceAlreadyExistsException taken) {
                // another open cache has this name: try the next suffix
            } catch (JMException | RuntimeException e) {
                // A RuntimeException too: a host's server may refuse with one (a SecurityException for a missing
                // MBeanPermission, a JMRuntimeException from a forwarder), which once failed the open bare, naming
                // neither the bean nor the flag, and one thrown after the bean went in left it registered for good.
                IllegalStateException refused = new IllegalStateException("cannot register the page cache's MBean "
                    + name + " (pagecache.jmx.enabled=true; set it to false to do without): " + e, e);
                unregisterAfterFailure(server, name, tracked, refused);
                throw refused;
            }
        }
        throw new IllegalStateException("cannot register the page cache's MBean: " + MAX_SUFFIX + " caches named "
            + cacheName + " are open (pagecache.name=" + cacheName + ")");
    }

    /**
     * Takes {@code bean} out of {@code server} if the registration that failed put it in nonetheless: the open fails, so no
     * close would ever take it out. A failure to do so is added to {@code failure}.
     */
    private static void unregisterAfterFailure(MBeanServer server, ObjectName name, TrackedBean bean,
        IllegalStateException failure) {
        if (!bean.inServer) {
            return;
        }
        TrackedBean.CLOSING.set(bean);
        try {
            server.unregisterMBean(name);
        } catch (JMException | RuntimeException e) {
            failure.addSuppressed(e);
        } finally {
            TrackedBean.CLOSING.remove();
        }
    }

    /**
     * The name a cache called {@code cacheName} registers under as the {@code suffix}th open (1: {@code cacheName}, then
     * {@code cacheName-2}, ...): one scheme for {@link #register} and {@link #restore}, which must give the same names.
     */
    private static ObjectName nameWithSuffix(String cacheName, int suffix) {
        return objectName(suffix == 1 ? cacheName : cacheName + "-" + suffix);
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

    /**
     * Puts the bean back after {@link #close}, for a cache whose close took it out and then failed, the cache left open:
     * under its name, or, where another cache opened under the same {@code pagecache.name} took that name meanwhile, the
     * first free suffix, as {@link #register} gives ({@link #objectName()} says which). (Refused there, the open cache
     * was left without a bean, and its {@code objectName()} named the other cache's.) Does nothing while it is registered
     * (also where the close's unregister failed).
     *
     * @throws IllegalStateException if the server refuses it
     */
    public synchronized void restore() {
        if (registered) {
            return;
        }
        registered = true; // first: a bean whose unregister failed is still in the server, and a later close takes it out
        if (bean.inServer) {
            return;
        }
        ObjectName own = name;
        for (int suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
            ObjectName candidate = suffix == 1 ? own : nameWithSuffix(cacheName, suffix);
            if (suffix > 1 && candidate.equals(own)) {
                continue; // tried first
            }
            try {
                server.registerMBean(bean, candidate);
                name = candidate;
                return;
            } catch (InstanceAlreadyExistsException taken) {
                // another open cache has this name: try the next suffix
            } catch (JMException | RuntimeException e) {
                if (bean.inServer) {
                    name = candidate;
                }
                registered = bean.inServer;
                throw new IllegalStateException("cannot register the page cache's MBean " + candidate + " again after"
                    + " its close failed and left the cache open: " + e, e);
            }
        }
        registered = false;
        throw new IllegalStateException("cannot register the page cache's MBean again after its close failed and left the"
            + " cache open: " + MAX_SUFFIX + " caches named " + cacheName + " are open");
    }

    @Override
    public synchronized void close() {
        if (!registered) {
            return;
        }
        registered = false;
        if (!bean.inServer) {
            // Unregistered by someone else: the name may be another cache's now, whose bean it once unregistered.
            return;
        }
        TrackedBean.CLOSING.set(bean);
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // unregistered by someone else: nothing left to do
        } catch (MBeanRegistrationException e) {
            if (!(e.getCause() instanceof NotTheClosingCachesBean)) {
                throw new IllegalStateException("cannot unregister the page cache's MBean " + name + ": " + e, e);
            }
            // Unregistered by someone else meanwhile, and the name taken by another cache, whose bean stays.
        } catch (JMException | RuntimeException e) {
            // A RuntimeException too (a host's SecurityException): it came out of the cache's close bare, naming no bean.
            throw new IllegalStateException("cannot unregister the page cache's MBean " + name + ": " + e, e);
        } finally {
            TrackedBean.CLOSING.remove();
        }
    }
}
