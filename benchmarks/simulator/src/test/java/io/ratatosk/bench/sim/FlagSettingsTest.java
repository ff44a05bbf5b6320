package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlagSettingsTest {

    @Test
    void namesEveryFlagInFullInTheOrderGiven() {
        assertEquals(List.of(Map.entry("pagecache.evictor.enabled", "false"), Map.entry("pagecache.nvm.size", "a=b")),
            List.copyOf(FlagSettings.parse("--set", List.of(" evictor.enabled=false", "pagecache.nvm.size=a=b")).entrySet()));
    }

    /** The same value twice, in either spelling, is no conflict. */
    @Test
    void acceptsARepeatWithTheSameValue() {
        assertEquals(Map.of("pagecache.evictor.enabled", "false"),
            FlagSettings.parse("--set", List.of("evictor.enabled=false", "pagecache.evictor.enabled=false")));
    }

    /** Before, the last value counted without a word. */
    @Test
    void refusesAFlagSetTwiceToDifferentValuesAlsoAcrossSpellings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlagSettings.parse("--set",
            List.of("evictor.enabled=false", "policy.x=1", "pagecache.evictor.enabled=true")));
        assertEquals("--set evictor.enabled=false and --set pagecache.evictor.enabled=true both set"
            + " pagecache.evictor.enabled: give it once", e.getMessage());
    }

    @Test
    void namesEverySettingWithoutAFlagOrAnEquals() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FlagSettings.parse("--set", List.of("evictor.enabled", "=1", "a=1", "a=2")));
        assertTrue(e.getMessage().startsWith("--set evictor.enabled: FLAG=VALUE expected, there is no '='; --set =1: no flag"
            + " named before the '='; --set a=1 and --set a=2 both set pagecache.a"), e.getMessage());
    }
}
