package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CacheSizeTest {
    @Test
    void absoluteSizesIgnoreTheTrace() {
        assertEquals(500, CacheSize.parse("500").entriesFor(10));
    }

    @Test
    void fractionSizesDivideTheDistinctKeysRoundingDownButNeverBelowOne() {
        assertEquals(1868, CacheSize.parse("/100").entriesFor(186_880));
        assertEquals(2751, CacheSize.parse("/100").entriesFor(275_171));
        assertEquals(1, CacheSize.parse("/100").entriesFor(5));
    }

    @Test
    void listsAreCommaSeparated() {
        assertEquals(List.of("100", "/10"), CacheSize.parseList("100, /10").stream().map(CacheSize::text).toList());
    }

    @Test
    void nonPositiveOrNonNumericSizesAreRefused() {
        for (String bad : new String[] {"0", "-5", "/0", "abc", "/x", "", "+5", "/+2", "\uff11\uff12", "/\u0662"}) {
            assertThrows(IllegalArgumentException.class, () -> CacheSize.parseList(bad), bad);
        }
    }

    @Test
    void sizesPastAnIntAreRefusedAsTooLargeNotAsNonPositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheSize.parse("99999999999999"));
        assertEquals("cache size '99999999999999' is too large: entries at most 2,147,483,647", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CacheSize.parse("/2147483648"));
        assertEquals("cache size '/2147483648' is too large: N in /N at most 2,147,483,647", e.getMessage());
        assertEquals(Integer.MAX_VALUE, CacheSize.parse("2147483647").entriesFor(10));
    }
}
