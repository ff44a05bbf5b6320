package io.ratatosk.pagecache;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SizeFlagTest {

    @ParameterizedTest(name = "pagecache.memory={0} is {1} bytes")
    @CsvSource(delimiter = ';', value = {
            "1048576; 1048576",
            "1024k; 1048576",
            "8k; 8192",
            "8K; 8192",
            "8kb; 8192",
            "8KB; 8192",
            "8KiB; 8192",
            "8kib; 8192",
            "8ki; 8192",
            "8 KiB; 8192",
            "512m; 536870912",
            "512M; 536870912",
            "512MB; 536870912",
            "512MiB; 536870912",
            "1g; 1073741824",
            "1G; 1073741824",
            "1GB; 1073741824",
            "1GiB; 1073741824",
            "1t; 1099511627776",
            "1TiB; 1099511627776",
            "16384b; 16384",
            "16384B; 16384",
            "1.5g; 1610612736",
            "0.5m; 524288",
            "'  64m  '; 67108864",
    })
    void acceptsEverySizeForm(String text, long bytes) {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", text, "pagecache.page_size", "1k"));
        assertEquals(bytes, config.memoryBytes());
    }

    @ParameterizedTest(name = "{0} reads back as {1}")
    @CsvSource(delimiter = ';', value = {
            "536870912; 512m",
            "512MB; 512m",
            "1024m; 1g",
            "1536k; 1536k",
            "1.5m; 1536k",
            "16385; 16385",
    })
    void normalisesSizesToTheLargestExactUnit(String text, String normalised) {
        assertEquals(normalised, PageCacheConfig.parse(Map.of("pagecache.memory", text)).explicitValues().get("pagecache.memory"));
    }

    @ParameterizedTest(name = "pagecache.memory=''{0}'' is refused because {1}")
    @CsvSource(delimiter = ';', value = {
            "''; empty",
            "'   '; empty",
            "-1; negative",
            "-5m; negative",
            "1.3k; not a whole number of bytes",
            "100.5; not a whole number of bytes",
            "12x; not a size",
            "m; not a size",
            "1e6; not a size",
            "0x100; not a size",
            "1kk; not a size",
            "1_000; not a size",
            "+5m; not a size",
            "5mbi; not a size",
            "5.m; not a size",
    })
    void refusesMalformedSizesSayingWhy(String text, String reason) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of("pagecache.memory", text)));
        assertTrue(e.getMessage().startsWith("pagecache.memory=" + text + ": must be a size in [2 pages of pagecache.page_size, 1t] ("),
                e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertEquals("pagecache.memory", e.flag());
        assertEquals(text, e.value());
    }

    @ParameterizedTest(name = "pagecache.memory={0} is out of range")
    @ValueSource(strings = {"0", "2t", "1025g", "99999999999999999999t", "99999999999999999999999"})
    void refusesSizesOutOfRangeOrOverflowing(String text) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of("pagecache.memory", text)));
        assertEquals("pagecache.memory=" + text + ": must be a size in [2 pages of pagecache.page_size, 1t]", e.getMessage());
    }

    @ParameterizedTest(name = "pagecache.page_size={0} is refused")
    @ValueSource(strings = {"3000", "256", "2m", "0", "511", "12k", "1.5k"})
    void refusesPageSizesThatAreNotPowersOfTwoIn512To1m(String text) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of("pagecache.page_size", text)));
        assertTrue(e.getMessage().startsWith("pagecache.page_size=" + text + ": must be a power-of-two size in [512, 1m]"), e.getMessage());
    }

    @ParameterizedTest(name = "pagecache.page_size={0}")
    @ValueSource(strings = {"512", "1k", "4k", "8k", "64KiB", "1m"})
    void acceptsPowerOfTwoPageSizes(String text) {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.page_size", text));
        assertEquals(Integer.bitCount(config.pageSize()), 1);
        assertEquals(config.memoryBytes() / config.pageSize(), config.frames());
    }

    @ParameterizedTest(name = "{0} bytes of memory hold {1} frames of 8k")
    @CsvSource({"16k, 2", "20k, 2", "24k, 3", "1m, 128"})
    void framesAreMemoryOverPageSizeRoundedDown(String memory, int frames) {
        assertEquals(frames, PageCacheConfig.parse(Map.of("pagecache.memory", memory)).frames());
    }
}
