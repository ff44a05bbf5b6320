package io.ratatosk.pagecache.writeaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shadows' id index: its sizing at the edges. */
class IdIndexTest {
    @Test
    void sizesUpToItsLimitAndRefusesMoreByName() {
        assertEquals(4, IdIndex.cellsFor(0));
        assertEquals(4, IdIndex.cellsFor(2));
        assertEquals(8, IdIndex.cellsFor(3));
        assertEquals(1 << 30, IdIndex.cellsFor(IdIndex.MAX_ENTRIES));
        // Past the limit the doubling overflowed: a negative table size (NegativeArraySizeException), or above
        // 2^30 ids an empty table that failed at the first put, in the middle of an eviction.
        for (int maxEntries : new int[] {IdIndex.MAX_ENTRIES + 1, (1 << 30) + 1, Integer.MAX_VALUE, -1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdIndex.cellsFor(maxEntries));
            assertTrue(e.getMessage().contains("maxEntries=" + maxEntries), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new IdIndex(maxEntries));
        }
    }

    @Test
    void holdsAndForgetsIds() {
        IdIndex index = new IdIndex(3);
        index.put(7, 0);
        index.put(-9, 1);
        index.put(123456789, 2);
        assertEquals(1, index.get(-9));
        index.remove(7);
        assertEquals(-1, index.get(7));
        assertEquals(2, index.get(123456789));
        assertEquals(2, index.size());
    }
}
