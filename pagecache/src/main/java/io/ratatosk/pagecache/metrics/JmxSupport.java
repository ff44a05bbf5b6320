package io.ratatosk.pagecache.metrics;

/**
 * Whether the JVM has the {@code java.management} module, which {@link PageCacheMBeanRegistration} registers the
 * cache's MBean with: a runtime image that jlink made without it has none, and there the registration's first use
 * threw a bare {@link NoClassDefFoundError}. Names no JMX type itself, so that it loads there too.
 */
public final class JmxSupport {
    /** Whether {@code java.management} is there. */
    public static final boolean AVAILABLE = available();

    private JmxSupport() {
    }

    private static boolean available() {
        try {
            Class.forName("javax.management.MBeanServer", false, JmxSupport.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
