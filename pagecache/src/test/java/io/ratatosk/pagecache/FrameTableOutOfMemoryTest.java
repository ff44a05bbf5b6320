package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.FrameDescriptor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The frame table is native memory, allocated off the heap: when the machine cannot give it, the open says so, how
 * much, and what to change. It once said to give the JVM more heap (-Xmx), which does nothing for native memory and
 * leaves less of it.
 */
class FrameTableOutOfMemoryTest {
    @Test
    void aFrameTableTheMachineCannotGiveIsNamedAsNativeMemoryWithItsSize() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        OutOfMemoryError refused = new OutOfMemoryError("Unable to allocate 4159 bytes");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new EvictionEngine(config,
            frames -> new InertPolicy("inert"), frameCount -> {
                throw refused;
            }));
        String message = e.getMessage();
        long tableBytes = (long) config.frames() * FrameDescriptor.FRAME_BYTES;
        for (String expected : new String[] {"frame table", config.frames() + " frames", tableBytes + " bytes",
            "native memory", "pagecache.memory=" + config.memoryBytes(), "pagecache.page_size=8192",
            "Unable to allocate 4159 bytes"}) {
            assertTrue(message.contains(expected), "names " + expected + ": " + message);
        }
        assertFalse(message.contains("-Xmx"), "more heap does not give native memory: " + message);
        assertSame(refused, e.getCause());
    }

    /** The free list and the policy's arrays are on the heap: for them, -Xmx is the remedy, and the message says so. */
    @Test
    void bookkeepingThatDoesNotFitTheHeapStillNamesTheHeap() {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new EvictionEngine(config, frames -> {
            throw new OutOfMemoryError("Java heap space");
        }));
        assertTrue(e.getMessage().contains("-Xmx") && e.getMessage().contains(config.frames() + " frames"), e.getMessage());
    }
}
