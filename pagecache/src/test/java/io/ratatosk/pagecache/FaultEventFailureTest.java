package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.PageKey;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * A fault whose JFR event cannot be committed (an {@code OutOfMemoryError} naming the file, under a recording that
 * enables {@code io.ratatosk.Fault}) still hands its frame to the caller: the frame is bound and exclusively locked by
 * then, and the Error once came out of the fault with the frame locked for good, so every later cursor on the page, and
 * every eviction, unmap or flush reaching it, waited for a lock no one would release.
 */
class FaultEventFailureTest {
    private static final int FILE_ID = 1;
    private static final int PAGE_SIZE = 8192;

    @Test
    void aFaultWhoseEventFailsStillHandsItsFrameOver() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert"));
        AtomicBoolean nameFails = new AtomicBoolean();
        OutOfMemoryError failure = new OutOfMemoryError("Java heap space (injected: naming the file for the event)");
        try (Recording recording = new Recording()) {
            recording.enable("io.ratatosk.Fault");
            recording.start();
            FileMapping file = new FileMapping(engine, mapping -> { }, FILE_ID, pathFailingToBeNamed(nameFails, failure),
                "identity", PAGE_SIZE, new ZeroPagesSwapper(PAGE_SIZE, 1));
            engine.register(FILE_ID, file);
            long key = PageKey.of(FILE_ID, 0);
            nameFails.set(true);

            int frame;
            try {
                frame = file.faultIn(0, key, false, true);
            } catch (OutOfMemoryError e) {
                // caught: left to JUnit, an OutOfMemoryError ends the test JVM
                int held = file.table().get(0) - 1;
                fail("the fault threw its event's Error with page 0 in frame " + held + ", exclusively locked: "
                    + !engine.frames().isUnlocked(held), e);
                return;
            }

            assertTrue(frame >= 0, "the fault handed its frame over");
            assertEquals(key, engine.frames().binding(frame), "bound to the page");
            assertEquals(frame + 1, file.table().get(0), "and published");
            engine.frames().unlockExclusive(frame); // what the caller does with it
            assertTrue(engine.frames().isUnlocked(frame), "nothing else holds the frame");
        } finally {
            engine.close();
        }
    }

    /** A path whose name cannot be had once {@code fails} is set: the fault event's failure. */
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
