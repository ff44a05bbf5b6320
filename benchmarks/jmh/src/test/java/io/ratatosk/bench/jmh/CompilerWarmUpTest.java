package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompilerWarmUpTest {
    @Test
    void runsTheOperationUntilTheCompilerIsQuietOrTheLimit() throws IOException {
        long[] calls = {0};
        CompilerWarmUp.Result result = CompilerWarmUp.untilQuiet(() -> ++calls[0]);
        assertEquals(calls[0], result.operations(), "every operation counted");
        assertTrue(result.operations() > 0);
        assertTrue(result.millis() >= (result.quiet() ? CompilerWarmUp.QUIET_MILLIS : CompilerWarmUp.MAX_MILLIS),
            "quiet means a full quiet second, else the limit: " + result);
        assertTrue(result.millis() < CompilerWarmUp.MAX_MILLIS + 5_000, "never far past the limit: " + result);
    }

    /** The same wait for a tool whose own threads run the workload meanwhile: it runs nothing itself. */
    @Test
    void awaitsTheCompilersQuietOrTheLimitWhileOthersRun() throws InterruptedException {
        CompilerWarmUp.Result result = CompilerWarmUp.awaitQuiet();
        assertEquals(0, result.operations());
        assertTrue(result.millis() >= (result.quiet() ? CompilerWarmUp.QUIET_MILLIS : CompilerWarmUp.MAX_MILLIS),
            "quiet means a full quiet second, else the limit: " + result);
        assertTrue(result.millis() < CompilerWarmUp.MAX_MILLIS + 5_000, "never far past the limit: " + result);
    }

    /** The warm-up's reads are not the first iteration's: the workload counts from after it. */
    @Test
    void theWorkloadCountsNoneOfTheWarmUpsReads() throws IOException {
        try (Workload workload = Workload.open(CacheSide.RATATOSK, 4L * 64, 64, "global-clock", true, 0, Map.of())) {
            CompilerWarmUp.Result result = workload.warmUpUntilCompilerQuiet(PageIds.ZIPF);
            assertTrue(workload.cache().pagesRead() > 0, "the warm-up faulted: " + result);
            assertEquals(0, workload.takePagesRead(), "counted from after the warm-up");
        }
    }
}
