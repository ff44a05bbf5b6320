package io.ratatosk.pagecache;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first cursor close of a JVM, with the heap full, still closes the cursor: code a JVM runs for the first time links
 * as it runs, which allocates, and the close's compare-and-set (a VarHandle's call site) had never run. The
 * OutOfMemoryError came out of the close before it, with the cursor still counted open and holding its write lock, so
 * the file's close was refused ("page 0 is still held by a write cursor") and the cache's close kept the page memory,
 * or, the cache closed already, the memory the last cursor's close was to free stayed allocated. In a JVM of its own,
 * that closes no cursor before.
 */
class FirstCursorCloseOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aFirstWriteCursorCloseWithTheHeapFullClosesTheCursor() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCursorCloseWithTheHeapFull.class, dir.toString(), "write");
    }

    @Test
    void aFirstReadCursorCloseWithTheHeapFullClosesTheCursor() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCursorCloseWithTheHeapFull.class, dir.toString(), "read");
    }

    @Test
    void aFirstCursorCloseAfterTheCacheClosedWithTheHeapFullFreesTheMemory() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCursorCloseWithTheHeapFull.class, dir.toString(), "last");
    }

    /**
     * One cursor on page 0 ({@code write}: a write cursor; {@code read}: a read cursor; {@code last}: a read cursor left
     * open over the cache's close, so its close is the one that frees the page memory), closed with the heap full.
     */
    static final class FirstCursorCloseWithTheHeapFull {
        public static void main(String[] args) throws Exception {
            String mode = args[1];
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
            PageCache cache = PageCache.open(config);
            PagedFile file = cache.map(Path.of(args[0]).resolve("a.db"), 8192);
            PageCursor cursor = file.io(0, mode.equals("write") ? PagedFile.PF_SHARED_WRITE_LOCK
                : PagedFile.PF_SHARED_READ_LOCK);
            cursor.next();
            String wrong = "";
            if (mode.equals("last")) {
                file.close();
                cache.close(); // the memory waits for the cursor
                if (cache.isMemoryReleased()) {
                    wrong += "the cache freed its page memory under an open cursor; ";
                }
            }
            HeapFiller.fillAndHold();
            Throwable failure = HeapFiller.closeAndRelease(cursor);
            if (failure != null) {
                wrong += "the cursor's close threw " + failure + "; ";
            }
            if (cache.openCursors() != 0) {
                wrong += "the cache counts " + cache.openCursors() + " cursor(s) open; ";
            }
            if (mode.equals("last")) {
                if (!cache.isMemoryReleased()) {
                    wrong += "the closed cache kept its page memory after its last cursor closed; ";
                }
            } else {
                try {
                    file.close();
                    cache.close();
                } catch (Throwable t) {
                    wrong += "closing the file and the cache failed: " + t + "; ";
                }
                if (!cache.isMemoryReleased()) {
                    wrong += "the closed cache kept its page memory; ";
                }
            }
            ChildJvm.exit(wrong, "the cursor closed with the heap full");
        }
    }
}
