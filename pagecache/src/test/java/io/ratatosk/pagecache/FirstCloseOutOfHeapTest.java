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
 * The first close of a page cache in a JVM, with the heap full, still frees the page memory, stops the threads and gives
 * the files back. Code a JVM runs for the first time links as it runs (a class loaded, a lambda's call site, a VarHandle's
 * access mode), and linking allocates: the close's steps gathered their failures through a class not loaded yet, gave the
 * files' claims back through a lambda never run, and read the open-cursor count through an atomic access never made
 * (a cache that no cursor was counted on, or whose count was never summed), each of which threw an OutOfMemoryError past
 * the steps after it; the cache, marked closed, never freed its page memory. {@link CloseOutOfHeapTest} closes a first
 * cache with the heap free before, so it never saw these; here nothing runs the close's path before it fills the heap.
 */
class FirstCloseOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aFirstCloseWhoseFactoryFillsTheHeapAndFailsStillFreesTheMemory() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCloseWithTheHeapFull.class, dir.toString(), "fail");
    }

    @Test
    void aFirstCloseWhoseFactoryFillsTheHeapStillFreesTheMemoryAndTheFile() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCloseWithTheHeapFull.class, dir.toString(), "succeed");
    }

    @Test
    void aFirstCloseWhoseFilesSwapperFillsTheHeapAndFailsStillClosesTheCache() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstCloseWithTheHeapFull.class, dir.toString(), "file");
    }

    @Test
    void aFirstEngineCloseWithTheHeapFullFreesTheMemory() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FirstEngineCloseWithTheHeapFull.class);
    }

    private static PageCacheConfig smallConfig(boolean evictor) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", Boolean.toString(evictor), "pagecache.jmx.enabled", "false",
            "pagecache.warmup.enabled", "false"));
    }

    /**
     * A cache with its evictor, one file written; the swapper factory's close fills the heap, then fails or returns
     * ({@code fail}, {@code succeed}); or the file's swapper's close fills it and fails once ({@code file}): the file,
     * unmapped, stays claimed for another cache's map to close it again, as after any swapper close that fails.
     */
    static final class FirstCloseWithTheHeapFull {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]).resolve("a.db");
            boolean factoryFails = args[1].equals("fail");
            boolean[] fileFails = {args[1].equals("file")};
            IOException factoryCloseFailed = new IOException("injected: closing the factory failed");
            IOException fileCloseFailed = new IOException("injected: closing the file failed");
            FileSwapperFactory real = new FileSwapperFactory();
            PageSwapperFactory swappers = new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                    return new ForwardingPageSwapper(real.create(path, fileId, filePageSize, create)) {
                        @Override
                        public void close() throws IOException {
                            super.close();
                            if (fileFails[0]) {
                                fileFails[0] = false; // once: another cache's map closes it again
                                HeapFiller.fillAndHold();
                                throw fileCloseFailed;
                            }
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    real.close();
                    if (args[1].equals("file")) {
                        return;
                    }
                    HeapFiller.fillAndHold();
                    if (factoryFails) {
                        throw factoryCloseFailed;
                    }
                }
            };
            PageCache cache = PageCache.open(smallConfig(true), swappers);
            try (PageCursor c = cache.map(file, 8192).io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 42);
            }
            Throwable failure = HeapFiller.closeAndRelease(cache);
            String wrong = "";
            Throwable expected = factoryFails ? factoryCloseFailed : args[1].equals("file") ? fileCloseFailed : null;
            if (failure != expected && (expected == null || failure == null || failure.getCause() != expected)) {
                wrong += "the close threw " + failure + (expected != null ? " in place of " + expected : "") + "; ";
            }
            if (!cache.isClosed()) {
                wrong += "the cache stayed open; ";
            }
            if (!cache.isMemoryReleased()) {
                wrong += "the closed cache kept its page memory; ";
            }
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().startsWith("ratatosk-")) {
                    wrong += "its thread " + thread.getName() + " still runs; ";
                }
            }
            try (PageCache other = PageCache.open(smallConfig(false));
                 PageCursor c = other.map(file, 8192).io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                if (!c.next() || c.getLong(0) != 42) {
                    wrong += "the page written before the close is not in the file; ";
                }
            } catch (IllegalStateException kept) {
                wrong += "another cache cannot map the file: " + kept;
            }
            ChildJvm.exit(wrong, "closed, memory freed, threads stopped, the file written and free, the close threw " + failure);
        }
    }

    /** An engine no cursor was counted on, closed with the heap full: its close is the first read of the cursor count. */
    static final class FirstEngineCloseWithTheHeapFull {
        public static void main(String[] args) {
            PageCacheConfig config = smallConfig(false);
            EvictionEngine engine = new EvictionEngine(config,
                frames -> io.ratatosk.policies.PolicyRegistry.create(config.policy(), frames, config));
            HeapFiller.fillAndHold();
            Throwable failure = null;
            try {
                engine.close();
            } catch (Throwable t) {
                failure = t;
            }
            HeapFiller.release();
            if (!engine.isMemoryReleased()) {
                System.out.println("the closed engine kept its page memory; its close threw " + failure);
                System.exit(1);
            }
            System.out.println("memory freed; the close threw " + failure);
            System.exit(0);
        }
    }
}
