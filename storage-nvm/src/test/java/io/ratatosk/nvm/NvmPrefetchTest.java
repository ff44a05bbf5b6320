package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.Waits;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pagecache.nvm.prefetch}: after a swap-in, the next pages come from NVM into free frames in the background. */
class NvmPrefetchTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 16;
    private static final int PAGES = 96;
    private static final long[] BODY = new long[PageContent.bodyWords(PAGE)];

    @TempDir
    Path dir;

    private static PageCacheConfig config(int prefetch) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(FRAMES * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(4 * PAGES * PAGE));
        flags.put("pagecache.nvm.inject_latency", "false");
        flags.put("pagecache.nvm.prefetch", String.valueOf(prefetch));
        // No background evictor: nothing evicts a prefetched page before the test reads it.
        flags.put("pagecache.evictor.enabled", "false");
        return PageCacheConfig.parse(flags);
    }

    private static long read(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            return PageContent.readValidated(c, pageId, BODY);
        }
    }

    private static boolean anyResident(PagedFile file) {
        for (int p = 0; p < PAGES; p++) {
            if (PageCacheInternals.tableEntry(file, p) != TranslationTable.ABSENT) {
                return true;
            }
        }
        return false;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        // the prefetcher may not run for seconds under load: Waits' bound, as every wait of the tests
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until " + what + ": not within "
                + Waits.BOUND_SECONDS + " s (ratatosk.test.wait_s)");
            Thread.sleep(1);
        }
    }

    /** Whether a page of {@code file} is in a frame once the prefetcher has served every hint offered so far. */
    private static boolean anyResidentOnceThePrefetcherIsIdle(PageCache cache, PagedFile file) throws Exception {
        PageCacheInternals.awaitPrefetcherIdle(cache);
        return anyResident(file);
    }

    private static void write(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            PageContent.write(c, pageId, 1);
        }
    }

    /**
     * Writes every page of {@code file}, fills the frames with pages of a second file and closes it,
     * so that every page of {@code file} is in NVM and every frame is free. The filler's swap-ins hint their NVM slot
     * neighbours, pages of {@code file} among them: the push ends only once the prefetcher has served every hint, or
     * a late one would bring a page of {@code file} back into the frames the filler's close freed.
     */
    private void writeAllAndPushOutOfFrames(PageCache cache, PagedFile file) throws Exception {
        for (int p = 0; p < PAGES; p++) {
            write(file, p);
        }
        try (PagedFile filler = cache.map(dir.resolve("filler.db"), PAGE)) {
            for (int p = 0; anyResident(file) || anyResidentOnceThePrefetcherIsIdle(cache, file); p++) {
                assertTrue(p < 100 * FRAMES, "the filler pushes every page of the file out of the frames");
                write(filler, p % (4 * FRAMES));
            }
        }
        assertEquals(FRAMES, PageCacheInternals.freeFrames(cache));
        for (int p = 0; p < PAGES; p++) {
            assertEquals(TranslationTable.ABSENT, PageCacheInternals.tableEntry(file, p), "page " + p + " left the frames");
            assertTrue(((NvmSwapStore) cache.tier()).contains(PageCacheInternals.fileId(file), p), "page " + p + " is in NVM");
        }
    }

    @Test
    void aSwapInBringsTheNextPagesFromNvmBeforeTheyAreAskedFor() throws Exception {
        try (PageCache cache = PageCache.open(config(8)); PagedFile file = cache.map(dir.resolve("prefetch.db"), PAGE)) {
            writeAllAndPushOutOfFrames(cache, file);
            long prefetchedBefore = cache.stats().nvm().prefetched();
            assertEquals(1, read(file, 40), "page 40, swapped in on demand");
            await(() -> PageCacheInternals.tableEntry(file, 44) > 0, "pages 41..44, the file neighbours, are prefetched");
            await(() -> cache.stats().nvm().prefetched() >= prefetchedBefore + 4, "four prefetches are counted");
            for (int p = 41; p <= 44; p++) {
                assertTrue(PageCacheInternals.tableEntry(file, p) > 0, "page " + p + " is in a frame before anyone asked for it");
                long faults = cache.stats().faults();
                assertEquals(1, read(file, p), "a prefetched page holds its content");
                assertEquals(faults, cache.stats().faults(), "reading prefetched page " + p + " is a hit");
            }
        }
    }

    @Test
    void hintsForPagesAlreadyInFramesAreDropped() throws Exception {
        try (PageCache cache = PageCache.open(config(2)); PagedFile file = cache.map(dir.resolve("resident.db"), PAGE)) {
            writeAllAndPushOutOfFrames(cache, file);
            read(file, 51); // page 51 is resident again
            // 51's own swap-in hints its NVM slot neighbour, which may be page 50: once those hints are
            // served, demand a page that is still absent and whose hints (page + 1, + 2) include 51.
            PageCacheInternals.awaitPrefetcherIdle(cache);
            long demand = PageCacheInternals.tableEntry(file, 50) == TranslationTable.ABSENT ? 50 : 49;
            assertEquals(TranslationTable.ABSENT, PageCacheInternals.tableEntry(file, demand), "page " + demand + " is still in NVM only");
            long dropped = cache.stats().nvm().prefetchHintsDropped();
            assertEquals(1, read(file, demand), "swapped in: its hints include page 51, which is resident");
            await(() -> cache.stats().nvm().prefetchHintsDropped() > dropped, "the hint for resident page 51 is dropped");
        }
    }

    @Test
    void withoutPrefetchNothingIsPrefetched() throws Exception {
        try (PageCache cache = PageCache.open(config(0)); PagedFile file = cache.map(dir.resolve("off.db"), PAGE)) {
            writeAllAndPushOutOfFrames(cache, file);
            read(file, 40);
            Thread.sleep(20);
            assertEquals(TranslationTable.ABSENT, PageCacheInternals.tableEntry(file, 41));
            assertEquals(0, cache.stats().nvm().prefetched());
            assertEquals(0, cache.stats().nvm().prefetchHintsDropped());
        }
    }
}
