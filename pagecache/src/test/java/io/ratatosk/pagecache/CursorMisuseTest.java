package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
                oneMore.get(10, TimeUnit.SECONDS);
                fail("a write lock past the limit was granted");
            } catch (TimeoutException e) {
                fail("the write cursor past the limit still waits after 10 s");
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
}
