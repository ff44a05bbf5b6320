package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.PageKey;
import io.ratatosk.pagecache.internal.IopsLimiter;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * A flush whose JFR event cannot be committed (an {@code OutOfMemoryError} naming the file, under a recording that
 * enables {@code io.ratatosk.Flush}) goes on as though there were no event, as a fault's and an eviction's do: the
 * run is written by then, and the Error once came out of the flush after the write, its pages released as unwritten
 * (dirty, to be written again) and the flush (a checkpoint's, an unmap's, a close's) failing for an event.
 */
class FlushEventFailureTest {
    private static final int FILE_ID = 1;
    private static final int PAGE_SIZE = 8192;

    @Test
    void aFlushWhoseEventFailsStillWritesAndCleansItsPages() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert"));
        AtomicBoolean nameFails = new AtomicBoolean();
        OutOfMemoryError failure = new OutOfMemoryError("Java heap space (injected: naming the file for the event)");
        AtomicInteger writes = new AtomicInteger();
        try (Recording recording = new Recording()) {
            recording.enable("io.ratatosk.Flush");
            recording.start();
            FileMapping file = new FileMapping(engine, mapping -> { }, FILE_ID, pathFailingToBeNamed(nameFails, failure),
                "identity", PAGE_SIZE, new ZeroPagesSwapper(PAGE_SIZE, 1) {
                    @Override
                    public void write(long pageId, long address) {
                        writes.incrementAndGet();
                    }
                });
            engine.register(FILE_ID, file);
            int frame = file.faultIn(0, PageKey.of(FILE_ID, 0), true, true);
            engine.frames().exclusiveToWriteLock(frame); // what a write cursor's pin does: the page is dirty
            engine.frames().unlockWrite(frame);
            assertTrue(engine.frames().isModified(frame));
            nameFails.set(true);

            try {
                new CoalescingFlush(file, IopsLimiter.UNLIMITED).flushPages();
            } catch (OutOfMemoryError e) {
                // caught: left to JUnit, an OutOfMemoryError ends the test JVM
                fail("the flush threw its event's Error after " + writes.get() + " write(s), the page left dirty: "
                    + engine.frames().isModified(frame), e);
                return;
            }

            assertEquals(1, writes.get(), "the page was written once");
            assertFalse(engine.frames().isModified(frame), "and is clean");
            assertTrue(engine.frames().isUnlocked(frame), "nothing holds its frame");
        } finally {
            engine.close();
        }
    }

    /** A path whose name cannot be had once {@code fails} is set: the flush event's failure. */
    private static Path pathFailingToBeNamed(AtomicBoolean fails, Error failure) {
        Path real = Path.of("unnamed.db");
        return (Path) Proxy.newProxyInstance(Path.class.getClassLoader(), new Class<?>[] {Path.class},
            (proxy, method, args) -> {
                if (method.getName().equals("toString") && fails.get()) {
                    throw failure;
                }
                return method.invoke(real, args);
            });
    }
}
