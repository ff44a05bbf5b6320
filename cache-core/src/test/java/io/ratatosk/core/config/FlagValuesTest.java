package io.ratatosk.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A reader without its own default gets the value given, else the flag's declared one. */
class FlagValuesTest {
    private static final Flag COUNT = Flag.integer("pagecache.test.count", "3", 1, 10, "test");
    private static final Flag SHARE = Flag.decimal("pagecache.test.share", "0.25", 0, 1, "test");
    private static final Flag ON = Flag.bool("pagecache.test.on", "true", "test");
    private static final Flag COMPUTED = Flag.decimal("pagecache.test.computed", null, 0, 1, "test");

    private static FlagValues given(Map<Flag, String> texts) {
        return new FlagValues() {
            @Override
            public Object given(Flag flag) {
                String text = texts.get(flag);
                return text == null ? null : flag.parse(text);
            }

            @Override
            public String text(Flag flag) {
                return texts.get(flag);
            }
        };
    }

    @Test
    void unsetFlagsReadAsTheirDeclaredDefaults() {
        assertEquals(3, FlagValues.NONE.getInt(COUNT));
        assertEquals(0.25, FlagValues.NONE.getDouble(SHARE));
        assertTrue(FlagValues.NONE.getBoolean(ON));
    }

    @Test
    void givenFlagsReadAsGiven() {
        FlagValues values = given(Map.of(COUNT, "7", SHARE, "0.5", ON, "false"));
        assertEquals(7, values.getInt(COUNT));
        assertEquals(0.5, values.getDouble(SHARE));
        assertFalse(values.getBoolean(ON));
    }

    @Test
    void aFlagWithoutAConstantDefaultNeedsItsReadersDefault() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FlagValues.NONE.getDouble(COMPUTED));
        assertTrue(e.getMessage().contains("pagecache.test.computed has no constant default"), e.getMessage());
        assertEquals(0.3, FlagValues.NONE.getDouble(COMPUTED, 0.3));
    }
}
