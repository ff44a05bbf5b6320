package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The JVM options every page benchmark's fork gets of its own, whatever the launcher's JVM was started with: JMH hands a
 * fork its host's options, and {@code ./bench} passes {@code --enable-native-access=ALL-UNNAMED}, but {@code java -jar
 * ratatosk-bench.jar jmh} and the lent machine's {@code java -cp ... Bench jmh} do not, and there our
 * {@code pagecache.huge_pages=auto} kept the ordinary allocation on JDK 22+ ("unavailable: native access is not enabled
 * for the class path"): {@code -p hugePages=auto,off} measured the same memory twice without a word.
 */
class PageBenchmarkForkTest {
    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    @Test
    void everyPageBenchmarksForkGrantsNativeAccessForHugePages() {
        Set<BenchmarkListEntry> entries = BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(
            new PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT), List.of(JmhCommand.SUITE_PATTERN), List.of());
        int pageBenchmarks = 0;
        for (BenchmarkListEntry e : entries) {
            if (e.getUsername().contains(".KeyValueCacheBenchmark.")) {
                continue; // no page cache in it
            }
            pageBenchmarks++;
            assertTrue(e.getJvmArgsAppend().hasValue() && e.getJvmArgsAppend().get().contains(NATIVE_ACCESS),
                e.getUsername() + "'s fork options: " + e.getJvmArgsAppend());
        }
        assertTrue(pageBenchmarks > 0, "no page benchmark in " + entries);
    }

    /** JDK 17, which this project builds with, starts a fork with the flag (it has no huge pages for us either way). */
    @Test
    void aForkWithoutTheHostsOptionsStartsWithIt() throws Exception {
        System.setProperty("jmh.ignoreLock", "true"); // as JmhSmokeTest: a ./bench jmh beside the build must not fail it
        Collection<RunResult> results = new Runner(new OptionsBuilder()
            .include("\\.HitPathBenchmark\\.read$")
            .param("side", CacheSide.RATATOSK)
            .param("pages", "256")
            .forks(1)
            .jvmArgs("-Xmx256m") // instead of this JVM's options (surefire's --enable-native-access among them)
            .threads(1)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(50))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build()).run();
        assertEquals(1, results.size());
        RunResult r = results.iterator().next();
        assertTrue(r.getParams().getJvmArgs().contains(NATIVE_ACCESS), r.getParams().getJvmArgs().toString());
        assertFalse(r.getPrimaryResult().getScore() <= 0, "measured nothing");
    }
}
