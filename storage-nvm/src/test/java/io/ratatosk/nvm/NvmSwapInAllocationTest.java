package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a swap-in through the tier allocates on the heap, counted on each calling thread after a warm-up, less what
 * counting costs (the counter's own call allocates a few hundred bytes on JDK 17). Any object made per swap-in is at
 * least 16 bytes; the bound, a byte per thousand swap-ins in the least of three runs, leaves room only for a rare one-off
 * (a deoptimization) in every run.
 */
class NvmSwapInAllocationTest {
    private static final int PAGE = 512;
    private static final int PAGES = 64;
    private static final int WARM_UP = 200_000;
    private static final int SWAP_INS = 100_000;

    private final OffHeapPages pages = new OffHeapPages(PAGE);

    @AfterEach
    void freePages() {
        pages.close();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Bytes allocated by {@code loop} on this thread, less what a count around nothing allocates: the least of three
     * runs. An allocation made per swap-in, or every so many, shows in each run; a one-off does not (a recompilation
     * of the loop, or a deoptimization, as a busy machine's JIT does late: 264 bytes in one run of a fresh-clone CI).
     */
    private static long allocatedBy(Loop loop) throws IOException {
        long overhead = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long before = allocatedBytes();
            overhead = Math.min(overhead, allocatedBytes() - before);
        }
        long least = Long.MAX_VALUE;
        for (int run = 0; run < 3; run++) {
            long before = allocatedBytes();
            loop.run();
            least = Math.min(least, allocatedBytes() - before - overhead);
        }
        return least;
    }

    interface Loop {
        void run() throws IOException;
    }

    private NvmSwapStore storeWithPagesInNvm(long readLatencyNanos) throws IOException {
        NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(PAGES * 2).injectLatency(true)
            .readLatencyNanos(readLatencyNanos).writeLatencyNanos(0).build(), new InMemoryFiles());
        store.swapInListener((fileId, pageId, slot) -> { });
        PageSwapper swapper = store.create(Path.of("a.db"), 1, PAGE, true);
        long frame = pages.allocate();
        for (long pageId = 0; pageId < PAGES; pageId++) {
            pages.fill(frame, pageId);
            swapper.evict(pageId, frame, false);
        }
        return store;
    }

    private static void assertNothingPerSwapIn(long allocated, String what) {
        assertTrue(allocated < SWAP_INS / 1000, what + ": " + allocated + " bytes allocated by " + SWAP_INS
            + " swap-ins (" + (double) allocated / SWAP_INS + " per swap-in)");
    }

    @Test
    void aSwapInAndTheCleanEvictionAfterItAllocateNothing() throws IOException {
        try (NvmSwapStore store = storeWithPagesInNvm(0)) {
            PageSwapper swapper = store.create(Path.of("b.db"), 2, PAGE, true);
            long frame = pages.allocate();
            for (long pageId = 0; pageId < PAGES; pageId++) {
                swapper.evict(pageId, frame, false);
            }
            Loop swapIns = () -> {
                for (int i = 0; i < SWAP_INS; i++) {
                    swapper.read(i % PAGES, frame);
                    swapper.evict(i % PAGES, frame, false);
                }
            };
            for (int i = 0; i < WARM_UP / SWAP_INS; i++) {
                swapIns.run();
            }
            assertNothingPerSwapIn(allocatedBy(swapIns), "one thread");
        }
    }

    /** Two threads on the same four pages: each waits for the other's page latch and device queue now and then. */
    @Test
    void contendedSwapInsAllocateNothing() throws Exception {
        try (NvmSwapStore store = storeWithPagesInNvm(2_000)) {
            PageSwapper swapper = store.create(Path.of("b.db"), 2, PAGE, true);
            long frame = pages.allocate();
            for (long pageId = 0; pageId < 4; pageId++) {
                swapper.evict(pageId, frame, false);
            }
            long[] allocated = new long[2];
            Throwable[] failures = new Throwable[2]; // a thread's own: left to it, a failure left allocated[] at 0, a pass
            Thread[] threads = new Thread[2];
            for (int t = 0; t < threads.length; t++) {
                int me = t;
                long myFrame = pages.allocate();
                threads[t] = new Thread(() -> {
                    Loop swapIns = () -> {
                        for (int i = 0; i < SWAP_INS; i++) {
                            swapper.read(i % 4, myFrame);
                        }
                    };
                    try {
                        for (int i = 0; i < WARM_UP / SWAP_INS; i++) {
                            swapIns.run();
                        }
                        allocated[me] = allocatedBy(swapIns);
                    } catch (Throwable e) {
                        failures[me] = e;
                    }
                }, "swap-in thread " + t);
                threads[t].start();
            }
            for (int t = 0; t < threads.length; t++) {
                Waits.join(threads[t], threads[t].getName());
                if (failures[t] != null) {
                    fail(threads[t].getName() + " failed", failures[t]);
                }
            }
            assertNothingPerSwapIn(allocated[0], "thread 0 of 2");
            assertNothingPerSwapIn(allocated[1], "thread 1 of 2");
        }
    }
}
