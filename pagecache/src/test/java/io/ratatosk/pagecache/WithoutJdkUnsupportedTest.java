package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that did not resolve the JDK module {@code jdk.unsupported}: the page memory is agrona's, which reaches it
 * through {@code sun.misc.Unsafe}, in that module. A class-path application always has it; a store on the module
 * path has it only where some module requires it, and the library's jars are automatic modules, which declare
 * nothing, so there the open failed deep in agrona with a bare {@code NoClassDefFoundError: sun/misc/Unsafe}.
 * Here {@code --limit-modules} leaves the module out, as such a module path does.
 */
class WithoutJdkUnsupportedTest {
    @TempDir
    Path dir;

    @Test
    void anOpenWithoutTheModuleSaysWhichModuleAndHowToAddIt() throws Exception {
        ChildJvm.Result result = ChildJvm.run(dir, "64m", List.of("--limit-modules", "java.base,java.logging"), Main.class,
            dir.resolve("file").toString());
        assertEquals(0, result.status(), result.output());
        assertTrue(result.output().contains("refused: java.lang.IllegalStateException: the page cache needs the JDK module"
            + " jdk.unsupported"), result.output());
        assertTrue(result.output().contains("requires jdk.unsupported;") && result.output().contains("--add-modules jdk.unsupported"),
            result.output());
        assertTrue(Files.notExists(dir.resolve("file")), "the refused open created the file it never mapped");
    }

    /** Opens a cache with JMX off (java.management is left out too) and prints how the open ended. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            if (ModuleLayer.boot().findModule("jdk.unsupported").isPresent()) {
                throw new AssertionError("jdk.unsupported is there: the test would not test anything");
            }
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k", "pagecache.page_size", "4k",
                "pagecache.name", "without-unsupported", "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
            try (PageCache cache = PageCache.open(config)) {
                cache.map(Path.of(args[0]), 4096).close();
                System.out.println("opened");
            } catch (IllegalStateException e) {
                System.out.println("refused: " + e);
            }
        }
    }
}
