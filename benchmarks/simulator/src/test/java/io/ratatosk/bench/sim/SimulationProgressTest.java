package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
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

    /** The page cache's policies, and "broken", whose every replay fails. */
    private static final class PageCachePoliciesAndABrokenOne implements SpiPolicyProvider {
        private final PageCachePolicies policies = new PageCachePolicies();

        @Override
        public List<String> names() {
            return java.util.stream.Stream.concat(policies.names().stream(), java.util.stream.Stream.of("broken")).toList();
        }

        @Override
        public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
            return name.equals("broken") ? new BrokenProvider().create(name, frames, flags)
                : policies.create(name, frames, flags);
        }
    }

    /**
     * A trace whose replay failed left its other replays running: cancelled, but never looking at their interrupt, they
     * went on to their end while the next trace was replayed, drawing on its bar, holding the pool's threads and their
     * heap, and each said itself done ("sim: t: ... done in 0.4 s (1/2)") after the trace had been said failed.
     */
    @Test
    void aTraceWhoseReplayFailedEndsItsOtherReplays() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SimulationProgress progress = new SimulationProgress(new PrintStream(log, true, StandardCharsets.UTF_8),
            false, false, 1);
        PolicyCatalog catalog = new PolicyCatalog(new PageCachePoliciesAndABrokenOne(), PolicyFlags.standard());
        String working = new PageCachePolicies().names().get(0);
        Trace loop = Trace.of("loop", LongStream.range(0, 5_000_000).map(i -> i % 10_000).toArray());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            TraceSimulation simulation = new TraceSimulation(catalog, pool);
            assertThrows(IllegalStateException.class, () -> simulation.run(loop,
                List.of(catalog.parse("broken"), catalog.parse(working)), CacheSize.parseList("100"), progress));
            String said = log.toString(StandardCharsets.UTF_8);
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
            assertEquals(said, log.toString(StandardCharsets.UTF_8), "a replay went on after its trace failed");
        } finally {
            pool.shutdownNow();
        }
    }
}
