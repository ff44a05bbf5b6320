package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache's close of two mapped files, where the swapper close of whichever file it closes first fills the heap:
 * the close must still unmap and close the other file and close the cache. It unmapped and closed one file after the
 * other, so the second file's unmap (and the record kept in case its swapper would not close) came after the first
 * file's swapper close, and with the heap full threw an OutOfMemoryError out of the close, the cache left open, its
 * threads running and its memory kept. In a JVM of its own, whose heap the swapper's close fills.
 */
class SecondFileCloseOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aCloseWhoseFirstSwapperCloseFillsTheHeapStillClosesTheOtherFileAndTheCache() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "32m", CloseWithTheHeapFull.class, dir.toString());
        assertEquals(0, child.status(), child.output());
    }

    /** Two files written; the first swapper close fills the heap (and keeps it full) and returns normally. */
    static final class CloseWithTheHeapFull {
        /** Off while a first cache opens and closes, linking every step of the close. */
        static volatile boolean filling;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = config();
            Path a = Path.of(args[0]).resolve("a.db");
            Path b = Path.of(args[0]).resolve("b.db");
            filling = false;
            PageCache linking = PageCache.open(config, SwapperFactories.wrapping(real -> real));
            write(linking.map(a, 8192), 1);
            write(linking.map(b, 8192), 2);
            linking.close(); // links the close's path: nothing new is needed for it with the heap full
            PageCache cache = PageCache.open(config, SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                @Override
                public void close() throws IOException {
                    super.close();
                    if (filling) {
                        filling = false; // once: the heap stays full until the close is over
                        HeapFiller.fillAndHold();
                    }
                }
            }));
            write(cache.map(a, 8192), 11);
            write(cache.map(b, 8192), 12);
            filling = true;
            Throwable failure = HeapFiller.closeAndRelease(cache);
            String wrong = "";
            if (failure != null) {
                wrong += "the close threw " + failure + " where nothing failed; ";
            }
            if (!cache.isClosed() || !cache.isMemoryReleased()) {
                wrong += "the cache is not closed with its memory freed; ";
            }
            if (cache.fileRegistry().mapped().size() != 0) {
                wrong += cache.fileRegistry().mapped().size() + " file(s) still mapped; ";
            }
            if (wrong.isEmpty()) { // else another cache cannot map them
                try (PageCache again = PageCache.open(config); PagedFile fileA = again.map(a, 8192, false);
                     PagedFile fileB = again.map(b, 8192, false)) {
                    if (read(fileA) != 11 || read(fileB) != 12) {
                        wrong += "the files hold " + read(fileA) + " and " + read(fileB) + ", not 11 and 12; ";
                    }
                }
            }
            if (!wrong.isEmpty()) {
                System.out.println(wrong);
                System.exit(1);
            }
            System.out.println("both files and the cache closed");
            System.exit(0);
        }

        /** Eight 8 KiB frames, no evictor, JMX or warm-up; shared with {@link UnmapFillsTheHeapCloseTest}'s child. */
        static PageCacheConfig config() {
            return PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
        }

        /** Puts {@code value} at page 0's start; shared with {@link UnmapFillsTheHeapCloseTest}'s child. */
        static void write(PagedFile file, long value) throws IOException {
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, value);
            }
        }

        /** The long at page 0's start; shared with {@link UnmapFillsTheHeapCloseTest}'s child. */
        static long read(PagedFile file) throws IOException {
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                c.next();
                long v;
                do {
                    v = c.getLong(0);
                } while (c.shouldRetry());
                return v;
            }
        }
    }
}
