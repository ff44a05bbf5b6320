package io.ratatosk.pagecache.internal;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

/**
 * The memory this JVM's machine has: the container's limit where there is one (the JDK reads the cgroup), else the
 * physical memory. Empty on a JVM that does not say (no {@code com.sun.management} bean, or a total of 0).
 */
public final class MachineMemory {
    private MachineMemory() {
    }

    public static OptionalLong total() {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                long total = os.getTotalMemorySize();
                return total > 0 ? OptionalLong.of(total) : OptionalLong.empty();
            }
        } catch (RuntimeException | LinkageError e) {
            // a JVM without the management module, or one whose bean cannot read the platform: nothing to compare with
        }
        return OptionalLong.empty();
    }
}
