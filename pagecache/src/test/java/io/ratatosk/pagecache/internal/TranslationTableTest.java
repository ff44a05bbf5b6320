package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The translation table's two places for an entry (the front, and chunks past it) seen through every accessor. */
class TranslationTableTest {
    private static final int CHUNK = 4096;

    @Test
    void theFrontCoversTheInitialPagesInWholeChunks() {
        assertEquals(2 * CHUNK, new TranslationTable(CHUNK + 1).front().length);
        assertEquals(0, new TranslationTable(0).front().length, "an empty file has no front: its pages go to chunks");
        assertEquals(TranslationTable.MAX_FRONT_PAGES, new TranslationTable(1L << 40).front().length, "the front is capped");
        assertEquals(TranslationTable.MAX_FRONT_PAGES, new TranslationTable(Long.MAX_VALUE).front().length,
            "no overflow for a page count no file reaches");
    }

    @Test
    void entriesInTheFrontAndPastItAreFoundByEveryLookup() {
        TranslationTable table = new TranslationTable(CHUNK);
        long inFront = CHUNK - 1;
        long pastFront = CHUNK;
        long far = 1L << 30;
        table.set(inFront, 7);
        assertTrue(table.compareAndSet(pastFront, TranslationTable.ABSENT, 8));
        table.set(far, 9);
        assertFalse(table.compareAndSet(inFront, TranslationTable.ABSENT, 1), "the front's CAS sees the entry set there");

        assertEquals(7, table.get(inFront));
        assertEquals(8, table.get(pastFront));
        assertEquals(9, table.get(far));
        assertEquals(7, TranslationTable.entryIn(table.front(), table.directory(), inFront));
        assertEquals(8, TranslationTable.entryIn(table.front(), table.directory(), pastFront));
        assertEquals(TranslationTable.ABSENT, TranslationTable.entryIn(table.front(), table.directory(), -1),
            "a negative id is in neither place");
        assertEquals(7, table.front()[(int) inFront], "the kept front is the table's own array");
    }

    @Test
    void nextPresentWalksFromTheFrontIntoTheChunks() {
        TranslationTable table = new TranslationTable(CHUNK);
        table.set(5, 1);
        table.set(CHUNK + 3, 2);
        assertEquals(5, table.nextPresent(0));
        assertEquals(CHUNK + 3, table.nextPresent(6));
        assertEquals(CHUNK + 3, table.nextPresent(CHUNK + 3));
        assertEquals(-1, table.nextPresent(CHUNK + 4));
    }

    @Test
    void onlyChunksPastTheFrontAreAllocatedAsTheyAreTouched() {
        TranslationTable table = new TranslationTable(CHUNK);
        assertEquals(1, table.allocatedChunks(), "the front counts as the chunks it covers");
        table.set(10, 1);
        assertEquals(1, table.allocatedChunks());
        table.set(3L * CHUNK, 1);
        assertEquals(2, table.allocatedChunks());
    }
}
