package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operations flags parse as documented, and a bad value is refused naming the flag and the value. */
class OperationsFlagsTest {
    @Test
    void defaultsAreBufferedUnlimitedDefaultJmxOnWarmupEveryMinute() {
        PageCacheConfig config = PageCacheConfig.defaults();
        assertFalse(OperationsFlags.directIo(config));
        assertEquals(0, OperationsFlags.flushIopsLimit(config));
        assertEquals("unlimited", config.getString("pagecache.flush.iops_limit"));
        assertEquals("default", OperationsFlags.name(config));
        assertTrue(OperationsFlags.jmxEnabled(config));
        assertTrue(OperationsFlags.warmupEnabled(config));
        assertEquals(60_000_000_000L, OperationsFlags.warmupProfileIntervalNanos(config));
    }

    @Test
    void iopsLimitTakesACountZeroOrUnlimited() {
        assertEquals(500, OperationsFlags.flushIopsLimit(PageCacheConfig.parse(Map.of("pagecache.flush.iops_limit", "500"))));
        assertEquals(0, OperationsFlags.flushIopsLimit(PageCacheConfig.parse(Map.of("pagecache.flush.iops_limit", "0"))));
        assertEquals(0, OperationsFlags.flushIopsLimit(PageCacheConfig.parse(Map.of("pagecache.flush.iops_limit", "Unlimited"))));
    }

    @Test
    void badValuesNameTheFlagAndTheValue() {
        assertRefused("pagecache.flush.iops_limit", "-1");
        assertRefused("pagecache.flush.iops_limit", "lots");
        assertRefused("pagecache.io", "mmap");
        assertRefused("pagecache.name", "a,b=c");
        assertRefused("pagecache.name", "");
        assertRefused("pagecache.warmup.profile_interval", "0");
    }

    private static void assertRefused(String flag, String value) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
            () -> PageCacheConfig.parse(Map.of(flag, value)));
        assertTrue(e.getMessage().contains(flag + "=" + value), e.getMessage());
    }
}
