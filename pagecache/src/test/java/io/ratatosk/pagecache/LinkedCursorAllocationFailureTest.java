package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code openLinkedCursor} counts the linked cursor open before it allocates it, and then adds it to its parent's links,
 * which grows an array. An {@code OutOfMemoryError} there left the new cursor counted open, reachable from nowhere (not
 * returned, not among the links the parent's close closes): the cache's page memory was then never freed after close. A
 * child JVM with a small heap opens links until the parent's array is full, fills the heap so that a cursor still fits
 * but the array's growth does not, opens one more, lets the heap go, and reports the counts.
 */
class LinkedCursorAllocationFailureTest {
    @TempDir
    Path dir;

    @Test
    void aLinkedCursorThatCouldNotBeAddedToItsParentIsNotLeftCountedOpen() throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx32m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Child.class.getName(),
            dir.resolve("oom.db").toString()));
        if (Runtime.version().feature() >= 23) {
            command.add(1, "--sun-misc-unsafe-memory-access=allow"); // the cache's page memory is Unsafe's
        }
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = child.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        assertTrue(ended, "the child did not end in 60 s:\n" + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("link failed to allocate: true"), "the heap was never full enough to fail:\n" + output);
        assertTrue(output.contains("counted open by the failed link: 0"), output);
        assertTrue(output.contains("open cursors: 0"), output);
        assertTrue(output.contains("memory released: true"), output);
    }

    /** The child JVM of {@link #aLinkedCursorThatCouldNotBeAddedToItsParentIsNotLeftCountedOpen}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", "4k", "pagecache.warmup.enabled", "false", "pagecache.evictor.enabled", "false")));
            PagedFile file = cache.map(Path.of(args[0]), 4096);
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 1);
            }
            PageCursor parent = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            int links = 1 << 14; // the parent's array of links is full: the next link grows it to twice this
            for (int i = 0; i < links; i++) {
                parent.openLinkedCursor(0);
            }
            long openBefore = cache.openCursors();
            boolean failed = false;
            List<Object> filler = new ArrayList<>();
            try {
                int block = 2 * links * Integer.BYTES; // about the grown array (compressed references); a cursor is far less
                try {
                    while (true) {
                        filler.add(new byte[block]);
                    }
                } catch (OutOfMemoryError full) {
                    // less than a block left
                }
                try {
                    parent.openLinkedCursor(0);
                } catch (OutOfMemoryError e) {
                    failed = true;
                }
            } finally {
                filler.clear();
            }
            System.out.println("link failed to allocate: " + failed);
            System.out.println("counted open by the failed link: " + (cache.openCursors() - openBefore));
            parent.close();
            file.close();
            cache.close();
            System.out.println("open cursors: " + cache.openCursors());
            System.out.println("memory released: " + cache.isMemoryReleased());
        }
    }
}
