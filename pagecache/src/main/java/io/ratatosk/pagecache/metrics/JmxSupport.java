package io.ratatosk.pagecache.metrics;

/**
 * Whether the JVM has the {@code java.management} module, which {@link PageCacheMBeanRegistration} registers the
 * cache's MBean with: a runtime image that jlink made without it has none, and there the registration's first use
 * threw a bare {@link NoClassDefFoundError}. Names no JMX type itself, so that it loads there too.
 */
public final class JmxSupport {
    /** Whether {@code java.management} is there. */
    public static final boolean AVAILABLE = OptionalModule.present("javax.management.MBeanServer");

    private JmxSupport() {
    }
}
