package io.ratatosk.pagecache.metrics;

/**
 * Whether a JDK module the page cache can do without is in this JVM: a runtime image that jlink made without it (or
 * {@code --limit-modules}) lacks its classes, and the first use of one threw a bare {@link NoClassDefFoundError}.
 */
final class OptionalModule {
    private OptionalModule() {
    }

    /** Whether {@code className} (one of the module's) loads, without initialising it. */
    static boolean present(String className) {
        try {
            Class.forName(className, false, OptionalModule.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
