package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file is mapped by one page cache of the JVM at a time: two caches of one file keep its pages in frames of their
 * own, so a write through one is invisible through the other and each one's flushes write over the other's pages.
 * The refusal lasts exactly as long as the mapping: a failed map, a close and a cache's close all free the file.
 */
class OneCachePerFileTest {
    @TempDir
    Path dir;

    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", "8k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));

    private static void write(PagedFile file, long pageId, long value) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            c.putLong(0, value);
        }
    }

    private static long read(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next());
            long value;
            do {
                value = c.getLong(0);
            } while (c.shouldRetry());
            return value;
        }
    }

    /** The second cache's map is refused naming the file, by its own path and by a hard link; the first keeps it. */
    @Test
    void aFileMappedByOneCacheIsRefusedToAnother() throws IOException {
        Path file = dir.resolve("a.db");
        Path hardLink = dir.resolve("b.db");
        try (PageCache first = PageCache.open(CONFIG); PageCache second = PageCache.open(CONFIG)) {
            PagedFile mapped = first.map(file, 8192);
            Files.createLink(hardLink, file);
            write(mapped, 0, 42);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> second.map(file, 8192));
            assertTrue(e.getMessage().contains(file.toRealPath().toString())
                && e.getMessage().contains("another page cache"), e.getMessage());
            IllegalStateException byLink = assertThrows(IllegalStateException.class, () -> second.map(hardLink, 8192));
            assertTrue(byLink.getMessage().contains("another page cache"), byLink.getMessage());
            assertEquals(42, read(mapped, 0));
            mapped.close();
            try (PagedFile again = second.map(hardLink, 8192)) {
                assertEquals(42, read(again, 0)); // free once closed, with what the first cache wrote
            }
        }
    }

    /** A cache closed with the file still mapped frees it, even where the swapper's close failed. */
    @Test
    void aCacheClosedWithTheFileMappedFreesIt() throws IOException {
        Path file = dir.resolve("a.db");
        Path other = dir.resolve("c.db");
        PageSwapperFactory closeFails = SwapperFactories.wrapping(s -> new ForwardingPageSwapper(s) {
            @Override
            public void close() throws IOException {
                super.close();
                throw new IOException("injected close failure");
            }
        });
        PageCache first = PageCache.open(CONFIG);
        write(first.map(file, 8192), 0, 7);
        first.close();
        PageCache failing = PageCache.open(CONFIG, closeFails);
        failing.map(other, 8192);
        assertThrows(IOException.class, failing::close);
        assertTrue(failing.isClosed());
        try (PageCache second = PageCache.open(CONFIG)) {
            assertEquals(7, read(second.map(file, 8192), 0));
            second.map(other, 8192);
        }
    }

    /**
     * A cache closed with a file whose swapper would not close keeps the file from other caches until its swapper factory
     * has closed too: a tier writes back at its close what the file's own close could not, so a cache that mapped the
     * file in between read pages that the tier then wrote over, and its writes could be written over.
     */
    @Test
    void aFileWhoseSwapperWouldNotCloseStaysClaimedUntilTheCachesFactoryHasClosed() throws IOException {
        Path file = dir.resolve("a.db");
        try (PageCache other = PageCache.open(CONFIG)) {
            AtomicReference<String> mapDuringTheFactorysClose = new AtomicReference<>();
            TierLikeFactory tierLike = new TierLikeFactory(() -> {
                try {
                    other.map(file, 8192).close();
                    mapDuringTheFactorysClose.set("mapped");
                } catch (IllegalStateException refused) {
                    mapDuringTheFactorysClose.set(refused.getMessage());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            PageCache closing = PageCache.open(CONFIG, tierLike);
            write(closing.map(file, 8192), 0, 7);
            IOException closeFailure = assertThrows(IOException.class, closing::close);
            assertTrue(closeFailure.getMessage().contains("closing it failed"), closeFailure.getMessage());
            assertTrue(closing.isClosed());
            assertNotNull(mapDuringTheFactorysClose.get());
            assertTrue(mapDuringTheFactorysClose.get().contains("another page cache"),
                "another cache's map while the closing cache's factory still closed: " + mapDuringTheFactorysClose.get());
            try (PagedFile again = other.map(file, 8192)) {
                assertEquals(7, read(again, 0)); // free once the cache and its factory have closed
            }
        }
    }

    /**
     * A cache closed with a file whose swapper would not close, and whose factory's close failed too, keeps the file; once
     * the host closed the factory itself (a retry of the tier's close, which closes its files), nothing of the file is
     * left open and another cache maps it. Only a retried {@code PagedFile.close} of the dead mapping gave the file back,
     * and a host that retried the factory's close kept it from every other cache for the JVM's life.
     */
    @Test
    void aFileIsFreeOnceARetriedCloseOfTheFactoryClosedIt() throws IOException {
        Path file = dir.resolve("a.db");
        TierLikeFactory tierLike = new TierLikeFactory(() -> { });
        closeLeavingTheFileOpen(tierLike, file);
        try (PageCache other = PageCache.open(CONFIG)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> other.map(file, 8192),
                "the file's swapper still does not close");

            tierLike.closeFails = false;
            tierLike.close(); // the host retries the tier's close: it closes the file
            try (PagedFile again = other.map(file, 8192)) {
                assertEquals(7, read(again, 0), "free once nothing of it is left open");
            }
            assertTrue(refused.getMessage().contains("was closed could not close it") && refused.getMessage().contains(
                "injected: the tier still holds pages of"), "the refusal says why: " + refused.getMessage());
        }
    }

    /**
     * A cache closed with a file it could not close, and dropped by the host, is not kept reachable for that file: what
     * another cache's map needs to close the file again is its swapper alone. The file's claim, in a static map until the
     * file closes (perhaps never), held the closed cache's registry, and through it its engine: the policy's and the free
     * list's arrays, sized by the frames, and every file's translation table, for the JVM's life. Another cache's map
     * still closes the file first, and maps it once that close succeeds.
     */
    @Test
    void aClosedCacheThatLeftAFileOpenIsNotKeptReachableByTheFile() throws Exception {
        Path file = dir.resolve("a.db");
        TierLikeFactory tierLike = new TierLikeFactory(() -> { });
        WeakReference<EvictionEngine> engine = closeLeavingTheFileOpen(tierLike, file);
        for (int i = 0; i < 100 && engine.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(engine.get(), "the closed cache's engine is still reachable, from the claim of the file it left open");
        try (PageCache other = PageCache.open(CONFIG)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> other.map(file, 8192),
                "the file's swapper still does not close");
            assertTrue(refused.getMessage().contains("injected: the tier still holds pages of"), refused.getMessage());

            tierLike.closeFails = false;
            tierLike.close(); // the host retries the tier's close: it closes the file
            try (PagedFile again = other.map(file, 8192)) {
                assertEquals(7, read(again, 0), "free once nothing of it is left open");
            }
        }
    }

    /**
     * While another cache's map waits for a closed cache's file to close again (its storage slow to take the close), this
     * cache's other maps and closes go on: that close ran under this cache's mapping lock, and every map, unmap and the
     * close of the cache waited for it, for ever with storage that no longer answers.
     */
    @Test
    void aMapRetryingAClosedCachesFileCloseHoldsUpNoOtherMapOfItsCache() throws Exception {
        Path file = dir.resolve("a.db");
        TierLikeFactory tierLike = new TierLikeFactory(() -> { });
        closeLeavingTheFileOpen(tierLike, file);
        CountDownLatch retryEntered = new CountDownLatch(1);
        CountDownLatch retryMayEnd = new CountDownLatch(1);
        tierLike.fileCloseFailing = () -> {
            retryEntered.countDown();
            Waits.awaitQuietly(retryMayEnd);
        };
        try (PageCache other = PageCache.open(CONFIG)) {
            // A task, so that what the thread's own check throws comes back here (a thread's uncaught failure is lost)
            FutureTask<IllegalStateException> retry = new FutureTask<>(() -> assertThrows(IllegalStateException.class,
                () -> other.map(file, 8192)));
            Thread mapping = new Thread(retry, "map of the file left open");
            mapping.setDaemon(true);
            mapping.start();
            try {
                Waits.await(retryEntered, "the map tries the file's close again", mapping);
                assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS),
                    () -> other.map(dir.resolve("b.db"), 8192).close(),
                    "another map of the cache waited for the close of a closed cache's file");
            } finally {
                retryMayEnd.countDown();
                Waits.join(mapping, "the map of the file left open");
            }
            IllegalStateException refused = retry.get();
            assertTrue(refused.getMessage().contains("injected: the tier still holds pages of"), refused.getMessage());
        }
    }

    /**
     * Opens a cache on {@code tierLike}, writes 7 to {@code file} through it and closes it, the factory's close failing
     * too, so that the file is left open: the cache's engine, weakly.
     */
    private static WeakReference<EvictionEngine> closeLeavingTheFileOpen(TierLikeFactory tierLike, Path file)
        throws IOException {
        tierLike.closeFails = true;
        PageCache closing = PageCache.open(CONFIG, tierLike);
        write(closing.map(file, 8192), 0, 7);
        assertThrows(IOException.class, closing::close);
        assertTrue(closing.isClosed());
        return new WeakReference<>(closing.engine());
    }

    /**
     * Swappers of real files that, as a tier's, will not close until their factory has closed: the tier writes back at
     * its close what a file's own close could not, then closes the file. Its close runs {@code beforeClosing} first, and
     * fails while {@link #closeFails} is set.
     */
    private static final class TierLikeFactory implements PageSwapperFactory {
        private final PageSwapperFactory files = new FileSwapperFactory();
        private final List<PageSwapper> opened = new ArrayList<>();
        private final Runnable beforeClosing;
        volatile boolean closeFails;
        /** Run by each file's close before it fails: a test's seam to hold it up. */
        volatile Runnable fileCloseFailing = () -> { };
        private volatile boolean closed;

        TierLikeFactory(Runnable beforeClosing) {
            this.beforeClosing = beforeClosing;
        }

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            PageSwapper swapper = files.create(file, fileId, filePageSize, create);
            opened.add(swapper);
            return new ForwardingPageSwapper(swapper) {
                @Override
                public void close() throws IOException {
                    if (!closed) {
                        fileCloseFailing.run();
                        throw new IOException("injected: the tier still holds pages of " + file);
                    }
                    // closed with the factory, as a tier closes its files: nothing left to do
                }
            };
        }

        @Override
        public void close() throws IOException {
            beforeClosing.run();
            if (closeFails) {
                throw new IOException("injected: the tier cannot close yet");
            }
            for (PageSwapper swapper : opened) {
                swapper.close();
            }
            closed = true;
        }
    }

    /** Every way a map fails half-way frees the file: the factory's refusal, a listener's failure, a failed size. */
    @Test
    void aMapThatFailsHalfWayFreesTheFile() throws IOException {
        Path file = dir.resolve("a.db");
        PageSwapperFactory refusing = (f, fileId, filePageSize, create) -> {
            throw new IOException("injected: cannot open " + f);
        };
        PageSwapperFactory sizeFails = SwapperFactories.wrapping(s -> new ForwardingPageSwapper(s) {
            @Override
            public long pageCount() throws IOException {
                throw new IOException("injected size failure");
            }
        });
        try (PageCache cache = PageCache.open(CONFIG, refusing)) {
            assertThrows(IOException.class, () -> cache.map(file, 8192));
        }
        try (PageCache cache = PageCache.open(CONFIG, sizeFails)) {
            assertThrows(IOException.class, () -> cache.map(file, 8192));
        }
        AtomicBoolean listenerFails = new AtomicBoolean(true);
        try (PageCache cache = PageCache.open(CONFIG); PageCache second = PageCache.open(CONFIG)) {
            cache.fileRegistry().listener(new MappingListener() {
                @Override
                public void mapped(FileMapping mapping) {
                    if (listenerFails.get()) {
                        throw new IllegalStateException("injected listener failure");
                    }
                }

                @Override
                public void unmapping(FileMapping mapping) {
                }
            });
            assertThrows(IllegalStateException.class, () -> cache.map(file, 8192));
            second.map(file, 8192).close();
            listenerFails.set(false);
            cache.map(file, 8192).close();
        }
    }

    /**
     * A cache's map that created a file and then failed (here: another cache mapped the new file first) leaves the file
     * alone while another cache has it mapped. The failed map deleted the empty file it had created, under the mapping
     * of the other cache, whose pages then went to a file no path reached, lost at its close.
     */
    @Test
    void aFailedMapDoesNotDeleteTheFileItCreatedWhileAnotherCacheHasItMapped() throws Exception {
        PageSwapperFactory refusing = (f, fileId, filePageSize, create) -> {
            throw new IOException("injected: cannot open " + f);
        };
        int deletedUnderAMapping = 0;
        PageCache creator = PageCache.open(CONFIG, refusing);
        Thread create = null;
        try (PageCache mapper = PageCache.open(CONFIG)) {
            for (int round = 0; round < 300; round++) {
                Path file = dir.resolve("race-" + round + ".db");
                AtomicBoolean done = new AtomicBoolean();
                create = new Thread(() -> {
                    try {
                        creator.map(file, 8192);
                    } catch (IOException | RuntimeException expected) {
                        // refused by its factory, or by the other cache's claim
                    } finally {
                        done.set(true);
                    }
                }, "failing map of " + file.getFileName());
                create.setDaemon(true);
                create.start();
                PagedFile mapped = null;
                // Bounded: a failed map that never returns ends the round, and Waits.join fails with its stack
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
                while (mapped == null && !done.get() && System.nanoTime() - deadline < 0) {
                    try {
                        mapped = mapper.map(file, 8192, false);
                    } catch (IOException | IllegalStateException notYet) {
                        // not created yet, or the creator holds it
                    }
                }
                Waits.join(create, "the failed map of " + file.getFileName());
                if (mapped != null) {
                    if (!Files.exists(file)) {
                        deletedUnderAMapping++;
                    }
                    mapped.close();
                }
            }
        } finally {
            if (create == null || !create.isAlive()) {
                creator.close(); // not past a map that never returned: the close waits for its lock, and hid the failure
            }
        }
        assertEquals(0, deletedUnderAMapping, "files deleted by a failed map while another cache had them mapped");
    }

    /**
     * A failed map's delete of the file it created claims the file before it looks at it: another cache that maps the
     * file, writes it and closes it between the look (still the empty file it created) and the delete must find it
     * claimed, or its pages are deleted with the file. The claim once came after the look, and another cache's whole
     * map, write and close in that gap lost its page.
     */
    @Test
    void aFailedMapDoesNotDeleteTheFileItCreatedOnceAnotherCacheWroteItWhileTheMapLookedAtIt() throws Exception {
        PageSwapperFactory refusing = (f, fileId, filePageSize, create) -> {
            throw new IOException("injected: cannot open " + f);
        };
        Path file = dir.resolve("written.db");
        AtomicReference<Throwable> otherCache = new AtomicReference<>();
        AtomicBoolean written = new AtomicBoolean();
        try (PageCache creator = PageCache.open(CONFIG, refusing); PageCache writer = PageCache.open(CONFIG)) {
            MapTarget.lookedAtCreatedFile = () -> {
                try {
                    PagedFile mapped = writer.map(file, 8192, false);
                    write(mapped, 0, 42);
                    mapped.close();
                    written.set(true);
                } catch (IOException | RuntimeException e) {
                    otherCache.set(e); // refused: the failed map holds the file while it decides
                }
            };
            try {
                assertThrows(IOException.class, () -> creator.map(file, 8192));
            } finally {
                MapTarget.lookedAtCreatedFile = () -> { };
            }
            if (written.get()) {
                assertTrue(Files.exists(file), "the file another cache wrote and closed was deleted by the failed map");
                PagedFile again = writer.map(file, 8192, false);
                assertEquals(42, read(again, 0));
                again.close();
            } else {
                assertNotNull(otherCache.get());
                assertTrue(otherCache.get().getMessage().contains("another page cache"), otherCache.get().getMessage());
                assertTrue(Files.notExists(file), "the failed map left the empty file it created");
            }
        }
    }
}
