package io.ratatosk.pagecache.internal;

/**
 * Whether the JVM resolved the JDK module {@code jdk.unsupported}: the page memory is agrona's, which reaches it through
 * {@code sun.misc.Unsafe}, one of that module's classes. An application on the class path always has it; one on the
 * module path has it only where some module requires it, and the library's jars are automatic modules, which declare
 * nothing. There the open failed deep in agrona with a bare {@code NoClassDefFoundError: sun/misc/Unsafe}, and left
 * the page memory's class unusable for the JVM's life.
 */
public final class UnsafeModule {
    private static final boolean PRESENT = present();

    private UnsafeModule() {
    }

    /**
     * Refuses, before anything is allocated, a JVM without the module, saying how to add it.
     *
     * @throws IllegalStateException naming the module and the two ways to resolve it
     */
    public static void require() {
        if (!PRESENT) {
            throw new IllegalStateException("the page cache needs the JDK module jdk.unsupported (its page memory is"
                + " agrona's, which uses sun.misc.Unsafe), and this JVM did not resolve it: a store on the module path adds"
                + " 'requires jdk.unsupported;' to its module-info.java, or java is run with --add-modules jdk.unsupported");
        }
    }

    private static boolean present() {
        try {
            // Not initialised, and by the loader agrona's classes see: the boot loader finds it only if the module was resolved.
            Class.forName("sun.misc.Unsafe", false, UnsafeModule.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
