package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

    /**
     * A lookup or a walk racing the directory's growth that moves a far chunk into it still finds the chunk's
     * page: it once loaded the old directory and then the new far hash, found it in neither, and a flush that
     * walked the table returned with that dirty page unwritten.
     */
    @Test
    void aFarChunkMovedIntoTheGrowingDirectoryIsNeverMissedByAConcurrentReader() throws Exception {
        int chunk = 4096;
        long farPage = 33L * chunk + 7; // chunk 33: twice past a 16-chunk directory, so in the far hash
        long firstGrow = 16L * chunk; // grows the directory to 32 chunks, chunk 33 still far
        long secondGrow = 32L * chunk; // grows it to 64 chunks, moving chunk 33 into it
        int roundsWithAMiss = 0;
        for (int round = 0; round < 200; round++) {
            TranslationTable table = new TranslationTable(0);
            table.set(farPage, 42);
            table.set(firstGrow, 5);
            for (long c = 17; c < 32; c++) { // allocated but empty: a walk spends a while in the old directory
                table.set(c * chunk, 1);
                table.set(c * chunk, TranslationTable.ABSENT);
            }
            AtomicBoolean reading = new AtomicBoolean();
            AtomicBoolean grown = new AtomicBoolean();
            AtomicInteger misses = new AtomicInteger();
            Thread reader = new Thread(() -> {
                reading.set(true);
                while (!grown.get()) {
                    if (table.get(farPage) != 42) {
                        misses.incrementAndGet();
                    }
                    long next = table.nextPresent(firstGrow + 1);
                    if (next != farPage && next != secondGrow) {
                        misses.incrementAndGet();
                    }
                }
            });
            reader.start();
            while (!reading.get()) {
                Thread.onSpinWait();
            }
            for (int spin = 0; spin < (round % 64) * 20; spin++) { // the grow lands at different points of a walk
                Thread.onSpinWait();
            }
            table.set(secondGrow, 9);
            grown.set(true);
            reader.join();
            assertEquals(42, table.get(farPage));
            if (misses.get() > 0) {
                roundsWithAMiss++;
            }
        }
        assertEquals(0, roundsWithAMiss, "rounds in which a reader missed the far chunk's page");
    }
}
