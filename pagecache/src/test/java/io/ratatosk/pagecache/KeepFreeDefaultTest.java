package io.ratatosk.pagecache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeepFreeDefaultTest {

    /** A config with exactly {@code frames} frames of 512 bytes. */
    private static PageCacheConfig withFrames(long frames) {
        return PageCacheConfig.parse(Map.of("pagecache.page_size", "512", "pagecache.memory", Long.toString(frames * 512)));
    }

    @ParameterizedTest(name = "{0} frames keep {1} free")
    @CsvSource({
            "2, 1",            // half the frames below 60
            "3, 1",
            "10, 5",
            "59, 29",
            "60, 30",          // 5% is 3: the floor of 30
            "100, 30",
            "600, 30",
            "619, 30",
            "620, 31",         // 5% passes 30
            "1000, 50",
            "65536, 3276",     // the default 512m / 8k
            "1999999, 99999",
            "2000000, 100000", // the cap
            "10000000, 100000",
    })
    void keepFreeDefaultsToFivePercentOfFramesWithinItsBounds(long frames, int keepFree) {
        PageCacheConfig config = withFrames(frames);
        assertEquals(frames, config.frames());
        assertEquals(keepFree, config.keepFree());
        assertEquals(keepFree, config.getInt("pagecache.evictor.keep_free"));
    }

    @Test
    void theDefaultKeepFreeIsAlwaysLessThanTheFrameCount() {
        for (int frames = 2; frames < 5000; frames++) {
            int keepFree = PageCacheConfig.defaultKeepFree(frames);
            assertTrue(keepFree >= 1 && keepFree < frames, frames + " frames: keep free " + keepFree);
        }
    }

    @Test
    void anExplicitKeepFreeOverridesTheRule() {
        PageCacheConfig config = withFrames(1000).with("pagecache.evictor.keep_free", "7");
        assertEquals(7, config.keepFree());
        assertTrue(config.isSet("pagecache.evictor.keep_free"));
    }
}
