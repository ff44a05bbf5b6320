package io.ratatosk.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The shipped test data is found on any clone, before the shared folder; a missing file is named. */
class TestDataTest {
    private static final List<String> LIRS = List.of("2_pools", "backf", "cpp", "cs", "gli", "loop", "multi1",
        "multi2", "multi3", "ps", "scan", "sprite", "zigzag");

    @Test
    void everyLirsTraceAndEveryReferenceFigureComesFromTheRepositorysCopy() {
        for (String trace : LIRS) {
            assertInRepository(TestData.require("traces/lirs/" + trace + ".trace.gz"));
            assertInRepository(TestData.requireTrace(trace + ".trace.gz"));
        }
        for (String anchors : List.of("refsim-public.txt", "caffeine-sim-lirs.txt", "caffeine-sim-big.txt",
                "caffeine-sim-ldbc.txt")) {
            assertInRepository(TestData.require("anchors/" + anchors));
        }
    }

    @Test
    void aMissingFileSkipsTheTestNamingTheFile() {
        TestAbortedException skipped = assertThrows(TestAbortedException.class,
            () -> TestData.require("traces/arc/NOT-THERE.lis.zst"));
        assertTrue(skipped.getMessage().contains("needs traces/arc/NOT-THERE.lis.zst"), skipped.getMessage());
        TestAbortedException skippedTrace = assertThrows(TestAbortedException.class,
            () -> TestData.requireTrace("NOT-THERE.trace.xz"));
        assertTrue(skippedTrace.getMessage().contains("NOT-THERE.trace.xz"), skippedTrace.getMessage());
        assertEquals(List.of(), TestData.find("traces/lirs/NOT-THERE.trace.gz").stream().toList());
    }

    private static void assertInRepository(Path file) {
        assertTrue(file.toString().replace('\\', '/').contains(TestData.IN_REPOSITORY), file + " is not the repository's copy");
    }
}
