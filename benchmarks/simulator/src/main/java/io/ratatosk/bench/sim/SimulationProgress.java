package io.ratatosk.bench.sim;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress on stderr. On a terminal, a progress bar per long trace (requests replayed over all
 * runs); otherwise plain lines: one when a trace starts and ends, and one per finished run on long
 * traces. Quiet prints nothing. Called from the replay threads. Numbers in Locale.ROOT, as every tool's (no
 * decimal comma under de_DE for a script reading the lines).
 */
public final class SimulationProgress {
    /** Traces with at least this many requests times runs get a bar or per-run lines. */
    private static final long LONG_WORK = 20_000_000L;

    private final long longWork;

    private final PrintStream err;
    private final boolean quiet;
    private final boolean terminal;
    private final AtomicInteger finishedRuns = new AtomicInteger();
    private volatile ProgressBar bar;
    private volatile int runs;
    private volatile boolean longTrace;

    public SimulationProgress(PrintStream err, boolean quiet, boolean terminal) {
        this(err, quiet, terminal, LONG_WORK);
    }

    /** As the public constructor, a trace long from {@code longWork} requests times runs (a test's bar on short ones). */
    SimulationProgress(PrintStream err, boolean quiet, boolean terminal, long longWork) {
        this.err = err;
        this.quiet = quiet;
        this.terminal = terminal;
        this.longWork = longWork;
    }

    public static SimulationProgress none() {
        return new SimulationProgress(System.err, true, false);
    }

    public void traceLoaded(Trace trace, long millis) {
        if (!quiet && !terminal) {
            err.printf(Locale.ROOT, "sim: loaded %s: %,d requests, %,d distinct keys in %.1f s%n", trace.name(), trace.requests(),
                trace.distinct(), millis / 1000.0);
        }
    }

    void traceStarted(Trace trace, int runCount) {
        runs = runCount;
        finishedRuns.set(0);
        long work = (long) trace.requests() * runCount;
        longTrace = work >= longWork;
        if (quiet || !longTrace) {
            return;
        }
        if (terminal) {
            bar = new ProgressBarBuilder().setTaskName(trace.name()).setInitialMax(work)
                .setStyle(ProgressBarStyle.ASCII).setUnit("M req", 1_000_000).setUpdateIntervalMillis(500)
                .setConsumer(new ConsoleProgressBarConsumer(err)).build();
        } else {
            err.printf(Locale.ROOT, "sim: %s: %d runs (%,d requests each)%n", trace.name(), runCount, trace.requests());
        }
    }

    void advance(long requests) {
        ProgressBar b = bar;
        if (b != null) {
            b.stepBy(requests);
        }
    }

    /**
     * A replay of the trace failed: its bar closed, not said done (the caller says why). Left open, it went on redrawing
     * its stuck line beside the next trace's, and its thread ran until the JVM ended.
     */
    void traceFailed() {
        closeBar();
    }

    private void closeBar() {
        ProgressBar b = bar;
        bar = null;
        if (b != null) {
            b.close();
        }
    }

    void runFinished(Trace trace, String policy, int size, long millis) {
        int done = finishedRuns.incrementAndGet();
        if (!quiet && !terminal && longTrace) {
            err.printf(Locale.ROOT, "sim: %s: %s at %d done in %.1f s (%d/%d)%n", trace.name(), policy, size, millis / 1000.0,
                done, runs);
        }
    }

    void traceFinished(Trace trace, long millis) {
        closeBar();
        if (!quiet && !terminal) {
            err.printf(Locale.ROOT, "sim: %s done in %.1f s%n", trace.name(), millis / 1000.0);
        }
    }
}
