package io.ratatosk.pagecache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnknownFlagTest {

    @ParameterizedTest(name = "{0} suggests {1}")
    @CsvSource({
            "pagecache.memroy, pagecache.memory",
            "pagecache.clock.max_usgae, pagecache.clock.max_usage",
            "pagecache.memory_, pagecache.memory",
            "pagecache.Memory, pagecache.memory",
            "PAGECACHE.POLICY, pagecache.policy",
            "pagecache.pagesize, pagecache.page_size",
            "pagecache.page-size, pagecache.page_size",
            "pagecache.keep_free, pagecache.evictor.keep_free",
            "pagecache.evictor.keepfree, pagecache.evictor.keep_free",
            "pagecache.evictor.enable, pagecache.evictor.enabled",
            "pagecache.fault_usage, pagecache.clock.fault_usage",
            "pagecache.clock.evict_treshold, pagecache.clock.evict_threshold",
            "pagecache.swp, pagecache.swap",
            "memory, pagecache.memory",
            "pagecahce.policy, pagecache.policy",
    })
    void aMisspeltFlagSuggestsTheNearestName(String misspelt, String suggestion) {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of(misspelt, "1")));
        assertEquals(misspelt + "=1: unknown flag; did you mean '" + suggestion + "'?", e.getMessage());
        assertEquals(misspelt, e.flag());
        assertEquals("1", e.value());
    }

    @Test
    void aFlagCloseToNoneListsTheValidNames() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.parse(Map.of("pagecache.completely.different", "x")));
        String message = e.getMessage();
        assertTrue(message.startsWith("pagecache.completely.different=x: unknown flag; valid flags are pagecache.memory, "
                + "pagecache.page_size, pagecache.policy, pagecache.clock.max_usage"), message);
        assertFalse(message.contains("did you mean"), message);
        assertFalse(message.contains("\n"), "one message, one line");
    }

    @Test
    void aMisspeltArgumentSuggestsTheNearestName() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> PageCacheConfig.fromArgs("--pagecache.page_sise=8k"));
        assertEquals("pagecache.page_sise=8k: unknown flag; did you mean 'pagecache.page_size'?", e.getMessage());
    }

    @Test
    void aMisspeltPropertySuggestsTheNearestName() {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("pagecache.evictor.enabeld", "false");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(properties));
        assertEquals("pagecache.evictor.enabeld=false: unknown flag; did you mean 'pagecache.evictor.enabled'?", e.getMessage());
    }
}
