package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

    /** "broken", whose every replay fails, and "slow", which takes a millisecond every 1,024 hits, counting them. */
    private static final class SlowAndBrokenProvider implements SpiPolicyProvider {
        final AtomicLong slowHits = new AtomicLong();

        @Override
        public List<String> names() {
            return List.of("broken", "slow");
        }

        @Override
        public EvictionPolicy create(String name, FrameTable frames, Map<String, String> flags) {
            if (name.equals("broken")) {
                return new BrokenProvider().create(name, frames, flags);
            }
            return new EvictionPolicy() { // for a trace of one key: one fault, then hits, never a victim
                @Override
                public String name() {
                    return "slow";
                }

                @Override
                public void onHit(int frame) {
                    if (slowHits.incrementAndGet() % 1_024 == 0) {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }

                @Override
                public void onFault(int frame, long pageKey) {
                }

                @Override
                public void onEvicted(int frame, long pageKey) {
                }

                @Override
                public int nextVictim(io.ratatosk.core.Sweep sweep) {
                    return NO_VICTIM;
                }
            };
        }
    }

    /**
     * A replay that failed at once was reported only when every replay listed before it had ended: run waited on them
     * in the order of the policies, so a broken policy named after a slow one (a peer, OPT, a large trace) was said
     * failed after the slow one's whole replay, hours on a large trace, which was then thrown away.
     */
    @Test
    void aFailedReplayIsReportedWithoutWaitingForTheReplaysListedBeforeIt() throws Exception {
        SlowAndBrokenProvider provider = new SlowAndBrokenProvider();
        PolicyCatalog catalog = new PolicyCatalog(provider, PolicyFlags.standard());
        int requests = 3_000_000; // the slow replay takes 3 s at the least; stopped early, it ends after 65,536
        Trace oneKey = Trace.of("one-key", LongStream.range(0, requests).map(i -> 7).toArray());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            TraceSimulation simulation = new TraceSimulation(catalog, pool);
            SimulationProgress quiet = new SimulationProgress(new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), true, false, 1);
            assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> assertThrows(IllegalStateException.class,
                () -> simulation.run(oneKey, List.of(catalog.parse("slow"), catalog.parse("broken")),
                    CacheSize.parseList("1"), quiet)));
            long hitsWhenThrown = provider.slowHits.get();
            assertTrue(hitsWhenThrown < requests - 1, "the failure was reported after the slow replay before it"
                + " ended, " + hitsWhenThrown + " of its " + (requests - 1) + " hits done");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Under de_DE the lines said "in 1,5 s" and "1.000 requests", unlike the tables after them ("1,000"). */
    @Test
    void progressLinesArePrintedTheSameInEveryLocale() {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        SimulationProgress progress = new SimulationProgress(new PrintStream(lines, true, StandardCharsets.UTF_8),
            false, false, 1);
        Trace trace = Trace.of("t", LongStream.range(0, 1_000).toArray());
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            progress.traceLoaded(trace, 1_500);
            progress.traceStarted(trace, 1);
            progress.runFinished(trace, "p", 2, 2_500);
            progress.traceFinished(trace, 3_500);
        } finally {
            Locale.setDefault(before);
        }
        String text = lines.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("sim: loaded t: 1,000 requests, 1,000 distinct keys in 1.5 s"), text);
        assertTrue(text.contains("sim: t: 1 runs (1,000 requests each)"), text);
        assertTrue(text.contains("sim: t: p at 2 done in 2.5 s (1/1)"), text);
        assertTrue(text.contains("sim: t done in 3.5 s"), text);
    }
}
