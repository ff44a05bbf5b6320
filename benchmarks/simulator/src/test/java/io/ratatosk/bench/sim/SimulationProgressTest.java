package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class SimulationProgressTest {
    /** A policy whose every replay fails. */
    private static final class BrokenProvider implements SpiPolicyProvider {
        @Override
        public List<String> names() {
            return List.of("broken");
        }

        @Override
        public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
            throw new IllegalStateException("this policy always fails");
        }
    }

    /**
     * A trace whose replay failed left its progress bar open: in a run of several, the trace was skipped and the next
     * one's bar started, while the failed one's went on redrawing its stuck line on the terminal (every half second,
     * until the JVM ended), its thread never stopped.
     */
    @Test
    void aTraceWhoseReplayFailedClosesItsBar() throws Exception {
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        SimulationProgress progress = new SimulationProgress(new PrintStream(terminal, true, StandardCharsets.UTF_8),
            false, true, 1);
        PolicyCatalog catalog = new PolicyCatalog(new BrokenProvider(), PolicyFlags.standard());
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            TraceSimulation simulation = new TraceSimulation(catalog, pool);
            assertThrows(IllegalStateException.class, () -> simulation.run(Trace.of("t", 1, 2, 1),
                List.of(catalog.parse("broken")), CacheSize.parseList("2"), progress));
            int drawn = terminal.size();
            Thread.sleep(1_500); // three of the bar's redraws
            assertEquals(drawn, terminal.size(), "the failed trace's bar is still drawn: " + terminal);
        } finally {
            pool.shutdownNow();
        }
    }
}
