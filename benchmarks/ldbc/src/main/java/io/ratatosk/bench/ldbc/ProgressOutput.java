package io.ratatosk.bench.ldbc;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress on stderr for the generator, the loader and the runner: a progress bar per task on a
 * terminal; otherwise a plain line when a task starts, every {@value #LINE_INTERVAL_MS} ms while it
 * runs, and when it ends; nothing when quiet.
 */
public final class ProgressOutput {
    private static final long LINE_INTERVAL_MS = 10_000;

    /** Lines and warnings: the command's error writer, so that everything the command says goes one way. */
    private final PrintWriter err;
    /** The progress bars, drawn on a terminal only: the library draws on a stream. */
    private final PrintStream bars;
    private final boolean quiet;
    private final boolean terminal;
    /** Put before each task's name. */
    private final String taskPrefix;

    public ProgressOutput(PrintStream err, boolean quiet, boolean terminal) {
        this(new PrintWriter(err, true), err, quiet, terminal, "");
    }

    private ProgressOutput(PrintWriter err, PrintStream bars, boolean quiet, boolean terminal, String taskPrefix) {
        this.err = err;
        this.bars = bars;
        this.quiet = quiet;
        this.terminal = terminal;
        this.taskPrefix = taskPrefix;
    }

    /** The same output, each task's name after {@code prefix}: a warm-up's run apart from the measured run of the same name. */
    public ProgressOutput tasksNamed(String prefix) {
        return new ProgressOutput(err, bars, quiet, terminal, prefix + taskPrefix);
    }

    /** stderr, with a bar when stderr is a terminal. */
    public static ProgressOutput stderr(boolean quiet) {
        return new ProgressOutput(System.err, quiet, System.console() != null);
    }

    /** Lines and warnings to {@code err} (a command's error writer), a bar on stderr when stderr is a terminal. */
    public static ProgressOutput to(PrintWriter err, boolean quiet) {
        return new ProgressOutput(err, System.err, quiet, System.console() != null, "");
    }

    public static ProgressOutput none() {
        return new ProgressOutput(System.err, true, false);
    }

    /** A line of news, {@code ldbc: } first. */
    public void line(String format, Object... args) {
        if (!quiet) {
            err.println("ldbc: " + String.format(Locale.ROOT, format, args)); // the same digits on every machine
            err.flush();
        }
    }

    /**
     * A line about the run the user asked for that it does not do as asked (a size raised to two frames, reads only,
     * buffered where direct was tried), quiet or not, {@code ldbc: } first: {@code --quiet} leaves out progress, and
     * left these out too, though docs/ldbc.md promises each.
     */
    public void note(String format, Object... args) {
        err.println("ldbc: " + String.format(Locale.ROOT, format, args));
        err.flush();
    }

    /** A line the user must see, quiet or not: {@code ldbc: warning: } first. */
    public void warning(String format, Object... args) {
        err.println("ldbc: warning: " + String.format(Locale.ROOT, format, args));
        err.flush();
    }

    /** A task of {@code max} steps, shown in units of {@code unitSize} steps called {@code unit}. */
    public Task task(String name, long max, String unit, long unitSize) {
        return new Task(taskPrefix + name, Math.max(1, max), unit, unitSize);
    }

    /**
     * One task's progress; {@link #stepBy} may be called from several threads. Its end says done only where the task
     * said it finished ({@link #finished}) before it closed; a task closed without (its try left by a failure) says where
     * it stopped: "done" before a failed load's error lied.
     */
    public final class Task implements AutoCloseable {
        private final String name;
        private final long max;
        private final String unit;
        private final long unitSize;
        private final AtomicLong done = new AtomicLong();
        private final AtomicLong lastLine = new AtomicLong(System.currentTimeMillis());
        private final long start = System.nanoTime();
        private final ProgressBar bar;
        private volatile boolean finished;

        Task(String name, long max, String unit, long unitSize) {
            this.name = name;
            this.max = max;
            this.unit = unit;
            this.unitSize = unitSize;
            if (!quiet && terminal) {
                bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(max).setStyle(ProgressBarStyle.ASCII)
                    .setUnit(unit, unitSize).setUpdateIntervalMillis(250).showSpeed()
                    .setConsumer(new ConsoleProgressBarConsumer(bars)).build();
            } else {
                bar = null;
                line("%s: started (%s %s)", name, format(max), unit);
            }
        }

        public void stepBy(long n) {
            long now = done.addAndGet(n);
            if (bar != null) {
                bar.stepTo(Math.min(now, max));
            } else if (!quiet) {
                long t = System.currentTimeMillis();
                long last = lastLine.get();
                if (t - last >= LINE_INTERVAL_MS && lastLine.compareAndSet(last, t)) {
                    line("%s: %d%% (%s of %s %s)", name, Math.min(100, now * 100 / max), format(now), format(max), unit);
                }
            }
        }

        public void stepTo(long n) {
            stepBy(n - done.get());
        }

        /** The task's work is done: its close says so. */
        public void finished() {
            finished = true;
        }

        public long done() {
            return done.get();
        }

        private String format(long steps) {
            return unitSize == 1 ? String.format(Locale.ROOT, "%,d", steps) : String.format(Locale.ROOT, "%,.1f", (double) steps / unitSize);
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.stepTo(Math.min(done.get(), max));
                bar.close();
            } else if (finished) {
                line("%s: done in %.1f s", name, (System.nanoTime() - start) / 1e9);
            } else {
                line("%s: stopped after %.1f s (%s of %s %s)", name, (System.nanoTime() - start) / 1e9,
                    format(Math.min(done.get(), max)), format(max), unit);
            }
        }
    }
}
