package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A thread's stack of swapper calls that runs out of memory growing stays usable, whichever allocation of its growth
 * failed: the call that could not be pushed fails, and every later one, as deep as they go, is pushed, found and popped.
 * The stack once grew three arrays one after the other, and an OutOfMemoryError between two of the copies left them at
 * two lengths: every later call that deep on the thread failed with ArrayIndexOutOfBoundsException.
 */
class SwapperCallsGrowthTest {
    private static final int DEPTH = 20;
    private static final IntFunction<Object[]> PLAIN = SwapperCalls.newEntries;

    @AfterEach
    void plainAllocation() {
        SwapperCalls.newEntries = PLAIN;
    }

    @Test
    void aStackWhoseGrowthRunsOutOfMemoryStaysUsable() throws Exception {
        for (int failing = 1; failing <= 3; failing++) {
            OutOfMemoryError exhausted = new OutOfMemoryError("Java heap space (injected: allocation " + failing
                + " of the stack's growth)");
            AtomicInteger asked = new AtomicInteger();
            int failingAllocation = failing;
            SwapperCalls.newEntries = length -> {
                if (asked.incrementAndGet() == failingAllocation) {
                    throw exhausted;
                }
                return new Object[length];
            };
            ExecutorService freshThread = Executors.newSingleThreadExecutor();
            try {
                freshThread.submit(() -> nestAndUnwind(exhausted)).get();
            } finally {
                freshThread.shutdown();
            }
        }
    }

    /** Pushes DEPTH calls of one cache, the one that cannot be pushed failing once, then checks and pops them. */
    private static Void nestAndUnwind(OutOfMemoryError exhausted) {
        Object cache = new Object();
        int depth = 0;
        boolean failed = false;
        while (depth < DEPTH) {
            try {
                SwapperCalls.begin(cache, "call " + depth, Path.of("f" + depth + ".db"));
                depth++;
            } catch (OutOfMemoryError e) {
                assertSame(exhausted, e);
                assertFalse(failed, "one allocation failed, once");
                failed = true;
            }
        }
        assertTrue(failed, "the injected failure came");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> SwapperCalls.refuseInside(cache, "a call back"));
        assertTrue(refused.getMessage().contains("(call " + (DEPTH - 1) + " of f" + (DEPTH - 1) + ".db)"),
            refused.getMessage());
        for (int i = 0; i < DEPTH; i++) {
            SwapperCalls.end();
        }
        assertFalse(SwapperCalls.inside(cache), "every call popped");
        SwapperCalls.begin(cache, "again", Path.of("g.db"));
        assertEquals(true, SwapperCalls.inside(cache));
        SwapperCalls.end();
        return null;
    }
}
