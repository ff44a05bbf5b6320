package io.ratatosk.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.SwapperFactories;
import io.ratatosk.pagecache.Waits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault injector's record of a mapping's forces ({@link FaultInjector.Forces}), which the model's checks of the
 * sticky failed force read: what it says at each step of a close must be what the cache does at that step.
 */
@ExtendWith(HangLimit.class)
class FaultInjectorTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /**
     * A flushAndForce skips a file whose unmap ended while it waited (the unmap reported the failed force), so the record
     * must say 'closed' from the moment the unmap can be seen, not only once the swapper's close (after the unmap, and
     * with the NVM tier after its forget's write-backs) is reached.
     */
    @Test
    void theRecordSaysClosedOnceTheUnmapOfAFileWhoseForceFailedCanBeSeen() throws Exception {
        FaultInjector injector = new FaultInjector(1);
        injector.errors(false);
        CountDownLatch swapperClosing = new CountDownLatch(1);
        CountDownLatch letClose = new CountDownLatch(1);
        PageSwapperFactory closesWaiting = SwapperFactories.wrapping(injector.factory(),
            swapper -> new ForwardingPageSwapper(swapper) {
                @Override
                public void close() throws IOException {
                    swapperClosing.countDown();
                    Waits.awaitQuietly(letClose);
                    super.close();
                }
            });
        try (PageCache cache = PageCache.open(config(), closesWaiting)) {
            PagedFile pf = cache.map(dir.resolve("f"), PAGE);
            try (PageCursor c = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, 42);
            }
            injector.enable(10_000); // every call fails: the flush's write, then the force after it
            assertThrows(IOException.class, pf::flush);
            injector.disable();
            injector.settle(); // as a worker does when its operation returns
            FaultInjector.Forces forces = injector.forcesOf("f");
            assertTrue(forces.forceFailed(), "the flush's force failed");
            assertNull(forces.closedBy(), "still mapped");

            Thread closer = new Thread(() -> {
                try {
                    pf.close(); // unmaps, then throws the failed force
                } catch (IOException expected) {
                    // the earlier force's failure: what the model's close checks judge
                }
            }, "closer");
            closer.start();
            Thread closedBy;
            try {
                Waits.await(swapperClosing, "the close reached the swapper's close", closer);
                assertThrows(IllegalStateException.class, () -> pf.io(0, PagedFile.PF_SHARED_READ_LOCK), "unmapped by now");
                closedBy = forces.closedBy();
            } finally {
                letClose.countDown(); // before the cache's close, which waits for the closer's
                Waits.join(closer, "the closer's end");
            }
            assertSame(closer, closedBy, "the record of a mapping whose unmap a flushAndForce can see as done");
        }
    }

    /**
     * The injector hears of a failed force before the cache does (the mapping keeps the failure once the exception comes
     * back up to it), so the failure counts only once the failing worker's operation has returned. A flush of another
     * thread that forces in between waits for the failing force (forces of a file take turns) and reports its failure.
     */
    @Test
    void aFailedForceCountsOnceTheFailingOperationReturned() throws Exception {
        FaultInjector injector = new FaultInjector(1);
        injector.errors(false);
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch letThrow = new CountDownLatch(1);
        AtomicReference<Thread> failing = new AtomicReference<>();
        PageSwapperFactory slowToReport = SwapperFactories.wrapping(injector.factory(),
            swapper -> new ForwardingPageSwapper(swapper) {
                @Override
                public void force() throws IOException {
                    try {
                        super.force();
                    } catch (IOException e) {
                        if (Thread.currentThread() == failing.get()) {
                            failed.countDown(); // on its way up to the cache, which does not have it yet
                            Waits.awaitQuietly(letThrow);
                        }
                        throw e;
                    }
                }
            });
        try (PageCache cache = PageCache.open(config(), slowToReport)) {
            PagedFile pf = cache.map(dir.resolve("f"), PAGE);
            try (PageCursor c = pf.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, 42);
            }
            AtomicReference<Throwable> flushed = new AtomicReference<>();
            Thread flusher = new Thread(() -> {
                try {
                    pf.flush(); // its write fails, and the force after it
                } catch (Throwable e) {
                    flushed.set(e);
                }
                injector.settle();
            }, "flusher");
            AtomicReference<Throwable> secondFlushed = new AtomicReference<>();
            Thread second = new Thread(() -> {
                try {
                    pf.flush();
                } catch (Throwable e) {
                    secondFlushed.set(e);
                }
            }, "second flusher");
            failing.set(flusher);
            injector.enable(10_000);
            flusher.start();
            FaultInjector.Forces forces;
            try {
                Waits.await(failed, "the flusher's force failed", flusher);
                injector.disable();
                forces = injector.forcesOf("f");
                assertTrue(forces.anyForceFailed());
                assertFalse(forces.forceFailed(), "a failure the cache does not have yet");
                // Writes the page, then waits to force behind the failing force, whose failure it reports once that is done.
                second.start();
                Waits.until(() -> second.getState() == Thread.State.BLOCKED || !second.isAlive(),
                    "the second flush waiting to force behind the failing one", second);
                assertFalse(forces.forceFailed(), "a failure the cache does not have yet, while another flush waits to force");
            } finally {
                letThrow.countDown();
                Waits.join(flusher, "the flusher's end");
                if (second.getState() != Thread.State.NEW) {
                    Waits.join(second, "the second flusher's end");
                }
            }
            assertTrue(flushed.get() instanceof IOException, "the flusher's flush failed: " + flushed.get());
            assertTrue(secondFlushed.get() instanceof IOException, "the overlapping flush failed: " + secondFlushed.get());
            assertTrue(secondFlushed.get().getMessage().contains(Worker.EARLIER_FORCE_FAILED), secondFlushed.get().getMessage());
            assertTrue(forces.forceFailed(), "the failing operation returned: the cache has the failure");
            IOException again = assertThrows(IOException.class, pf::flush);
            assertTrue(again.getMessage().contains(Worker.EARLIER_FORCE_FAILED), again.getMessage());
            assertThrows(IOException.class, pf::close, "the close that unmaps it reports the failed force too");
        }
    }

    /**
     * The injector knows which step of the NVM tier or of an unmap failed by the names of the methods on the failing
     * thread's stack (NvmSwapStore's force, forget and overwrite; FileMapping's force and unmap). A rename in the library
     * would compile, and the model would silently take a failed tier force for none, or an unmap's force for a flush's:
     * each name must still be a method of its class.
     */
    @Test
    void theMethodsTheInjectorLooksForOnTheStackStillExist() throws Exception {
        Class<?> store = Class.forName(FaultInjector.NVM_STORE);
        for (String method : List.of(FaultInjector.TIER_FORCE, FaultInjector.TIER_FORGET, FaultInjector.TIER_OVERWRITE)) {
            assertTrue(declares(store, method), store.getName() + " has no method " + method + " any more: FaultInjector"
                + " looks for it on the stack to tell the tier's steps apart");
        }
        Class<?> mapping = Class.forName(FaultInjector.FILE_MAPPING);
        for (String method : List.of(FaultInjector.MAPPING_FORCE, FaultInjector.MAPPING_UNMAP)) {
            assertTrue(declares(mapping, method), mapping.getName() + " has no method " + method + " any more: FaultInjector"
                + " looks for it on the stack to tell an unmap's force from a flush's");
        }
        Class.forName(FaultInjector.COALESCING_FLUSH); // throws where it is gone: the writes of flushes are told by it
        Class<?> engine = Class.forName(FaultInjector.EVICTION_ENGINE);
        assertTrue(declares(engine, FaultInjector.ENGINE_DROP), engine.getName() + " has no method " + FaultInjector.ENGINE_DROP
            + " any more: FaultInjector looks for it on the stack to count an unmap's writes as flushed pages");
        assertTrue(declares(engine, FaultInjector.ENGINE_WRITE_OUT), engine.getName() + " has no method "
            + FaultInjector.ENGINE_WRITE_OUT + " any more: FaultInjector looks for it on the stack to count eviction writes");
    }

    private static boolean declares(Class<?> type, String method) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(method));
    }

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of(
            "pagecache.memory", Long.toString(16L * PAGE),
            "pagecache.page_size", Integer.toString(PAGE),
            "pagecache.evictor.enabled", "false"));
    }
}
