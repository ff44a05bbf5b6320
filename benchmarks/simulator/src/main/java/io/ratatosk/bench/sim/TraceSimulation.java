package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Replays one trace for every (policy, size) pair, the pairs spread over a shared thread pool; each
 * replay has its own policy instance and runs on one thread.
 */
public final class TraceSimulation {
    private final PolicyCatalog catalog;
    private final ExecutorService pool;

    public TraceSimulation(PolicyCatalog catalog, ExecutorService pool) {
        this.catalog = catalog;
        this.pool = pool;
    }

    public TraceResult run(Trace trace, List<PolicySpec> policies, List<CacheSize> sizes, SimulationProgress progress)
        throws InterruptedException {
        return run(trace, policies, sizes, progress, 0);
    }

    /** As {@link #run(Trace, List, List, SimulationProgress)}, each replay also counting its hits per {@code timelineBucket} requests (0: none). */
    public TraceResult run(Trace trace, List<PolicySpec> policies, List<CacheSize> sizes, SimulationProgress progress,
        int timelineBucket) throws InterruptedException {
        Map<Integer, String> entries = entries(trace, sizes);
        if (policies.stream().anyMatch(p -> p.name().equals("opt"))) {
            trace.nextUse();
        }
        // One replay per policy and simulated size: every size above the distinct keys shares the one at that count.
        Map<String, Run> replays = new LinkedHashMap<>();
        List<Run> runs = new ArrayList<>();
        for (PolicySpec policy : policies) {
            for (int n : entries.keySet()) {
                int simulated = simulated(trace, n);
                runs.add(replays.computeIfAbsent(policy.text() + "@" + simulated, k -> new Run(policy, simulated)));
            }
        }
        progress.traceStarted(trace, replays.size());
        long start = System.nanoTime();
        // Longest first, so that two threads finish together: the peer and OPT cost the most.
        List<Run> submitOrder = new ArrayList<>(replays.values());
        submitOrder.sort(Comparator.comparingInt((Run r) -> costRank(r.policy)).thenComparing(r -> -r.size));
        AtomicBoolean abandoned = new AtomicBoolean(); // a replay failed: the others stop at their next progress step
        CompletionService<HitCount> ended = new ExecutorCompletionService<>(pool);
        for (Run run : submitOrder) {
            run.future = ended.submit(() -> replay(trace, run, progress, timelineBucket, abandoned));
        }
        List<HitCount> results = new ArrayList<>();
        try {
            // In the order they end: a replay that failed is said at once, not after those listed before it (hours)
            for (int i = 0; i < submitOrder.size(); i++) {
                ended.take().get();
            }
            List<Integer> labels = List.copyOf(entries.keySet());
            for (int i = 0; i < runs.size(); i++) { // policy by policy, size by size: each under the size asked for
                results.add(runs.get(i).future.get().atSize(labels.get(i % labels.size())));
            }
        } catch (ExecutionException e) {
            // The other replays never look at their interrupt: cancelled, the running ones went on to their end, drawing
            // on the next trace's bar, saying themselves done and holding the pool's threads and their heap while it ran
            abandoned.set(true);
            awaitEnd(runs);
            progress.traceFailed();
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new IllegalStateException(cause);
        } catch (InterruptedException e) {
            abandoned.set(true);
            runs.forEach(r -> r.future.cancel(true));
            progress.traceFailed();
            throw e;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        progress.traceFinished(trace, millis);
        return new TraceResult(trace.name(), trace.format(), trace.requests(), trace.distinct(),
            policies.stream().map(PolicySpec::text).toList(), List.copyOf(entries.keySet()),
            List.copyOf(entries.values()), results, millis);
    }

    /**
     * Builds every policy at every size it will replay on {@code trace}, before any replay: flags that hold at some
     * sizes and not at others ({@code clock-pro:cold_min=500} at 100 entries) are refused naming the pair, instead of
     * failing one replay after the others ran and losing them all.
     *
     * @throws IllegalArgumentException naming the policy, the size, the trace and what does not hold
     */
    public void check(Trace trace, List<PolicySpec> policies, List<CacheSize> sizes) {
        for (int n : entries(trace, sizes).keySet()) {
            for (PolicySpec policy : policies) {
                try {
                    catalog.check(policy, simulated(trace, n));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(describe(trace, policy, n) + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /** Each entry count {@code sizes} come to on {@code trace}, once, with the text of the first size that asked for it. */
    private static Map<Integer, String> entries(Trace trace, List<CacheSize> sizes) {
        Map<Integer, String> entries = new LinkedHashMap<>();
        for (CacheSize size : sizes) {
            entries.putIfAbsent(size.entriesFor(trace.distinct()), size.text());
        }
        return entries;
    }

    /**
     * The size a replay for {@code entries} runs at: at most the trace's distinct keys. A cache that holds every key
     * never evicts, so a larger one hits exactly as often, under every policy; but the page cache's policies
     * allocate every frame asked for (--sizes 2147483647 wanted 64 GiB).
     */
    static int simulated(Trace trace, int entries) {
        return Math.min(entries, trace.distinct());
    }

    private static String describe(Trace trace, PolicySpec policy, int entries) {
        int simulated = simulated(trace, entries);
        return policy.text() + " at size " + entries + (simulated == entries ? ""
            : " (simulated at " + simulated + ", the trace's distinct keys)") + " on " + trace.name();
    }

    /** Waits until every replay of {@code runs} has ended, however; an interrupt stops the wait, and is kept. */
    private static void awaitEnd(List<Run> runs) {
        for (Run run : runs) {
            try {
                run.future.get();
            } catch (ExecutionException | CancellationException ended) {
                // ended, as abandoned or failed: the caller says why the trace failed
            } catch (InterruptedException e) {
                runs.forEach(r -> r.future.cancel(true));
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private HitCount replay(Trace trace, Run run, SimulationProgress progress, int timelineBucket,
        AtomicBoolean abandoned) {
        PolicySimulator.Progress advance = requests -> {
            abandonIf(abandoned);
            progress.advance(requests);
        };
        abandonIf(abandoned);
        long start = System.nanoTime();
        PolicySimulator.Outcome outcome;
        try {
            outcome = catalog.simulator(run.policy).run(trace, run.size, advance, timelineBucket);
        } catch (IllegalArgumentException e) { // the user's flags or size: one line, not a stack trace
            throw new IllegalArgumentException(describe(trace, run.policy, run.size) + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(describe(trace, run.policy, run.size) + " failed: " + e.getMessage(), e);
        } catch (OutOfMemoryError e) { // the size the user chose; Bench prints it as one line
            throw new IllegalStateException(describe(trace, run.policy, run.size) + " ran out of memory: "
                + e.getMessage(), e);
        }
        abandonIf(abandoned);
        long millis = (System.nanoTime() - start) / 1_000_000;
        progress.runFinished(trace, run.policy.text(), run.size, millis);
        return new HitCount(run.policy.text(), run.size, outcome.hits(), trace.requests(), millis, outcome.state(),
            outcome.timeline(), outcome.timeline() == null ? 0 : timelineBucket);
    }

    private static void abandonIf(AtomicBoolean abandoned) {
        if (abandoned.get()) {
            throw new Abandoned();
        }
    }

    /** A replay stopped because another of its trace failed; the trace's failure is that one's. */
    private static final class Abandoned extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abandoned() {
            super("abandoned: another replay of the trace failed", null, false, false);
        }
    }

    private static int costRank(PolicySpec policy) {
        switch (policy.name()) {
            case "caffeine":
                return 0;
            case "opt":
                return 1;
            default:
                return 2;
        }
    }

    private static final class Run {
        final PolicySpec policy;
        final int size;
        Future<HitCount> future;

        Run(PolicySpec policy, int size) {
            this.policy = policy;
            this.size = size;
        }
    }
}
