package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM without the {@code jdk.jfr} module, or without {@code java.management} (a runtime image jlink made without it; here {@code --limit-modules}): the
 * JFR events' classes extend {@code jdk.jfr.Event}, and the first fault threw {@link NoClassDefFoundError} loading
 * one, leaving its page faulting, so that the cache could read no page, and not even close.
 */
class WithoutOptionalModulesTest {
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

    /**
     * Without java.management (the MBean server's module), the default pagecache.jmx.enabled=true failed the open with a
     * bare NoClassDefFoundError: javax/management/JMException. It says which flag to set; with it set, the cache works.
     */
    @Test
    void aJvmWithoutJmxRefusesJmxByNameAndWorksWithoutIt() throws Exception {
        List<String> options = List.of("--limit-modules", "java.base,java.logging,jdk.unsupported");
        ChildJvm.Result refused = ChildJvm.run(dir, "64m", options, Main.class, dir.resolve("refused").toString(), "true");
        assertTrue(refused.output().contains("java.lang.IllegalStateException: pagecache.jmx.enabled=true, but this JVM has no"
            + " java.management module to register the cache's MBean with: set pagecache.jmx.enabled=false, or give the JVM"
            + " the module"), refused.output());
        ChildJvm.Result without = ChildJvm.run(dir, "64m", options, Main.class, dir.resolve("file").toString(), "false");
        assertEquals(0, without.status(), without.output());
        assertTrue(without.output().contains("read back 40 pages"), without.output());
    }

    /**
     * Writes more pages than the cache has frames (faults, evictions), flushes, reads them back, closes; with
     * {@code pagecache.jmx.enabled} the second argument, if given.
     */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            if (ModuleLayer.boot().findModule("jdk.jfr").isPresent()) {
                throw new AssertionError("jdk.jfr is there: the test would not test anything");
            }
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
                "pagecache.name", "without-jfr", "pagecache.warmup.enabled", "false",
                "pagecache.jmx.enabled", args.length > 1 ? args[1] : "true"));
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
