package io.ratatosk.nvm;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.ChildJvm;
import io.ratatosk.pagecache.HeapFiller;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVM tier's close with the heap full still frees the device: the page cache closes its tier after its files, and
 * where a file's close had filled the heap (and failed, nothing of the file left in NVM), the tier's close threw an
 * OutOfMemoryError at its first allocation (the record of its failures), before anything, so the device (its whole
 * capacity, off the heap) stayed allocated while the cache reported only the file's failure (the tier's left out, the
 * heap having no room to suppress it); and once the close got that far, the device's own close (an AtomicBoolean's first
 * compare-and-set in the JVM, which links a VarHandle and allocates) threw with the tier already marked closed, so no
 * retry freed it. In a JVM of its own, nothing closed before.
 */
class NvmTierCloseOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aCacheWhoseFilesCloseFillsTheHeapStillFreesItsTiersDevice() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", CloseWithTheHeapFull.class, dir.toString());
    }

    static final class CloseWithTheHeapFull {
        static boolean failing = true;

        public static void main(String[] args) throws Exception {
            IOException fileCloseFailed = new IOException("injected: closing the file failed");
            FileSwapperFactory real = new FileSwapperFactory();
            PageSwapperFactory files = new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                    return new ForwardingPageSwapper(real.create(path, fileId, filePageSize, create)) {
                        @Override
                        public void close() throws IOException {
                            super.close();
                            if (failing) {
                                failing = false;
                                HeapFiller.fillAndHold();
                                throw fileCloseFailed;
                            }
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    real.close();
                }
            };
            long liveBefore = NvmDevice.liveBytes();
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
                "pagecache.page_size", "8k", "pagecache.swap", "nvm", "pagecache.nvm.capacity", "1m",
                "pagecache.nvm.inject_latency", "false", "pagecache.jmx.enabled", "false",
                "pagecache.warmup.enabled", "false")), files);
            try (PageCursor c = cache.map(Path.of(args[0]).resolve("a.db"), 8192).io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                c.next();
                c.putLong(0, 42);
            }
            Throwable failure = HeapFiller.closeAndRelease(cache);
            String wrong = "";
            if (failure == null) {
                wrong += "the close returned normally although the file's close failed; ";
            }
            if (!cache.isClosed()) {
                wrong += "the cache stayed open; ";
            }
            if (NvmDevice.liveBytes() != liveBefore) {
                wrong += "the tier's device was kept (" + (NvmDevice.liveBytes() - liveBefore) + " bytes); the close threw "
                    + failure;
            }
            ChildJvm.exit(wrong, "closed, the device freed; the close threw " + failure);
        }
    }
}
