package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.FrameDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cursor misuse that once hung or overflowed the stack instead of failing with a sentence naming the problem. */
class CursorMisuseTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;
    private PageCache cache;
    private PagedFile file;
    private ExecutorService executor;

    @BeforeEach
    void open() throws Exception {
        cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.evictor.enabled", "false")));
        file = cache.map(dir.resolve("misuse.db"), PAGE);
        executor = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void close() throws Exception {
        executor.shutdownNow();
        cache.close();
    }

    /**
     * A page holds at most {@link FrameDescriptor#MAX_WRITERS} write locks. The write cursor after them (here after
     * that many leaked ones) waited for one of them to close: for ever, spinning. It is refused now, and a write
     * cursor works again once one of the others is closed.
     */
    @Test
    void aWriteCursorBeyondThePagesWriteLockLimitIsRefusedNotLeftWaiting() throws Exception {
        List<PageCursor> held = new ArrayList<>();
        try {
            for (long i = 0; i < FrameDescriptor.MAX_WRITERS; i++) {
                PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
                held.add(w);
                assertTrue(w.next());
            }
            Future<?> oneMore = executor.submit(() -> {
                try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    w.next();
                }
                return null;
            });
            try {
                oneMore.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                fail("a write lock past the limit was granted");
            } catch (TimeoutException e) {
                fail("the write cursor past the limit still waits after " + Waits.BOUND_SECONDS + " s");
            } catch (ExecutionException e) {
                IllegalStateException refused = assertInstanceOf(IllegalStateException.class, e.getCause());
                assertTrue(refused.getMessage().startsWith("page 0 of " + file.path() + " already has "
                    + FrameDescriptor.MAX_WRITERS + " write cursors on it"), refused.getMessage());
            }
            held.remove(held.size() - 1).close();
            try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next(), "one closed, one more may write");
                w.putLong(0, 42);
            }
        } finally {
            held.forEach(PageCursor::close); // also lets a cursor still waiting (without the fix) finish
        }
        assertEquals(0, cache.openCursors());
    }

    /**
     * A chain of linked cursors, each opened from the one before, is refused past {@link PageCursor#MAX_LINK_DEPTH}.
     * Unbounded, a chain of a few thousand overflowed the stack in the root's {@code close()} (the walks over the links
     * are recursive), which left the cursors it had not reached counted open, so the page memory was never freed.
     * The chain up to the limit validates and closes whole.
     */
    @Test
    void aChainOfLinkedCursorsDeeperThanTheLimitIsRefusedAndTheChainClosesWhole() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next(1));
        }
        PageCursor root = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        assertTrue(root.next());
        PageCursor last = root;
        int depth = 0;
        IllegalStateException refused = null;
        while (refused == null && depth < 20_000) {
            try {
                last = last.openLinkedCursor(1);
                depth++;
                assertTrue(last.next());
            } catch (IllegalStateException e) {
                refused = e;
            }
        }
        assertNotNull(refused, "a chain of " + depth + " links was opened");
        assertEquals(PageCursor.MAX_LINK_DEPTH, depth);
        assertEquals("cannot open a linked cursor on " + file.path() + " from a cursor that is itself " + depth
            + " links deep, the most a chain of links may be: move a linked cursor from page to page with next(pageId)"
            + " instead of linking from each", refused.getMessage());
        assertEquals(depth + 1, cache.openCursors(), "the refused link is not left counted open");
        assertFalse(root.shouldRetry(), "nothing changed");
        root.close();
        assertEquals(0, cache.openCursors(), "closing the root closed the whole chain");
    }

    /**
     * A cursor's close closes the links still open, as documented, so a store may leave them to it. With 200,000 of
     * them (a link per record of a scan) it took 17 s, a million would take minutes: each link closing searched the
     * parent's list from the start, and the close takes the last one first. It is linear now. No clock is read: with
     * 500,000 links the quadratic close (about 100 s) outlasts the shared hang bound, the linear one (under a second)
     * ends far inside it however loaded the machine.
     */
    @Test
    void closingACursorWithManyLinksOpenTakesTimeInProportionToThem() throws Exception {
        try (PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(w.next(1));
        }
        int links = 500_000;
        PageCursor root = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
        assertTrue(root.next());
        for (int i = 0; i < links; i++) {
            assertTrue(root.openLinkedCursor(1).next());
        }
        assertEquals(links + 1, cache.openCursors());
        Future<?> closing = executor.submit(root::close);
        try {
            closing.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            fail("closing a cursor with " + links + " links open still runs after " + Waits.BOUND_SECONDS + " s");
        }
        assertEquals(0, cache.openCursors());
    }
}
