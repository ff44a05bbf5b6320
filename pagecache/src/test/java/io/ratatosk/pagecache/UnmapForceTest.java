package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is written to a file while it is unmapped is forced before the unmap returns. A page a write cursor dirtied
 * again while the unmap's flush passed it is written after that flush: by the unmap's drop, or by an eviction that takes
 * it first. The swapper's close need not force ({@link io.ratatosk.core.PageSwapper} does not say it does).
 */
class UnmapForceTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 16;

    @TempDir
    Path dir;

    /** Who writes page 0 after the unmap's flush passed it. */
    private enum After {
        /** the unmap's drop */
        DROP,
        /** an eviction, before the drop comes to it */
        EVICTION,
        /** the unmap's drop, whose write throws a RuntimeException (a plug-in's bug, an UncheckedIOException) */
        FAILING_DROP
    }

    @ParameterizedTest(name = "evictor {0}")
    @ValueSource(booleans = {true, false})
    void aPageTheUnmapsDropWritesIsForcedBeforeCloseReturns(boolean evictor) throws Exception {
        closeWhileAWriterDirtiesPageZeroAgain(After.DROP, evictor);
    }

    @ParameterizedTest(name = "evictor {0}")
    @ValueSource(booleans = {true, false})
    void aPageAnEvictionWritesDuringTheUnmapIsForcedBeforeCloseReturns(boolean evictor) throws Exception {
        closeWhileAWriterDirtiesPageZeroAgain(After.EVICTION, evictor);
    }

    /**
     * The drop's write is the swapper's too: a RuntimeException from it fails the close as the documented IOException
     * naming the file, the swapper's as its cause (it came out as it was), and the file stays mapped with the page dirty.
     */
    @ParameterizedTest(name = "evictor {0}")
    @ValueSource(booleans = {true, false})
    void aRuntimeExceptionFromTheDropsWriteIsAnIOExceptionNamingTheFile(boolean evictor) throws Exception {
        closeWhileAWriterDirtiesPageZeroAgain(After.FAILING_DROP, evictor);
    }

    /**
     * A writer holds page 0 while the unmap's flush writes it (so it stays dirty), writes it again and lets go while the
     * flush is held in its write of page 2. For {@link After#EVICTION} the writer then faults pages of another file in
     * until page 0 is evicted (written), while the unmap's first force is held. With the background {@code evictor} on
     * or off: the evictions are its, or the faulting writer's own.
     */
    private void closeWhileAWriterDirtiesPageZeroAgain(After after, boolean evictor) throws Exception {
        boolean evict = after == After.EVICTION;
        AtomicBoolean failNextWriteOfPage0 = new AtomicBoolean();
        List<String> calls = new CopyOnWriteArrayList<>();
        AtomicBoolean holdWriteOfPage2 = new AtomicBoolean();
        AtomicBoolean holdForce = new AtomicBoolean();
        CountDownLatch writeHeld = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        CountDownLatch forceHeld = new CountDownLatch(1);
        CountDownLatch writerDone = new CountDownLatch(1);
        Path path = dir.resolve("unmapped.db");
        PageSwapperFactory swappers = SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            private final boolean watched = real.toString().contains(path.getFileName().toString());

            @Override
            public void write(long pageId, long address) throws IOException {
                record("write " + pageId);
                if (watched && pageId == 0 && failNextWriteOfPage0.compareAndSet(true, false)) {
                    throw new java.io.UncheckedIOException(new IOException("injected: write of page 0"));
                }
                super.write(pageId, address);
                if (watched && pageId == 2 && holdWriteOfPage2.compareAndSet(true, false)) {
                    writeHeld.countDown();
                    await(letGo, "the writer let page 0 go");
                }
            }

            @Override
            public void write(long startPageId, long[] addresses, int count) throws IOException {
                record("write " + startPageId + "+" + count);
                super.write(startPageId, addresses, count);
            }

            @Override
            public void evict(long pageId, long address, boolean dirty) throws IOException {
                if (dirty) {
                    record("write " + pageId + " (evict)");
                }
                super.evict(pageId, address, dirty);
            }

            @Override
            public void force() throws IOException {
                record("force");
                super.force();
                if (watched && holdForce.compareAndSet(true, false)) {
                    forceHeld.countDown();
                    await(writerDone, "the writer ended");
                }
            }

            @Override
            public void close() throws IOException {
                record("close");
                super.close();
            }

            private void record(String call) {
                if (watched) {
                    calls.add(call);
                }
            }
        });
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(FRAMES * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", String.valueOf(evictor)));
        try (PageCache cache = PageCache.open(config, swappers)) {
            PagedFile file = cache.map(path, PAGE);
            PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
            try (PageCursor w = other.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next(8 * FRAMES - 1)); // pages for the eviction to fault in
            }
            other.flush();
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next(2)); // page 1 stays clean: the flush writes page 0 and page 2 in two calls
                PageContent.write(w, 2, 1);
            }
            CountDownLatch pinned = new CountDownLatch(1);
            AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(w.next(0));
                        PageContent.write(w, 0, 1);
                        pinned.countDown();
                        await(writeHeld, "the unmap's flush holds its write of page 2"); // the unmap's flush wrote page 0 while this cursor held it: it stays dirty
                        PageContent.write(w, 0, 2);
                        failNextWriteOfPage0.set(after == After.FAILING_DROP);
                    }
                    letGo.countDown();
                    if (evict) {
                        await(forceHeld, "the unmap holds its first force");
                        // Faults of another file evict page 0 if it is still in a frame, writing it.
                        for (long p = 0; p < 8 * FRAMES && file.table().get(0) != TranslationTable.ABSENT; p++) {
                            other.touch(p, 1);
                        }
                        assertEquals(TranslationTable.ABSENT, file.table().get(0), "page 0 left the frames");
                    }
                } catch (Throwable t) {
                    writerFailure.set(t);
                } finally {
                    pinned.countDown();
                    letGo.countDown();
                    writerDone.countDown();
                }
            }, "writer of page 0");
            writer.start();
            await(pinned, "the writer pinned page 0");
            holdWriteOfPage2.set(true);
            holdForce.set(evict);
            if (after == After.FAILING_DROP) {
                IOException e = assertThrows(IOException.class, file::close);
                assertTrue(e.getMessage().contains(path.toString()) && e.getCause() instanceof java.io.UncheckedIOException,
                    e.toString());
                Waits.join(writer, "the writer");
                assertNull(writerFailure.get());
                assertTrue(file.numberOfCachedPages() > 0, "still mapped, page 0 still in the cache");
            }
            file.close();
            Waits.join(writer, "the writer");
            assertNull(writerFailure.get());
            int lastWrite = -1;
            for (int i = 0; i < calls.size(); i++) {
                if (calls.get(i).startsWith("write")) {
                    lastWrite = i;
                }
            }
            assertTrue(lastWrite >= 0, calls.toString());
            assertTrue(calls.subList(lastWrite, calls.size()).contains("force"),
                "the last write was forced before the file was closed: " + calls);
        }
        try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, PAGE, false);
             PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(r.next(0));
            assertEquals(2, PageContent.readValidated(r, 0, new long[PageContent.bodyWords(PAGE)]));
        }
    }

    /** Waits for {@code latch}, on any thread of the test; fails naming {@code what} after the tests' bound. */
    private static void await(CountDownLatch latch, String what) {
        try {
            Waits.await(latch, what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting until " + what, e);
        }
    }
}
