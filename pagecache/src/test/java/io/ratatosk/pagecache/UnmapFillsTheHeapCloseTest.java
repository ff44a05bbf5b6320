package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.SecondFileCloseOutOfHeapTest.CloseWithTheHeapFull.read;
import static io.ratatosk.pagecache.SecondFileCloseOutOfHeapTest.CloseWithTheHeapFull.write;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache's close of two mapped files, where the force that ends whichever file's unmap comes first fills the heap:
 * a file the close unmapped must not keep its swapper open. The close made each file's record (kept in case its swapper
 * would not close) right before that file's unmap, so the second file's record met the full heap: the OutOfMemoryError
 * came out of the close with the first file unmapped and its swapper (a file handle) open until a retried close, for the
 * JVM's life if none came. In a JVM of its own, whose heap the swapper's force fills.
 */
class UnmapFillsTheHeapCloseTest {
    @TempDir
    Path dir;

    @Test
    void aFileTheCloseUnmappedHasItsSwapperClosedAndARetryClosesEachSwapperOnce() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", CloseWithTheHeapFilledByAForce.class, dir.toString());
    }

    /** Two files written; the first force of the close fills the heap (and keeps it full) and returns normally. */
    static final class CloseWithTheHeapFilledByAForce {
        /** Off while a first cache opens and closes, linking every step of the close. */
        static volatile boolean filling;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = SecondFileCloseOutOfHeapTest.CloseWithTheHeapFull.config();
            Path a = Path.of(args[0]).resolve("a.db");
            Path b = Path.of(args[0]).resolve("b.db");
            Map<String, AtomicInteger> closes = Map.of("a.db", new AtomicInteger(), "b.db", new AtomicInteger()); // by name
            filling = false;
            PageCache linking = PageCache.open(config, SwapperFactories.wrapping(real -> real));
            write(linking.map(a, 8192), 1);
            write(linking.map(b, 8192), 2);
            linking.close(); // links the close's path: nothing new is needed for it with the heap full
            PageSwapperFactory files = new FileSwapperFactory();
            PageCache cache = PageCache.open(config, new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                    AtomicInteger closed = closes.get(file.getFileName().toString());
                    return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                        @Override
                        public void force() throws IOException {
                            super.force();
                            if (filling) {
                                filling = false; // once: the heap stays full until the close is over
                                HeapFiller.fillAndHold();
                            }
                        }

                        @Override
                        public void close() throws IOException {
                            closed.incrementAndGet();
                            super.close();
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    files.close();
                }
            });
            PagedFile fileA = cache.map(a, 8192);
            PagedFile fileB = cache.map(b, 8192);
            write(fileA, 11);
            write(fileB, 12);
            filling = true;
            Throwable failure = HeapFiller.closeAndRelease(cache);
            String wrong = "";
            for (PagedFile file : new PagedFile[] {fileA, fileB}) {
                if (file.mapping().isClosed() && closes.get(file.path().getFileName().toString()).get() != 1) {
                    wrong += file.path().getFileName() + " was unmapped by the close (which threw " + failure + ") but its"
                        + " swapper was closed " + closes.get(file.path().getFileName().toString()) + " times; ";
                }
            }
            Throwable retried = null;
            if (!cache.isClosed()) {
                // The heap free again: this close unmaps what is left, and closes the cache whatever it reports (a force
                // the full heap failed sticks, and is reported).
                retried = HeapFiller.closeAndRelease(cache);
            }
            if (!cache.isClosed() || !cache.isMemoryReleased()) {
                wrong += "the cache is not closed with its memory freed (the close threw " + failure + ", the retry "
                    + retried + "); ";
            }
            for (Map.Entry<String, AtomicInteger> swapper : closes.entrySet()) {
                if (swapper.getValue().get() != 1) {
                    wrong += swapper.getKey() + "'s swapper was closed " + swapper.getValue() + " times; ";
                }
            }
            if (wrong.isEmpty()) { // else another cache cannot map them
                try (PageCache again = PageCache.open(config); PagedFile againA = again.map(a, 8192, false);
                     PagedFile againB = again.map(b, 8192, false)) {
                    if (read(againA) != 11 || read(againB) != 12) {
                        wrong += "the files hold " + read(againA) + " and " + read(againB) + ", not 11 and 12; ";
                    }
                }
            }
            ChildJvm.exit(wrong, "every swapper closed once, the cache closed");
        }
    }
}
