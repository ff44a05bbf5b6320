package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

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
        List<Integer> entries = new ArrayList<>();
        List<String> sizeTexts = new ArrayList<>();
        for (CacheSize size : sizes) {
            int n = size.entriesFor(trace.distinct());
            if (!entries.contains(n)) {
                entries.add(n);
                sizeTexts.add(size.text());
            }
        }
        if (policies.stream().anyMatch(p -> p.name().equals("opt"))) {
            trace.nextUse();
        }
        List<Run> runs = new ArrayList<>();
        for (PolicySpec policy : policies) {
            for (int n : entries) {
                runs.add(new Run(policy, n));
            }
        }
        progress.traceStarted(trace, runs.size());
        long start = System.nanoTime();
        // Longest first, so that two threads finish together: the peer and OPT cost the most.
        List<Run> submitOrder = new ArrayList<>(runs);
        submitOrder.sort(Comparator.comparingInt((Run r) -> costRank(r.policy)).thenComparing(r -> -r.size));
        for (Run run : submitOrder) {
            run.future = pool.submit(() -> replay(trace, run, progress, timelineBucket));
        }
        List<HitCount> results = new ArrayList<>();
        try {
            for (Run run : runs) {
                results.add(run.future.get());
            }
        } catch (ExecutionException e) {
            runs.forEach(r -> r.future.cancel(true));
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new IllegalStateException(cause);
        } catch (InterruptedException e) {
            runs.forEach(r -> r.future.cancel(true));
            throw e;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        progress.traceFinished(trace, millis);
        return new TraceResult(trace.name(), trace.format(), trace.requests(), trace.distinct(),
            policies.stream().map(PolicySpec::text).toList(), entries, sizeTexts, results, millis);
    }

    private HitCount replay(Trace trace, Run run, SimulationProgress progress, int timelineBucket) {
        long start = System.nanoTime();
        PolicySimulator.Outcome outcome;
        try {
            outcome = catalog.simulator(run.policy).run(trace, run.size, progress::advance, timelineBucket);
        } catch (RuntimeException e) {
            throw new IllegalStateException(run.policy.text() + " at size " + run.size + " on " + trace.name()
                + " failed: " + e.getMessage(), e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        progress.runFinished(trace, run.policy.text(), run.size, millis);
        return new HitCount(run.policy.text(), run.size, outcome.hits(), trace.requests(), millis, outcome.state(),
            outcome.timeline(), outcome.timeline() == null ? 0 : timelineBucket);
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
