package io.ratatosk.pagecache;

import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.TranslationTable;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault that fails with the heap exhausted, so that keeping its failure for its waiters fails too, still moves its
 * page off FAULTING: the record of the failure was made before the entry went back to absent, and when that allocation
 * threw, the page stayed FAULTING for good: every later cursor on it waited for ever, and the file's unmap refused
 * ("a fault bypassed the file's operation gate"), so the file could never be closed. In a JVM of its own, whose heap
 * the test fills.
 */
class FaultFailureOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aFaultFailingWithTheHeapFullLeavesItsPageAbsent() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", FaultWithTheHeapFull.class);
    }

    /**
     * Faults page 1, then page 0 through a swapper whose read of page 0 fills the heap and throws; then looks at page 0's
     * entry.
     */
    static final class FaultWithTheHeapFull {
        private static final int PAGE_SIZE = 8192;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
            EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert"));
            OutOfMemoryError exhausted = new OutOfMemoryError("Java heap space (the read's, with the heap filled)");
            FileMapping file = new FileMapping(engine, mapping -> { }, 1, Path.of("full.db"), "identity", PAGE_SIZE,
                new FillingTheHeap(exhausted));
            engine.register(1, file);
            // A fault that succeeds first: the fault path (the entry's stores, the waiters' wake-up) is linked, as in any
            // cache that has read a page, and needs no allocation of its own when the heap is full.
            engine.frames().unlockExclusive(file.faultIn(1, PageKey.of(1, 1), false, true));
            Throwable failure = null;
            try {
                file.faultIn(0, PageKey.of(1, 0), false, true);
            } catch (Throwable t) {
                failure = t;
            }
            HeapFiller.release();
            if (failure == null) {
                System.out.println("the fault did not fail");
                System.exit(2);
            }
            int entry = file.table().get(0);
            if (entry != TranslationTable.ABSENT) {
                System.out.println("page 0's entry is " + entry + " (FAULTING is " + TranslationTable.FAULTING
                    + ") after the fault failed with " + failure);
                System.exit(1);
            }
            if (failure != exhausted) {
                System.out.println("the fault failed with " + failure + ", not the read's own failure");
                System.exit(3);
            }
            System.out.println("page 0 is absent after the fault failed with " + failure);
            System.exit(0);
        }

        /** A swapper whose read fills the heap and fails as a full heap does. */
        private static final class FillingTheHeap extends ZeroPagesSwapper {
            private final OutOfMemoryError exhausted;

            FillingTheHeap(OutOfMemoryError exhausted) {
                super(PAGE_SIZE, 2);
                this.exhausted = exhausted;
            }

            @Override
            public int read(long pageId, long address) {
                if (pageId == 1) {
                    return 0; // a hole: zeros
                }
                HeapFiller.fillAndHold();
                throw exhausted;
            }
        }
    }
}
