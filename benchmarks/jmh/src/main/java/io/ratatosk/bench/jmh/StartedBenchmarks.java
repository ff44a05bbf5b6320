package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's output, passed on as it is, noting each benchmark a run started: JMH reports a benchmark that threw and goes
 * on, and its results hold only those that ended, so the ones started and not among them are those that failed.
 */
final class StartedBenchmarks implements OutputFormat {
    private final OutputFormat out;
    private final List<BenchmarkParams> started = new ArrayList<>();

    StartedBenchmarks(OutputFormat out) {
        this.out = out;
    }

    /** The benchmarks started that have no result in {@code results}: those that failed. */
    List<BenchmarkParams> failed(Collection<RunResult> results) {
        List<String> ended = results.stream().map(r -> JmhCommand.key(r.getParams())).toList();
        return started.stream().filter(p -> !ended.contains(JmhCommand.key(p))).toList();
    }

    int started() {
        return started.size();
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        started.add(benchParams);
        out.startBenchmark(benchParams);
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        out.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration, IterationResult data) {
        out.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        out.endBenchmark(result);
    }

    @Override
    public void startRun() {
        out.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        out.endRun(result);
    }

    @Override
    public void print(String s) {
        out.print(s);
    }

    @Override
    public void println(String s) {
        out.println(s);
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }

    @Override
    public void verbosePrintln(String s) {
        out.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        out.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        out.write(b);
    }
}
