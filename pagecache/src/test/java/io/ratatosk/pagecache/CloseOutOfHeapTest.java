package io.ratatosk.pagecache;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache whose close gathers two failures with the heap full still frees its memory: once every file was unmapped
 * the close marks the cache closed and then runs its last steps (the swapper factory's close, the files' claims, the
 * frames' memory), gathering their failures into the first; where suppressing one in another ran out of heap, that
 * OutOfMemoryError came out of the close at once, past the steps after it, and the cache, closed, never freed its page
 * memory (a retried close does nothing). The file whose swapper would not close stays claimed, for another cache's map
 * to close it again and map it: the claims were marked so by a step that allocated, and with the heap full no claim was,
 * so every other cache was refused the file for the JVM's life. In a JVM of its own, whose heap the swapper factory's
 * close fills.
 */
class CloseOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aCloseGatheringFailuresWithTheHeapFullStillFreesTheMemory() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", CloseWithTheHeapFull.class, dir.toString());
    }

    /**
     * One file whose swapper's close fails, behind a factory whose close fills the heap and fails: the close has the
     * file's failure when the factory's comes, and suppressing the one in the other needs the heap.
     */
    static final class CloseWithTheHeapFull {
        private static final int PAGE_SIZE = 8192;
        /** Off while a first cache opens and closes, linking every step of the close. */
        static volatile boolean failing;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
            IOException fileCloseFailed = new IOException("injected: closing the file failed");
            IOException factoryCloseFailed = new IOException("injected: closing the factory failed");
            PageSwapperFactory swappers = new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) {
                    return new ForwardingPageSwapper(new ZeroPagesSwapper(filePageSize, 1)) {
                        @Override
                        public void close() throws IOException {
                            if (failing) {
                                throw fileCloseFailed;
                            }
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    if (failing) {
                        HeapFiller.fillAndHold();
                        throw factoryCloseFailed;
                    }
                }
            };
            failing = false;
            try (PageCache linking = PageCache.open(config, swappers)) {
                linking.map(Path.of(args[0]).resolve("a.db"), PAGE_SIZE);
            } // links the close's path: nothing new is needed for it with the heap full
            failing = true;
            PageCache cache = PageCache.open(config, swappers);
            cache.map(Path.of(args[0]).resolve("a.db"), PAGE_SIZE);
            Throwable failure = HeapFiller.closeAndRelease(cache);
            if (failure == null) {
                System.out.println("the close returned normally although the file's and the factory's close failed");
                System.exit(2);
            }
            if (!cache.isClosed()) {
                System.out.println("the cache stayed open: " + failure);
                System.exit(3);
            }
            if (!cache.isMemoryReleased()) {
                System.out.println("the closed cache kept its page memory; the close threw " + failure);
                System.exit(1);
            }
            // The file's swapper would not close: it stays claimed, for another cache's map to close it again first.
            failing = false;
            try (PageCache other = PageCache.open(config, new FileSwapperFactory());
                 PagedFile file = other.map(Path.of(args[0]).resolve("a.db"), PAGE_SIZE)) {
                file.fileId();
            } catch (IllegalStateException kept) {
                System.out.println("the closed cache kept its file from every other cache: " + kept);
                System.exit(4);
            }
            System.out.println("closed, memory freed, the file free again, the close threw " + failure);
            System.exit(0);
        }
    }
}
