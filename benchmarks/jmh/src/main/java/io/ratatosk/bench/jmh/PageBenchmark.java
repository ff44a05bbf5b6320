package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The shared state of every page benchmark: its {@link Workload}, which the subclass's trial {@code @Setup}
 * opens from its parameters, and which is closed here. JMH takes the annotations below, and this teardown,
 * from the superclass: every page benchmark measures throughput in operations per microsecond, in one fork
 * (per round of {@code ./bench jmh}) with the {@code --add-opens} options Muninn needs (on both sides, see
 * {@link MuninnPeer}), 3 x 1 s of warmup and 5 x 1 s of measurement.
 *
 * <p>The forks also get {@value #NATIVE_ACCESS}: without it our {@code pagecache.huge_pages=auto} keeps the ordinary
 * allocation on JDK 22+ ("unavailable: native access is not enabled"), so {@code -p hugePages=auto,off} measured the
 * same memory twice, without a word, in every run whose launcher was not started by {@code ./bench} (which passes the
 * flag, and JMH hands a fork its host's options): {@code java -jar ratatosk-bench.jar jmh}, the lent machine's
 * {@code java -cp}. JDK 17 accepts it and has no huge pages either way.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {MuninnPeer.OPEN_NIO, MuninnPeer.OPEN_NIO_CHANNELS, MuninnPeer.OPEN_LANG,
    PageBenchmark.NATIVE_ACCESS})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class PageBenchmark {
    /** Lets the page cache ask for huge pages on JDK 22+ ({@code pagecache.huge_pages=auto}), as {@code ./bench} does. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    Workload workload;

    @TearDown(Level.Trial)
    public void close() throws IOException {
        workload.close();
    }
}
