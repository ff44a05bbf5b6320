package io.ratatosk.pagecache;

import io.ratatosk.core.PageKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A force that fails with the heap full sticks as any failed force does: every later flush of the file says an earlier
 * force failed. The report of the failure was made before it was kept, and where that allocation threw, nothing was
 * kept: the next flush, its force succeeding, returned normally over pages whose force had failed (after a failed
 * fsync the operating system may have dropped them). In a JVM of its own, whose heap the swapper's force fills.
 */
class ForceOutOfHeapTest {
    @TempDir
    Path dir;

    @Test
    void aForceFailingWithTheHeapFullFailsTheNextFlush() throws Exception {
        ChildJvm.assertSucceeds(dir, "32m", ForceWithTheHeapFull.class);
    }

    /** Flushes once (the path linked), then flushes with a force that fills the heap and fails, then flushes again. */
    static final class ForceWithTheHeapFull {
        private static final int PAGE_SIZE = 8192;
        static volatile boolean failTheForce;

        public static void main(String[] args) throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "8k",
                "pagecache.evictor.enabled", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled",
                "false"));
            EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert"));
            IOException fsyncFailed = new IOException("injected: fsync failed (Input/output error)");
            FileMapping file = new FileMapping(engine, mapping -> { }, 1, Path.of("forced.db"), "identity", PAGE_SIZE,
                new FailingForce(fsyncFailed));
            engine.register(1, file);
            int frame = file.faultIn(0, PageKey.of(1, 0), true, true);
            engine.frames().exclusiveToWriteLock(frame); // dirty
            engine.frames().unlockWrite(frame);
            file.flush(); // links the flush and force paths: nothing new is needed for them with the heap full

            failTheForce = true;
            Throwable failure = null;
            try {
                file.flush();
            } catch (Throwable t) {
                failure = t;
            }
            HeapFiller.release();
            if (failure == null) {
                System.out.println("the flush whose force failed returned normally");
                System.exit(2);
            }
            try {
                file.flush();
            } catch (IOException sticky) {
                System.out.println("the next flush failed as it should: " + sticky.getMessage());
                System.exit(0);
            }
            System.out.println("the next flush returned normally after a force that failed with " + failure);
            System.exit(1);
        }

        /** A file of zeros whose force, once {@link #failTheForce} is set, fills the heap and fails (once). */
        private static final class FailingForce extends ZeroPagesSwapper {
            private final IOException fsyncFailed;

            FailingForce(IOException fsyncFailed) {
                super(PAGE_SIZE, 1);
                this.fsyncFailed = fsyncFailed;
            }

            @Override
            public void force() throws IOException {
                if (failTheForce) {
                    failTheForce = false;
                    HeapFiller.fillAndHold();
                    throw fsyncFailed;
                }
            }
        }
    }
}
