package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicySettingsTest {
    private final PolicySettings settings = PolicySettings.of(Map.of(
        "pagecache.a", " 3 ", "pagecache.b", "2.5", "pagecache.c", "false", "pagecache.bad", "yes"));

    @Test
    void setFlagsAreParsedAndUnsetFlagsGiveTheDefault() {
        assertEquals(3, settings.getInt("pagecache.a", 9));
        assertEquals(2.5, settings.getDouble("pagecache.b", 9.0));
        assertFalse(settings.getBoolean("pagecache.c", true));
        assertEquals(9, settings.getInt("pagecache.unset", 9));
        assertEquals(9.0, PolicySettings.defaults().getDouble("pagecache.b", 9.0));
        assertTrue(PolicySettings.defaults().getBoolean("pagecache.c", true));
    }

    @Test
    void valueOfTheWrongKindFailsNamingFlagAndValue() {
        assertEquals("pagecache.bad=yes is not true or false", assertThrows(IllegalArgumentException.class,
            () -> settings.getBoolean("pagecache.bad", false)).getMessage());
        assertEquals("pagecache.bad=yes is not a number", assertThrows(IllegalArgumentException.class,
            () -> settings.getDouble("pagecache.bad", 0)).getMessage());
        assertEquals("pagecache.b=2.5 is not an integer", assertThrows(IllegalArgumentException.class,
            () -> settings.getInt("pagecache.b", 0)).getMessage());
    }
}
