package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a flush or an unmap wrote is forced even when a later step of it fails or is refused: the pages it wrote are
 * clean in the frames by then, so no later flush writes them again, and nothing else said they were not yet durable.
 */
class ForcedAfterFailureTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /** The swapper calls of one file, as "write 0", "write 2+3", "force"; a write of {@link #failPage} throws. */
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicLong failPage = new AtomicLong(-1);

    /** When set, thrown by every write and force: one instance, as the JVM's preallocated OutOfMemoryError is. */
    private final java.util.concurrent.atomic.AtomicReference<Error> sharedError = new java.util.concurrent.atomic.AtomicReference<>();

    private void maybeThrowShared() {
        Error e = sharedError.get();
        if (e != null) {
            throw e;
        }
    }

    private PageCache open() throws IOException {
        return PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.evictor.enabled", "false",
            "pagecache.warmup.enabled", "false")), SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void write(long pageId, long address) throws IOException {
                    calls.add("write " + pageId);
                    maybeThrowShared();
                    if (pageId == failPage.get()) {
                        throw new IOException("injected: write of page " + pageId);
                    }
                    super.write(pageId, address);
                }

                @Override
                public void write(long startPageId, long[] addresses, int count) throws IOException {
                    calls.add("write " + startPageId + "+" + count);
                    maybeThrowShared();
                    if (startPageId <= failPage.get() && failPage.get() < startPageId + count) {
                        throw new IOException("injected: write of pages " + startPageId + "+" + count);
                    }
                    super.write(startPageId, addresses, count);
                }

                @Override
                public void force() throws IOException {
                    calls.add("force");
                    maybeThrowShared();
                    super.force();
                }
            }));
    }

    private void assertLastWriteForced() {
        int lastWrite = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).startsWith("write")) {
                lastWrite = i;
            }
        }
        assertTrue(lastWrite >= 0, calls.toString());
        assertTrue(calls.subList(lastWrite, calls.size()).contains("force"), "the last write was forced: " + calls);
    }

    /**
     * A close refused because a write cursor holds a page: its flush had written the dirty pages (marked clean), and
     * the refusal came from the drop, before the force, so they stayed unforced behind an IllegalStateException that
     * reads as "nothing happened". Now they are forced before it is thrown.
     */
    @Test
    void aCloseRefusedForAWriteCursorForcesWhatItsFlushWrote() throws Exception {
        try (PageCache cache = open()) {
            PagedFile file = cache.map(dir.resolve("refused.db"), PAGE);
            write(file, 0, 10);
            try (PageCursor held = file.io(2, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(held.next());
                calls.clear();
                IllegalStateException e = assertThrows(IllegalStateException.class, file::close);
                assertTrue(e.getMessage().contains("held by a write cursor"), e.getMessage());
                assertTrue(calls.contains("write 0"), calls.toString());
                assertLastWriteForced();
            }
            file.close();
        }
    }

    /**
     * A flush whose second write fails: the first run it wrote is clean in the frames, and was left unforced behind
     * the flush's error. Now it is forced before the error is thrown; the failed page stays dirty, and a later flush
     * writes it.
     */
    @Test
    void aFlushWhoseLaterWriteFailsForcesWhatItWroteBefore() throws Exception {
        try (PageCache cache = open()) {
            PagedFile file = cache.map(dir.resolve("flush.db"), PAGE);
            write(file, 0, 10);
            write(file, 2, 12); // page 1 clean: two write calls
            failPage.set(2);
            calls.clear();
            IOException e = assertThrows(IOException.class, file::flush);
            assertTrue(e.getMessage().contains("injected"), e.getMessage());
            assertEquals(List.of("write 0", "write 2", "force"), calls);
            failPage.set(-1);
            calls.clear();
            file.flush();
            assertEquals(List.of("write 2", "force"), calls, "the failed page stayed dirty");
            file.close();
        }
    }

    /**
     * The write and the force after it throw one Error instance (under a real heap exhaustion the JVM throws its
     * preallocated OutOfMemoryError): the close throws that Error and the file stays mapped with its dirty page, to be
     * closed once the swapper works (saying the earlier force failed: that sticks). Adding the force's Error to the
     * write's as suppressed would throw "Self-suppression not permitted" and leave the file's gate closed.
     */
    @Test
    void aCloseWhoseWriteAndForceThrowOneErrorInstanceThrowsItAndStaysMapped() throws Exception {
        try (PageCache cache = open()) {
            PagedFile file = cache.map(dir.resolve("one-error.db"), PAGE);
            write(file, 0, 10);
            OutOfMemoryError shared = new OutOfMemoryError("injected: one instance");
            sharedError.set(shared);
            Error e = assertThrows(Error.class, file::close);
            assertTrue(e == shared, e.toString());
            sharedError.set(null);
            try (PageCursor r = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next(), "still mapped");
                assertEquals(10, r.getLong(0));
            }
            calls.clear();
            IOException sticky = assertThrows(IOException.class, file::close);
            assertTrue(sticky.getMessage().startsWith("an earlier force of") && sticky.getCause().getCause() == shared,
                sticky.toString());
            assertTrue(calls.contains("write 0") && calls.get(calls.size() - 1).equals("force"), calls.toString());
            assertThrows(IllegalStateException.class, () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK), "unmapped");
            file.close();
        }
    }
}
