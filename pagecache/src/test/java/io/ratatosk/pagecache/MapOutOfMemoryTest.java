package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A map that runs out of memory once the file's swapper is open and the file half registered (its objects made, its id
 * taken, the registry's map resized after it inserted the file) leaves nothing of the file behind: its swapper is
 * closed, its id free, and the next map of the file maps it afresh. The swapper stayed open (a file descriptor for the
 * cache's life), and the file registered under a reference no caller held: the next map handed that mapping out with
 * two references, and its caller's close left the file mapped.
 */
class MapOutOfMemoryTest {
    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", "8k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));

    @TempDir
    Path dir;

    @AfterEach
    void noMoreFailures() {
        FileRegistry.registered = () -> { };
        FileRegistry.reidentifying = () -> { };
    }

    /** A cache whose file swappers count their opens in {@code opened} and their closes in {@code closed}. */
    private static PageCache countingOpensAndCloses(AtomicInteger opened, AtomicInteger closed) {
        return PageCache.open(CONFIG, SwapperFactories.wrapping(swapper -> {
            opened.incrementAndGet();
            return new ForwardingPageSwapper(swapper) {
                @Override
                public void close() throws IOException {
                    closed.incrementAndGet();
                    super.close();
                }
            };
        }));
    }

    @Test
    void aMapOutOfMemoryOnceTheFileIsRegisteredClosesItsSwapperAndLeavesNothingMapped() throws IOException {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        Path path = Files.createFile(dir.resolve("a.db"));
        try (PageCache cache = countingOpensAndCloses(opened, closed)) {
            OutOfMemoryError failure = new OutOfMemoryError("Java heap space (injected: registering the file)");
            FileRegistry.registered = () -> {
                throw failure;
            };
            assertSame(failure, assertThrows(OutOfMemoryError.class, () -> cache.map(path, 8192)));
            assertEquals(1, opened.get());
            assertEquals(1, closed.get(), "the failed map closed the swapper it opened");

            FileRegistry.registered = () -> { };
            PagedFile file = cache.map(path, 8192);
            assertEquals(2, opened.get(), "the next map opened the file afresh");
            file.close();
            assertEquals(2, closed.get(), "and its one close unmapped and closed it");
            assertThrows(IllegalStateException.class, () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK),
                "nothing of the file is mapped");
        }
        try (PageCache other = PageCache.open(CONFIG)) {
            other.map(path, 8192).close(); // the file is free for another cache
        }
        assertTrue(Files.exists(path));
    }

    /**
     * An Error reading the file's identity again once its swapper is open (the check that the path still names the file
     * that was opened) closes that swapper: only an IOException or RuntimeException did, and an OutOfMemoryError left the
     * file open, a descriptor no one held, for the cache's life.
     */
    @Test
    void anErrorReadingTheIdentityAfterTheOpenClosesTheSwapper() throws IOException {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        Path path = Files.createFile(dir.resolve("b.db"));
        try (PageCache cache = countingOpensAndCloses(opened, closed)) {
            OutOfMemoryError failure = new OutOfMemoryError("Java heap space (injected: reading the file's attributes)");
            FileRegistry.reidentifying = () -> {
                throw failure;
            };
            assertSame(failure, assertThrows(OutOfMemoryError.class, () -> cache.map(path, 8192)));
            assertEquals(1, opened.get());
            assertEquals(1, closed.get(), "the failed map closed the swapper it opened");

            FileRegistry.reidentifying = () -> { };
            cache.map(path, 8192).close();
            assertEquals(2, opened.get(), "the next map opened the file afresh");
            assertEquals(2, closed.get(), "and its close closed it");
        }
        try (PageCache other = PageCache.open(CONFIG)) {
            other.map(path, 8192).close(); // the file is free for another cache
        }
    }
}
