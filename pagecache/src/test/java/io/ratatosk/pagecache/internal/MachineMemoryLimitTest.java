package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> PageMemory.refuseMoreThanTheMachineHas(2048, "pagecache.memory=2048", OptionalLong.of(2047)));
        assertTrue(e.getMessage().startsWith("cannot allocate 2048 bytes of page memory for pagecache.memory=2048: "
            + "more than the 2047 bytes"), e.getMessage());
        assertDoesNotThrow(() -> PageMemory.refuseMoreThanTheMachineHas(2048, "pagecache.memory=2048", OptionalLong.of(2048)));
        assertDoesNotThrow(() -> PageMemory.refuseMoreThanTheMachineHas(Long.MAX_VALUE, "x", OptionalLong.empty()));
    }

    @Test
    void aCacheWithinTheMachinesMemoryOpens() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")))) {
            assertTrue(cache.stats() != null);
        }
    }
}
