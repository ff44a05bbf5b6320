package io.ratatosk.pagecache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JFR event that cannot be made (an {@link OutOfMemoryError} allocating it while a recording runs) is left out, and
 * the fault, eviction or flush it would have described goes on. The fault's event was made after the page was marked
 * as being faulted and a frame taken, before the try that undoes both: its failure left the page faulting for good, so
 * every later reader of it waited for ever, and the frame locked.
 */
class EventCreationFailureTest {
    private static final int PAGE = 4096;
    private static final Supplier<FaultEvent> FAULTS = JfrEvents.Makers.fault;
    private static final Supplier<EvictionEvent> EVICTIONS = JfrEvents.Makers.eviction;
    private static final Supplier<FlushEvent> FLUSHES = JfrEvents.Makers.flush;

    @TempDir
    Path dir;

    @AfterEach
    void restoreTheMakers() {
        JfrEvents.Makers.fault = FAULTS;
        JfrEvents.Makers.eviction = EVICTIONS;
        JfrEvents.Makers.flush = FLUSHES;
    }

    private static <E> Supplier<E> failing(String event) {
        return () -> {
            throw new OutOfMemoryError("Java heap space (injected: making the " + event + " event)");
        };
    }

    private static PageCacheConfig config(String memory) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", memory, "pagecache.page_size", "4k",
            "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
    }

    /** A file of {@code pages} pages, each holding its own id in its first long. */
    private Path fileOfNumberedPages(int pages) throws Exception {
        Path path = dir.resolve("numbered.db");
        ByteBuffer bytes = ByteBuffer.allocate(pages * PAGE).order(ByteOrder.nativeOrder());
        for (int p = 0; p < pages; p++) {
            bytes.putLong(p * PAGE, p);
        }
        Files.write(path, bytes.array());
        return path;
    }

    /**
     * Runs {@code call} on a daemon thread, so that a hang fails the test instead of stopping the JVM's exit. What it
     * throws is reported by name, not as the assertion's cause: an {@link OutOfMemoryError} reaching the test runner
     * ends the forked JVM instead of failing one test.
     */
    private static <T> T within(Callable<T> call, String what) throws Exception {
        FutureTask<T> task = new FutureTask<>(call);
        Thread thread = new Thread(task, "event-failure-" + what);
        thread.setDaemon(true);
        thread.start();
        try {
            return task.get(1, TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not finish within a minute", e);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed: " + e.getCause());
        }
    }

    private static long readFirstLong(PagedFile file, long page) throws Exception {
        try (PageCursor cursor = file.io(page, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(cursor.next(), "page " + page + " is in the file");
            long value;
            do {
                value = cursor.getLong(0);
            } while (cursor.shouldRetry());
            return value;
        }
    }

    @Test
    void aFaultWhoseEventCannotBeMadeReadsThePageAndLeavesItReadable() throws Exception {
        Path path = fileOfNumberedPages(4);
        PageCache cache = PageCache.open(config("64k"));
        try {
            PagedFile file = cache.map(path, PAGE);
            JfrEvents.Makers.fault = failing("fault");

            AssertionError firstRead = null;
            try {
                assertEquals(1L, within(() -> readFirstLong(file, 1), "the fault of page 1"));
            } catch (AssertionError e) {
                firstRead = e; // reported after the later read, which shows what the failure left behind
            }

            JfrEvents.Makers.fault = FAULTS;
            assertEquals(1L, within(() -> readFirstLong(file, 1), "a later read of page 1"),
                "the page is not left being faulted");
            if (firstRead != null) {
                throw firstRead;
            }
            within(() -> {
                file.close();
                return null;
            }, "the unmap");
        } finally {
            within(() -> {
                cache.close();
                return null;
            }, "the cache's close");
        }
    }

    @Test
    void anEvictionWhoseEventCannotBeMadeEvicts() throws Exception {
        int pages = 32;
        Path path = fileOfNumberedPages(pages);
        try (PageCache cache = PageCache.open(config("32k")); PagedFile file = cache.map(path, PAGE)) {
            JfrEvents.Makers.eviction = failing("eviction");
            for (int p = 0; p < pages; p++) { // 8 frames: each fault past them evicts
                long page = p;
                assertEquals(page, within(() -> readFirstLong(file, page), "the read of page " + page));
            }
            int frames = cache.stats().frames();
            assertTrue(cache.stats().evictions() >= pages - frames, "evicted: " + cache.stats().evictions());
        }
    }

    @Test
    void aFlushWhoseEventCannotBeMadeWrites() throws Exception {
        Path path = dir.resolve("flushed.db");
        try (PageCache cache = PageCache.open(config("64k")); PagedFile file = cache.map(path, PAGE)) {
            for (long p = 0; p < 4; p++) {
                try (PageCursor cursor = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(cursor.next());
                    cursor.putLong(0, p + 100);
                }
            }
            JfrEvents.Makers.flush = failing("flush");

            within(() -> {
                file.flush();
                return null;
            }, "the flush");

            ByteBuffer written = ByteBuffer.allocate(4 * PAGE).order(ByteOrder.nativeOrder());
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                while (written.hasRemaining() && channel.read(written) >= 0) {
                    // read it all
                }
            }
            for (int p = 0; p < 4; p++) {
                assertEquals(p + 100, written.getLong(p * PAGE), "page " + p + " was written by the flush");
            }
        }
    }

    @Test
    void anEventThatCannotBeMadeIsLeftOut() throws Exception {
        JfrEvents.Makers.fault = failing("fault");
        JfrEvents.Makers.eviction = failing("eviction");
        JfrEvents.Makers.flush = failing("flush");

        assertNull(within(JfrEvents::fault, "making a fault event"));
        assertNull(within(JfrEvents::eviction, "making an eviction event"));
        assertNull(within(JfrEvents::flush, "making a flush event"));
    }
}
