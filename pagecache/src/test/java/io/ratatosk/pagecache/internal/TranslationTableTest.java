package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import io.ratatosk.pagecache.Waits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        long farPage = 33L * chunk + 7; // chunk 33: twice past a 16-chunk directory, so among the far chunks
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
            // A task, so that a lookup that throws (an index past a directory being grown) fails the test: a thread's
            // uncaught failure went to stderr alone, the reader ended with no miss counted, and the round passed.
            FutureTask<Void> reader = new FutureTask<>(() -> {
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
                return null;
            });
            new Thread(reader, "reader").start();
            while (!reading.get() && !reader.isDone()) {
                Thread.onSpinWait();
            }
            for (int spin = 0; spin < (round % 64) * 20; spin++) { // the grow lands at different points of a walk
                Thread.onSpinWait();
            }
            table.set(secondGrow, 9);
            grown.set(true);
            reader.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            assertEquals(42, table.get(farPage));
            if (misses.get() > 0) {
                roundsWithAMiss++;
            }
        }
        assertEquals(0, roundsWithAMiss, "rounds in which a reader missed the far chunk's page");
    }

    /**
     * A file mapped empty and written at scattered page ids (a sparse file, a hashed layout) puts nearly every chunk
     * past twice the directory's length, into the far chunks. Adding one far chunk once copied and sorted all of them,
     * so the writes took time and memory growing with the square of the chunks touched (80 s for 37,000 chunks here):
     * a store filling such a file seemed to hang. Measured as the bytes the thread allocates, which the machine's load
     * does not change: the chunks themselves and little more. Each page is found again, and a walk visits them in order.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void pagesWrittenAtScatteredIdsOfAnEmptyFileCostInProportionToTheChunksTouched() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TranslationTable table = new TranslationTable(0);
        Random random = new Random(42);
        int chunks = 5_000;
        long[] pages = new long[chunks];
        long chunkBytes = (long) chunks * CHUNK * Integer.BYTES;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < chunks; i++) {
            // Chunk numbers i * 37 + a scatter below 37, shuffled by the order of i: one page in each, up to 185,000 chunks out.
            long chunk = (long) ((i * 7919L) % chunks) * 37 + random.nextInt(37);
            pages[i] = chunk * CHUNK + random.nextInt(CHUNK);
            table.set(pages[i], i + 1);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < chunkBytes * 3 / 2, chunks + " chunks of " + chunkBytes + " bytes in all took "
            + allocated + " bytes to add");

        assertEquals(chunks + 0L, table.allocatedChunks(), "one chunk per page, each counted once");
        long[] sorted = pages.clone();
        Arrays.sort(sorted);
        int walked = 0;
        for (long page = table.nextPresent(0); page >= 0; page = table.nextPresent(page + 1)) {
            assertEquals(sorted[walked++], page, "the walk visits the pages in order");
        }
        assertEquals(chunks, walked);
        for (int i = 0; i < chunks; i++) {
            assertEquals(i + 1, table.get(pages[i]));
        }
    }

    /**
     * Once the far chunks within the directory's reach (2^20 chunks) would fill a directory covering them to one in 256
     * slots, the directory grows over them: a page among the far chunks is no hit of a read cursor's kept directory, and
     * every read of a page written at scattered ids of a sparse file took the full path (4,999 of 5,000 here before,
     * none now; each found by a lookup either way).
     */
    @Test
    void pagesWrittenAtScatteredIdsAreFoundInTheKeptDirectoryOnceTheyWouldFillIt() {
        TranslationTable table = new TranslationTable(0);
        Random random = new Random(7);
        int chunks = 5_000;
        long[] pages = new long[chunks];
        for (int i = 0; i < chunks; i++) {
            pages[i] = ((long) ((i * 7919L) % chunks) * 37 + random.nextInt(37)) * CHUNK + random.nextInt(CHUNK);
            table.set(pages[i], i + 1);
        }
        int[] front = table.front();
        int[][] directory = table.directory();
        int missed = 0;
        for (int i = 0; i < chunks; i++) {
            int kept = TranslationTable.entryIn(front, directory, pages[i]);
            if (kept == TranslationTable.ABSENT) {
                missed++;
            } else {
                assertEquals(i + 1, kept);
            }
            assertEquals(i + 1, table.get(pages[i]));
        }
        assertTrue(missed == 0, missed + " of " + chunks + " pages are not in the kept directory");
        assertTrue(directory.length <= 1 << 18, "the directory covers no more than the chunks touched: " + directory.length);
    }

    /**
     * A lookup of a page among the far chunks (every read of one takes the full path: a cursor's kept directory never
     * holds them) allocates nothing, whether its chunk is there or not: the far chunks' ordered map was looked up by a
     * boxed chunk number, 16 bytes allocated by every such lookup.
     */
    @Test
    void lookingUpPagesAmongTheFarChunksAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TranslationTable table = new TranslationTable(0);
        long[] pages = {(1L << 32) + 7, (1L << 40) + 9, 300L * CHUNK + 1, (1L << 48) - 1};
        for (long page : pages) {
            table.set(page, 5);
        }
        int lookups = 200_000;
        long found = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < lookups; i++) {
            long page = pages[i % pages.length];
            found += table.get(page) + table.get(page - CHUNK); // the chunk before each is not allocated
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(5L * lookups, found);
        assertTrue(allocated < lookups, 2 * lookups + " lookups of pages among the far chunks allocated " + allocated
            + " bytes");
    }

    /**
     * Lookups racing the far chunks' growth (their lookup hash doubling under the writer) find every page set before
     * they looked: far chunks beyond the directory's reach, so that none moves into the directory.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // above the bound of its waits (Waits), which name what hung
    void pagesAmongTheFarChunksAreFoundWhileMoreAreAdded() throws Exception {
        TranslationTable table = new TranslationTable(0);
        long base = 1L << 33; // chunk 2^21: past the directory's reach
        int chunks = 3_000;
        AtomicInteger published = new AtomicInteger();
        AtomicInteger misses = new AtomicInteger();
        List<FutureTask<Void>> readers = new ArrayList<>(); // tasks: a lookup that throws fails the test, as a miss does
        for (int r = 0; r < 3; r++) {
            long seed = r;
            FutureTask<Void> reader = new FutureTask<>(() -> {
                Random random = new Random(seed);
                for (int n = published.get(); n < chunks; n = published.get()) {
                    if (n > 0) {
                        int i = random.nextInt(n);
                        if (table.get(base + (long) i * 7 * CHUNK) != i + 1) {
                            misses.incrementAndGet();
                        }
                    }
                }
                return null;
            });
            readers.add(reader);
            new Thread(reader, "reader-" + r).start();
        }
        for (int i = 0; i < chunks; i++) {
            table.set(base + (long) i * 7 * CHUNK, i + 1);
            published.set(i + 1);
        }
        for (FutureTask<Void> reader : readers) {
            reader.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        }
        assertEquals(0, misses.get(), "lookups that missed a page set before them");
        for (int i = 0; i < chunks; i++) {
            assertEquals(i + 1, table.get(base + (long) i * 7 * CHUNK));
        }
    }

    /** Page ids up to the largest a page key holds, each in a chunk of its own far past the directory, all found. */
    @Test
    void chunksNearTheLargestPageIdAreFoundAndWalkedInOrder() {
        TranslationTable table = new TranslationTable(0);
        long last = (1L << 48) - 1;
        long[] pages = {(1L << 32) + 1, (1L << 40) + 5, last - CHUNK, last};
        for (long page : pages) {
            table.set(page, 3);
        }
        int i = 0;
        for (long page = table.nextPresent(0); page >= 0; page = table.nextPresent(page + 1)) {
            assertEquals(pages[i++], page);
        }
        assertEquals(pages.length, i);
        assertEquals(3, table.get(last));
        assertEquals(TranslationTable.ABSENT, table.get(last - 1));
        assertEquals(-1, table.nextPresent(last + 1));
    }
}
