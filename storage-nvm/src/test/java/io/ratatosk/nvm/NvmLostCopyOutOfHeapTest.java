package io.ratatosk.nvm;

import java.io.IOException;
import java.nio.file.Path;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.ChildJvm;
import io.ratatosk.pagecache.HeapFiller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dirty copy torn by a failed NVM write, whose frame's newer version the file refuses with the heap full, still fails
 * the file's next force: the report of the lost copy was made before it was recorded, and when that allocation threw
 * (or the suppression of the file's failure in the device's did), nothing was recorded and the force succeeded, a flush
 * under way returning with the page in neither NVM nor the file. In a JVM of its own, whose heap the file's write fills.
 */
class NvmLostCopyOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aLostDirtyCopyWithTheHeapFullStillFailsTheNextForce() throws Exception {
        ChildJvm.assertSucceeds(dir, "48m", LoseACopyWithTheHeapFull.class);
    }

    /** Page 4 loses its copy as a warm-up (the path linked), then page 5 with the heap filled by the file's write. */
    static final class LoseACopyWithTheHeapFull {
        private static final int PAGE = 512;
        static volatile boolean fillOnWrite;

        public static void main(String[] args) throws Exception {
            IOException refused = new IOException("injected: the file refuses the page");
            InMemoryFiles files = new InMemoryFiles();
            files.hook = (file, pageId) -> {
                if (fillOnWrite) {
                    fillOnWrite = false;
                    HeapFiller.fillAndHold();
                }
                throw refused;
            };
            PageSwapperFactory factory = new PageSwapperFactory() {
                @Override
                public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                    return new ForwardingPageSwapper(files.create(path, fileId, filePageSize, create));
                }

                @Override
                public void close() {
                }
            };
            NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(),
                factory);
            OffHeapPages pages = new OffHeapPages(PAGE);
            PageSwapper swapper = store.create(Path.of("a.db"), 0, PAGE, true);
            if (!lostCopyFailsTheForce(store, swapper, pages, 4)) {
                System.out.println("the warm-up's lost copy did not fail the force");
                System.exit(2);
            }
            fillOnWrite = true;
            if (!lostCopyFailsTheForce(store, swapper, pages, 5)) {
                System.out.println("the force after page 5's copy was lost with the heap full succeeded");
                System.exit(1);
            }
            System.out.println("the force after page 5's copy was lost with the heap full failed");
            System.exit(0);
        }

        /** Evicts {@code pageId} dirty twice, the second NVM write failing; then whether the file's force fails. */
        private static boolean lostCopyFailsTheForce(NvmSwapStore store, PageSwapper swapper, OffHeapPages pages,
                                                     long pageId) throws IOException {
            long frame = pages.allocate();
            pages.fill(frame, pageId);
            swapper.evict(pageId, frame, true); // a dirty copy in NVM
            store.device().failNextWrites(1);
            try {
                swapper.evict(pageId, frame, true); // tears it; the file refuses the frame's version
            } catch (Throwable expected) {
                // the device's failure, or the full heap's
            }
            HeapFiller.release();
            try {
                swapper.force();
                return false;
            } catch (IOException lost) {
                return true;
            }
        }

    }
}
