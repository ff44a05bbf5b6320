package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM without the {@code jdk.jfr} module (a runtime image jlink made without it; here {@code --limit-modules}): the
 * JFR events' classes extend {@code jdk.jfr.Event}, and the first fault threw {@link NoClassDefFoundError} loading
 * one, leaving its page faulting, so that the cache could read no page, and not even close.
 */
class WithoutJfrTest {
    @TempDir
    Path dir;

    @Test
    void aJvmWithoutJfrFaultsEvictsAndFlushes() throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, "64m",
            List.of("--limit-modules", "java.base,java.logging,java.management,jdk.unsupported"), Main.class,
            dir.resolve("file").toString());
        assertEquals(0, result.status(), result.output());
        assertTrue(result.output().contains("read back 40 pages"), result.output());
    }

    /** Writes more pages than the cache has frames (faults, evictions), flushes, reads them back, closes. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            if (ModuleLayer.boot().findModule("jdk.jfr").isPresent()) {
                throw new AssertionError("jdk.jfr is there: the test would not test anything");
            }
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
                "pagecache.name", "without-jfr", "pagecache.warmup.enabled", "false"));
            try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(Path.of(args[0]), 4096)) {
                for (long p = 0; p < 40; p++) {
                    try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        if (!c.next()) {
                            throw new AssertionError("no page " + p);
                        }
                        c.putLong(0, p * 7);
                    }
                }
                file.flush();
                for (long p = 0; p < 40; p++) {
                    try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                        if (!c.next() || c.getLong(0) != p * 7) {
                            throw new AssertionError("page " + p + " did not read back");
                        }
                    }
                }
                System.out.println("read back 40 pages; " + cache.stats());
            }
        }
    }
}
