package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PagedFile.io} counts a cursor open before it allocates it (the count must come before the file's closed check).
 * An {@code OutOfMemoryError} allocating the cursor left it counted open for good: the cache's page memory was then
 * never freed after close, however much of it there was. A child JVM with a small heap fills it, opens cursors until
 * one fails to allocate, lets the heap go, and reports the count and whether close freed the memory.
 */
class CursorAllocationFailureTest {
    @TempDir
    Path dir;

    @Test
    void aCursorThatCouldNotBeAllocatedIsNotLeftCountedOpen() throws Exception {
        String output = runInSmallHeap(Child.class, "oom.db");
        assertTrue(output.contains("io failed to allocate: true"), "the heap was never full enough to fail io():\n" + output);
        assertTrue(output.contains("open cursors: 0"), output);
        assertTrue(output.contains("memory released: true"), output);
    }

    /**
     * {@code openLinkedCursor} counts the link open, allocates it, then its link record and a place in the parent's list
     * of links; an {@code OutOfMemoryError} in the last two (the list doubles: a large array) left the link counted open,
     * in no list, so no close could ever uncount it, and the cache never freed its page memory.
     */
    @Test
    void aLinkThatCouldNotBeAddedToItsParentIsNotLeftCountedOpen() throws Exception {
        String output = runInSmallHeap(LinkChild.class, "oom-link.db");
        assertTrue(output.contains("link failed to allocate: true"), "the heap was never full enough to fail a link:\n" + output);
        assertTrue(output.contains("open cursors: 0"), output);
        assertTrue(output.contains("memory released: true"), output);
    }

    /**
     * A parent closing its links when memory runs out: a link's close hands its pin to the parent, which may allocate,
     * and the parent's close stopped at the first link whose close threw. The links after it stayed open and counted,
     * so the cache never freed its page memory. Every link is closed now, and the first failure thrown after.
     */
    @Test
    void aParentWhoseLinkFailsToCloseStillClosesTheOthers() throws Exception {
        String output = runInSmallHeap(ClosingLinksChild.class, "oom-close.db");
        assertTrue(output.contains("parent's close failed: true"), "the heap was never full enough:\n" + output);
        assertTrue(output.contains("open cursors: 0"), output);
        assertTrue(output.contains("memory released: true"), output);
    }

    /**
     * Runs {@code main} in a child JVM with a 32 MiB heap on a file of {@code fileName}; returns what it printed. Without
     * thread-local allocation buffers: a heap filled to the last bytes then stays full (another thread's buffer, given
     * back at a collection, left room for the allocation that was to fail, now and then). Through {@link ChildJvm}: a
     * child that takes a second alone once took over 60 s in a CI run beside a model-test soak and printed nothing, and
     * this test's own 60 s wait killed it without a word of where it was; ChildJvm waits its generous deadline and
     * prints the child's threads' stacks if it hangs. Without escape analysis: once compiled, a cursor opened and closed
     * at once in a loop ({@code io(...).close()}) need not be allocated at all, and 1,000 tries on a full heap then never
     * failed (the fresh-clone CI of d48cdbb9).
     */
    private String runInSmallHeap(Class<?> main, String fileName) throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, "32m", List.of("-XX:+UseSerialGC", "-XX:-UseTLAB", "-XX:-DoEscapeAnalysis"), main,
            dir.resolve(fileName).toString());
        assertEquals(0, result.status(), result.output());
        return result.output();
    }

    /** Allocates arrays from {@code largest} bytes down to 8 until none fits: the heap is then full. */
    private static void fill(List<Object> filler, int largest) {
        for (int size = largest; size >= 8; ) {
            try {
                filler.add(new byte[size]);
            } catch (OutOfMemoryError e) {
                size /= 2;
            }
        }
    }

    /**
     * The child JVM of {@link #aLinkThatCouldNotBeAddedToItsParentIsNotLeftCountedOpen}: a parent with a full list of
     * links, a heap filled but for less than the list's doubling needs, and one more link.
     */
    public static final class LinkChild {
        public static void main(String[] args) throws Exception {
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false")));
            PagedFile file = cache.map(Path.of(args[0]), 4096);
            PageCursor parent = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            int links = 1 << 15; // the list's length after as many links: the next one doubles it, 128 KiB or more
            for (int i = 0; i < links; i++) {
                parent.openLinkedCursor(0);
            }
            boolean failed = false;
            List<Object> filler = new ArrayList<>();
            byte[] reserve = new byte[32 * 1024]; // freed once the heap is full: room for a link, not for the doubled list
            try {
                fill(filler, 1 << 20);
                reserve = null;
                try {
                    parent.openLinkedCursor(0);
                } catch (OutOfMemoryError e) {
                    failed = true;
                }
            } finally {
                filler.clear();
            }
            System.out.println("link failed to allocate: " + failed);
            parent.close();
            System.out.println("open cursors: " + cache.openCursors());
            file.close();
            cache.close();
            System.out.println("memory released: " + cache.isMemoryReleased());
        }
    }

    /**
     * The child JVM of {@link #aParentWhoseLinkFailsToCloseStillClosesTheOthers}: a read cursor with links on pages of
     * their own and a full array of pins left (the first link to close grows it: kilobytes, which a heap filled to its
     * last bytes cannot give, where the first small array now and then found room), a heap filled, and the parent's
     * close.
     */
    public static final class ClosingLinksChild {
        public static void main(String[] args) throws Exception {
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false")));
            PagedFile file = cache.map(Path.of(args[0]), 4096);
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (long page = 0; page < 64; page++) {
                    c.next(page);
                    c.putLong(0, page);
                }
            }
            PageCursor parent = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            PageCursor mover = parent.openLinkedCursor(0);
            for (int move = 0; move < 512; move++) { // the parent keeps the pins it left: its arrays are full at 512
                mover.next(move % 64);
            }
            for (long page = 0; page < 64; page++) {
                parent.openLinkedCursor(page).next(); // each closing link hands its pin to the parent
            }
            boolean failed = false;
            List<Object> filler = new ArrayList<>();
            try {
                fill(filler, 1 << 20);
                try {
                    parent.close();
                } catch (OutOfMemoryError e) {
                    failed = true;
                }
            } finally {
                filler.clear();
            }
            System.out.println("parent's close failed: " + failed);
            System.out.println("open cursors: " + cache.openCursors());
            file.close();
            cache.close();
            System.out.println("memory released: " + cache.isMemoryReleased());
        }
    }

    /** The child JVM of {@link #aCursorThatCouldNotBeAllocatedIsNotLeftCountedOpen}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false")));
            PagedFile file = cache.map(Path.of(args[0]), 4096);
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 1);
            }
            boolean failed = false;
            List<Object> filler = new ArrayList<>();
            try {
                // Filled again before each try: a cursor that was allocated and closed is garbage the next try's
                // collection gives back, so without it every io() could succeed on the one before's memory.
                for (int i = 0; i < 1_000 && !failed; i++) {
                    fill(filler, i == 0 ? 1 << 20 : 1 << 10);
                    try {
                        file.io(0, PagedFile.PF_SHARED_READ_LOCK).close();
                    } catch (OutOfMemoryError e) {
                        failed = true;
                    }
                }
            } finally {
                filler.clear();
            }
            System.out.println("io failed to allocate: " + failed);
            System.out.println("open cursors: " + cache.openCursors());
            file.close();
            cache.close();
            System.out.println("memory released: " + cache.isMemoryReleased());
        }
    }
}
