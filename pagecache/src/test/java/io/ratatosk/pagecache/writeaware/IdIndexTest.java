package io.ratatosk.pagecache.writeaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shadows' id index: its sizing at the edges, and its refusal of calls outside its contract. */
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

    /**
     * Outside the contract (an absent id removed, a present one added again, id 0, more ids than the index was sized
     * for) the probes once ran for ever or corrupted the index silently: remove of an absent id never stopped at an
     * empty cell and circled the table for ever; a put into a full table the same; a second put of an id held it twice,
     * so size() said one more than there were; 0, the empty cell's mark, was counted but never found, and get(0)
     * returned the stale slot of whatever empty cell it met. Each is refused now, naming the id.
     */
    @Test
    void callsOutsideTheContractAreRefusedByName() {
        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> {
            IdIndex index = new IdIndex(2);
            index.put(7, 0);
            IllegalArgumentException absent = assertThrows(IllegalArgumentException.class, () -> index.remove(8));
            assertTrue(absent.getMessage().contains("8"), absent.getMessage());
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> index.put(7, 1));
            assertTrue(twice.getMessage().contains("7"), twice.getMessage());
            assertEquals(0, index.get(7));
            assertEquals(1, index.size());

            index.put(9, 1);
            index.remove(9); // leaves slot 1 behind in the empty cell
            assertThrows(IllegalArgumentException.class, () -> index.put(0, 2));
            assertThrows(IllegalArgumentException.class, () -> index.remove(0));
            assertEquals(-1, index.get(0), "0 is never held");
            assertEquals(1, index.size());

            index.put(9, 1);
            IllegalStateException full = assertThrows(IllegalStateException.class, () -> index.put(11, 2));
            assertTrue(full.getMessage().contains("2 ids"), full.getMessage());
            assertEquals(-1, index.get(11));
            assertEquals(2, index.size());
            index.remove(7);
            index.put(11, 2);
            assertEquals(2, index.get(11));
            assertEquals(1, index.get(9));
        });
    }
}
