package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A page cache larger than the machine's memory is refused at startup, naming the flag, before anything is allocated. */
class MachineMemoryLimitTest {
    private static final long TIB = 1L << 40;

    @Test
    void aCacheLargerThanTheMachinesMemoryIsRefusedAtOpenNamingTheFlag() {
        OptionalLong machine = MachineMemory.total();
        assumeTrue(machine.isPresent(), "this JVM does not say how much memory the machine has");
        long pageSize = 8192;
        // the first whole page past the machine's memory; the flag's own ceiling is 1 TiB
        long memory = (machine.getAsLong() / pageSize + 1) * pageSize;
        assumeTrue(memory <= TIB, "this machine has more memory than pagecache.memory may ask for");
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(memory)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PageCache.open(config).close());
        assertTrue(e.getMessage().contains("pagecache.memory=" + memory)
            && e.getMessage().contains(machine.getAsLong() + " bytes of memory this machine"), e.getMessage());
    }

    @Test
    void theCheckComparesWithWhatTheMachineHasAndPassesWhenItCannotTell() {
        // 4 frames of 512 bytes: 2048 bytes of pages and 128 of metadata
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> PageMemory.refuseMoreThanTheMachineHas(2048, 4, "pagecache.memory=2048", OptionalLong.of(2047), 0));
        assertTrue(e.getMessage().startsWith("cannot allocate 2048 bytes of page memory for pagecache.memory=2048 and 128"
            + " bytes of frame metadata (32 a frame): more than the 2047 bytes"), e.getMessage());
        assertDoesNotThrow(() -> PageMemory.refuseMoreThanTheMachineHas(2048, 4, "pagecache.memory=2048", OptionalLong.of(2048 + 128), 0));
        e = assertThrows(IllegalStateException.class,
            () -> PageMemory.refuseMoreThanTheMachineHas(2048, 4, "pagecache.memory=2048", OptionalLong.of(4096), 2000));
        assertTrue(e.getMessage().contains("with the 2000 bytes the other page caches of this JVM hold, more than the 4096"
            + " bytes"), e.getMessage());
        assertDoesNotThrow(() -> PageMemory.refuseMoreThanTheMachineHas(2048, 4, "pagecache.memory=2048", OptionalLong.of(4096), 1920));
        assertDoesNotThrow(() -> PageMemory.refuseMoreThanTheMachineHas(Long.MAX_VALUE, FrameTable.MAX_FRAMES, "x", OptionalLong.empty(), 0));
    }

    /**
     * The frames' metadata (32 bytes a frame, off the heap, zeroed when the cache opens) is a sixteenth of the page
     * memory with 512-byte pages: a cache whose pages fit the machine but whose pages and metadata do not was opened, to
     * overrun the memory as it filled (the check compared the pages alone). Refused now, saying what to change.
     */
    @Test
    void aCacheWhosePagesFitButWhoseFrameMetadataDoesNotIsRefused() {
        OptionalLong machine = MachineMemory.total();
        assumeTrue(machine.isPresent(), "this JVM does not say how much memory the machine has");
        long pageSize = 512;
        long frames = machine.getAsLong() / pageSize * 40 / 41; // pages 40/41 of memory, their metadata 2.5/41 more
        long memory = frames * pageSize;
        assumeTrue(memory <= TIB && frames <= FrameTable.MAX_FRAMES, "this machine has more memory than the flags take");
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(memory),
            "pagecache.page_size", Long.toString(pageSize)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PageCache.open(config).close());
        assertTrue(e.getMessage().contains("pagecache.memory=" + memory + " and " + frames * FrameDescriptor.FRAME_BYTES
            + " bytes of frame metadata") && e.getMessage().contains(machine.getAsLong() + " bytes of memory this machine")
            && e.getMessage().endsWith("or pagecache.page_size a larger one (fewer frames, less metadata)"), e.getMessage());
    }

    /**
     * The check looked at one cache at a time: two caches of 60% of the machine each both opened (page memory is only
     * promised until touched), to overrun it together as they filled. The second is refused now, naming what the first
     * holds; once the first is closed it opens.
     */
    @Test
    void aSecondCacheThatWouldTakeTheCachesOfThisJvmPastTheMachineIsRefused() throws Exception {
        OptionalLong machine = MachineMemory.total();
        assumeTrue(machine.isPresent(), "this JVM does not say how much memory the machine has");
        long pageSize = 8192;
        long memory = machine.getAsLong() / 10 * 6 / pageSize * pageSize;
        assumeTrue(memory <= TIB, "this machine has more memory than pagecache.memory may ask for");
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", Long.toString(memory),
            "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false"));
        try (PageCache first = PageCache.open(config)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> PageCache.open(config).close());
            assertTrue(e.getMessage().contains("pagecache.memory=" + memory) && e.getMessage().contains(
                "bytes the other page caches of this JVM hold") && e.getMessage().contains(machine.getAsLong()
                + " bytes of memory this machine") && e.getMessage().endsWith("or close the other caches first"),
                e.getMessage());
        }
        PageCache.open(config).close(); // the first one's memory is given back when it closes
    }

    @Test
    void aCacheWithinTheMachinesMemoryOpens() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")))) {
            assertTrue(cache.stats() != null);
        }
    }
}
