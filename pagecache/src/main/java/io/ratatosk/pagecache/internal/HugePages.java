package io.ratatosk.pagecache.internal;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Asks Linux for transparent huge pages over the page memory: {@code madvise(address, length, MADV_HUGEPAGE)}.
 * A hit touches a random page of a large region; with 4 KiB pages nearly every hit also misses the TLB, with
 * 2 MiB pages 512 times fewer do. The kernel backs an advised, 2 MiB-aligned range with huge pages when it can
 * ({@code /sys/kernel/mm/transparent_hugepage/enabled} set to {@code madvise} or {@code always}).
 *
 * <p>The call goes through the Foreign Function and Memory API, final since JDK 22, looked up reflectively
 * rather than compiled against: the jar is built with {@code --release 17}, runs on JDK 17 without it (the
 * memory is then allocated as before), and uses it on JDK 22+ whichever JDK built the jar. Calling native
 * code is a restricted operation there: it is done only where the JVM grants this code native access
 * ({@code --enable-native-access=ALL-UNNAMED}, or the module's name), so that a library never makes the
 * JVM print a warning on its host's console. {@link #advise} says what happened, in words, for
 * {@code stats()} and the startup line.
 */
public final class HugePages {
    /** The size of a transparent huge page on x86-64 and (with 4 KiB base pages) aarch64. */
    public static final long HUGE_PAGE_BYTES = 2L << 20;
    /** {@code MADV_HUGEPAGE} of Linux's {@code <sys/mman.h>}, the same on every architecture. */
    private static final int MADV_HUGEPAGE = 14;
    private static final int FFM_FEATURE = 22;

    private HugePages() {
    }

    /** Whether huge pages can be asked for on this platform and JVM at all: the reason why not, or empty. */
    public static Optional<String> unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("unavailable: transparent huge pages are a Linux feature (os.name=" + System.getProperty("os.name") + ")");
        }
        if (Runtime.version().feature() < FFM_FEATURE) {
            return Optional.of("unavailable: madvise needs the FFM API of JDK 22+ (running on JDK " + Runtime.version().feature() + ")");
        }
        if (!nativeAccessEnabled()) {
            return Optional.of("unavailable: native access is not enabled for " + describe(HugePages.class.getModule())
                + " (add --enable-native-access=" + moduleFlagName(HugePages.class.getModule()) + " to the java command)");
        }
        return Optional.empty();
    }

    /**
     * Advises the kernel to back {@code [address, address + length)} with huge pages; both should be multiples
     * of {@link #HUGE_PAGE_BYTES} (the kernel advises only whole, aligned huge pages). Never throws: returns what
     * happened, e.g. {@code "madvise(MADV_HUGEPAGE) over 512 MiB"} or {@code "unavailable: ..."}.
     */
    public static String advise(long address, long length) {
        Optional<String> unavailable = unavailableReason();
        if (unavailable.isPresent()) {
            return unavailable.get();
        }
        try {
            int result = (int) madvise().invokeWithArguments(segmentAt(address), length, MADV_HUGEPAGE);
            return result == 0 ? "madvise(MADV_HUGEPAGE) over " + (length >> 20) + " MiB"
                : "failed: madvise(MADV_HUGEPAGE) returned " + result + " (the kernel may have transparent huge pages off)";
        } catch (Throwable t) {
            return "failed: madvise(MADV_HUGEPAGE) through the FFM API: " + t;
        }
    }

    /** {@code Module.isNativeAccessEnabled()}, a JDK 22 method. */
    private static boolean nativeAccessEnabled() {
        try {
            Method m = Module.class.getMethod("isNativeAccessEnabled");
            return (Boolean) m.invoke(HugePages.class.getModule());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static String describe(Module module) {
        return module.isNamed() ? "module " + module.getName() : "the class path (the unnamed module)";
    }

    private static String moduleFlagName(Module module) {
        return module.isNamed() ? module.getName() : "ALL-UNNAMED";
    }

    /**
     * {@code Linker.nativeLinker().downcallHandle(defaultLookup().find("madvise"),
     * FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT))}, written reflectively.
     */
    private static MethodHandle madvise() throws ReflectiveOperationException {
        Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
        Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");

        Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
        Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
        Optional<?> symbol = (Optional<?>) lookupClass.getMethod("find", String.class).invoke(lookup, "madvise");
        if (symbol.isEmpty()) {
            throw new IllegalStateException("the C library has no madvise");
        }
        Object javaInt = valueLayoutClass.getField("JAVA_INT").get(null);
        Object javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
        Object addressLayout = valueLayoutClass.getField("ADDRESS").get(null);
        Object argLayouts = Array.newInstance(layoutClass, 3);
        Array.set(argLayouts, 0, addressLayout);
        Array.set(argLayouts, 1, javaLong);
        Array.set(argLayouts, 2, javaInt);
        Object descriptor = descriptorClass.getMethod("of", layoutClass, argLayouts.getClass()).invoke(null, javaInt, argLayouts);
        Object noOptions = Array.newInstance(optionClass, 0);
        return (MethodHandle) linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass, noOptions.getClass())
            .invoke(linker, symbol.get(), descriptor, noOptions);
    }

    /** {@code MemorySegment.ofAddress(address)}. */
    private static Object segmentAt(long address) throws ReflectiveOperationException {
        return Class.forName("java.lang.foreign.MemorySegment").getMethod("ofAddress", long.class).invoke(null, address);
    }
}
