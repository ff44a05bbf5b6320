package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed force (fsync) of a file sticks: after it the operating system may have dropped the pages it could not write
 * and report the next fsync as a success, while the cache holds those pages dirty no more. So every later flush of the
 * file, {@code flushAndForce} and the close that unmaps it throw, saying so, however the later forces go; the close
 * still unmaps the file (its pages are written and dropped), and a new mapping of it starts afresh.
 */
class StickyForceFailureTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false"));
    }

    private static void assertSaysAnEarlierForceFailed(IOException e, Path path) {
        assertTrue(e.getMessage().contains("an earlier force of " + path + " failed (injected force failure)"),
            e.getMessage());
    }

    /**
     * Once a flush's force failed, the next flush, flushAndForce and close each forced again, succeeded and returned: a
     * store that retried was told its data was durable. Now each throws, naming the earlier failure.
     */
    @Test
    void everyFlushAndTheCloseAfterAFailedForceSayItFailed() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        Path path = dir.resolve("sticky.db");
        try (PageCache cache = PageCache.open(config(), swappers)) {
            PagedFile file = cache.map(path, PAGE);
            write(file, 0, 10);
            swappers.failForces = true;
            assertThrows(IOException.class, file::flush);
            swappers.failForces = false; // the disk answers again: its fsyncs succeed

            write(file, 1, 11);
            assertSaysAnEarlierForceFailed(assertThrows(IOException.class, file::flush), path);
            assertSaysAnEarlierForceFailed(assertThrows(IOException.class, cache::flushAndForce), path);
            assertEquals(11, read(file, 1), "the flushes wrote and kept working");

            assertSaysAnEarlierForceFailed(assertThrows(IOException.class, file::close), path);
            assertThrows(IllegalStateException.class, () -> read(file, 0), "unmapped all the same");
            assertEquals(0, file.numberOfCachedPages());
            file.close(); // unmapped and closed already: does nothing
            cache.flushAndForce();

            try (PagedFile again = cache.map(path, PAGE)) {
                assertEquals(10, read(again, 0));
                assertEquals(11, read(again, 1));
                write(again, 2, 12);
                again.flush(); // a new mapping starts afresh
            }
        }
    }

    /**
     * A close whose own force fails: the file is unmapped all the same (every page was written and dropped before the
     * force), where it once stayed mapped for a retried close, whose force then succeeded and whose close reported
     * success. A retried close now does nothing; the cache closes.
     */
    @Test
    void aCloseWhoseForceFailsUnmapsTheFileAndSaysSo() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        Path path = dir.resolve("close.db");
        try (PageCache cache = PageCache.open(config(), swappers)) {
            PagedFile file = cache.map(path, PAGE);
            write(file, 0, 20);
            swappers.failForces = true;
            IOException e = assertThrows(IOException.class, file::close);
            assertTrue(e.getMessage().contains("forcing " + path) && e.getMessage().contains("injected force failure"),
                e.getMessage());
            swappers.failForces = false;
            assertThrows(IllegalStateException.class, () -> read(file, 0), "unmapped");
            assertThrows(IllegalStateException.class, file::flush);
            file.close();
        }
        try (PageCache cache = PageCache.open(config()); PagedFile file = cache.map(path, PAGE, false)) {
            assertEquals(20, read(file, 0));
        }
    }

    /**
     * A close whose force fails says the file is unmapped, and closes it too: it once left the file open (its descriptor,
     * its file id, its registration) until the same PagedFile was closed again or the cache closed, so a store that took
     * the exception as the close's outcome, as it says, kept the file open for the cache's life (and the disk space of
     * a file it then deleted to recover it).
     */
    @Test
    void aCloseWhoseForceFailsClosesTheFile() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        Path path = dir.resolve("closed.db");
        try (PageCache cache = PageCache.open(config(), swappers)) {
            PagedFile file = cache.map(path, PAGE);
            write(file, 0, 40);
            swappers.failForces = true;
            assertThrows(IOException.class, file::close);
            swappers.failForces = false;
            assertEquals(1, swappers.closedSwappers.get(), "the unmapped file's swapper is closed by the close that threw");
            file.close(); // nothing left to do
            assertEquals(1, swappers.closedSwappers.get());
            try (PagedFile again = cache.map(path, PAGE)) {
                assertEquals(40, read(again, 0));
            }
            assertEquals(2, swappers.closedSwappers.get());
        }
    }

    /**
     * The cache's close after a failed force of one of its files: it closed and returned as if every file were durable.
     * Now it throws, with the file unmapped and the cache closed (as after a swapper whose close failed): a retried close
     * could only force again, whose success would say nothing. It once stayed open for a second close.
     */
    @Test
    void theCachesCloseAfterAFailedForceSaysItFailed() throws Exception {
        FaultySwapperFactory swappers = new FaultySwapperFactory();
        Path path = dir.resolve("cache-close.db");
        PageCache cache = PageCache.open(config(), swappers);
        PagedFile file = cache.map(path, PAGE);
        write(file, 0, 30);
        swappers.failForces = true;
        assertThrows(IOException.class, file::flush);
        swappers.failForces = false;
        assertSaysAnEarlierForceFailed(assertThrows(IOException.class, cache::close), path);
        assertTrue(cache.isClosed(), "nothing is left to close again for");
        assertThrows(IllegalStateException.class, () -> read(file, 0), "unmapped");
        assertThrows(IllegalStateException.class, () -> cache.map(dir.resolve("other.db"), PAGE));
        cache.close(); // closing again does nothing
        try (PageCache reopened = PageCache.open(config()); PagedFile again = reopened.map(path, PAGE, false)) {
            assertEquals(30, read(again, 0));
        }
    }
}
