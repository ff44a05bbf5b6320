package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HugePagesTest {
    private static final int PAGE = 8192;
    /** 8 MiB: four huge pages. */
    private static final int FRAMES = 1024;

    @Test
    void offLeavesTheMemoryAsItWasAndSaysSo() {
        PageMemory memory = new PageMemory(FRAMES, PAGE, "test", false);
        try {
            assertEquals("off (pagecache.huge_pages=off)", memory.hugePages());
            assertEquals(0, memory.address(0) % PageMemory.ALIGNMENT);
        } finally {
            memory.free();
        }
    }

    @Test
    void lessMemoryThanOneHugePageIsNotAdvised() {
        PageMemory memory = new PageMemory(16, PAGE, "test", true);
        try {
            assertTrue(memory.hugePages().startsWith("not used: 131072 bytes"), memory.hugePages());
        } finally {
            memory.free();
        }
    }

    /** Where the platform cannot (JDK 17, say), auto keeps the ordinary allocation and says why. */
    @Test
    void autoSaysWhyItCannotWhereThePlatformCannot() {
        assumeTrue(HugePages.unavailableReason().isPresent(), "this JVM can ask for huge pages");
        PageMemory memory = new PageMemory(FRAMES, PAGE, "test", true);
        try {
            assertEquals(HugePages.unavailableReason().get(), memory.hugePages());
            assertTrue(memory.hugePages().startsWith("unavailable: "), memory.hugePages());
        } finally {
            memory.free();
        }
    }

    /**
     * On Linux with JDK 22+ and native access (the build's test JVMs have it), the memory is aligned to a huge
     * page and the kernel marks its mapping "hg" (VM_HUGEPAGE) in /proc/self/smaps: the advice reached it.
     */
    @Test
    void autoAdvisesTheKernelWhereItCan() throws IOException {
        assumeTrue(HugePages.unavailableReason().isEmpty(), () -> "not here: " + HugePages.unavailableReason().get());
        PageMemory memory = new PageMemory(FRAMES, PAGE, "test", true);
        try {
            assertEquals("madvise(MADV_HUGEPAGE) over 8 MiB", memory.hugePages());
            long base = memory.address(0);
            assertEquals(0, base % HugePages.HUGE_PAGE_BYTES, "aligned to a huge page");
            assertTrue(vmFlags(base).contains(" hg"), "smaps VmFlags of the page memory: " + vmFlags(base));
        } finally {
            memory.free();
        }
    }

    @Test
    void statsReportWhatCameOfTheFlag() throws IOException {
        try (PageCache off = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "8m", "pagecache.huge_pages", "off")));
             PageCache auto = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "8m")))) {
            assertEquals("off (pagecache.huge_pages=off)", off.stats().hugePages());
            String expected = HugePages.unavailableReason().orElse("madvise(MADV_HUGEPAGE) over 8 MiB");
            assertEquals(expected, auto.stats().hugePages());
            assertTrue(auto.stats().toString().contains("hugePages=" + expected));
        }
    }

    /** The VmFlags line of the mapping in /proc/self/smaps that holds {@code address}. */
    private static String vmFlags(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = Long.compareUnsigned(start, address) <= 0 && Long.compareUnsigned(address, end) < 0;
            } else if (inside && line.startsWith("VmFlags:")) {
                return line;
            }
        }
        return "(no mapping holds " + Long.toHexString(address) + ")";
    }
}
