package io.ratatosk.bench;

import io.ratatosk.bench.jmh.CompilerWarmUp;
import io.ratatosk.bench.jmh.ThreadCounts;
import io.ratatosk.bench.sim.FlagSettings;
import io.ratatosk.bench.sim.PolicyCatalog;
import io.ratatosk.bench.sim.PolicySpec;
import io.ratatosk.bench.sim.CleanUp;
import io.ratatosk.bench.sim.ScratchFiles;
import io.ratatosk.bench.workload.Zipf;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./bench throughput}: page-cache reads per second for each policy, from threads that pin
 * pages of one file through read cursors in a Zipf(0.9) order over eight times the cache's frames,
 * so that about a third of the pins fault. A rough, short measurement: the page cache's own hit and
 * miss paths with the policy in them, evictor on, nothing else. Each policy gets a fresh cache and a warm-up
 * of at least a second that lasts until the JIT compiler has gone quiet (at most 20 s), then the timed run:
 * on two cores the compiler threads would otherwise take a core from whichever policy runs first, and from
 * one with much code of its own (best-of) on every run.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true,
    description = "Page-cache read throughput per policy (Zipf 0.9 over 8 x the frames).")
public final class ThroughputCommand implements Callable<Integer> {
    private static final int PAGE_SIZE = 512;
    /** The file's pages per frame of the cache: a third of the pins fault at Zipf(0.9). */
    private static final int FILE_FACTOR = 8;
    /** The most frames whose file's page numbers still fit an int. */
    static final int MAX_FRAMES = Integer.MAX_VALUE / FILE_FACTOR;
    /** The Zipf generator's table: a double per page of the file. */
    private static final long ZIPF_BYTES_PER_FRAME = (long) FILE_FACTOR * Double.BYTES;
    /** The longest timed run: a day. */
    private static final double MAX_SECONDS = 86_400;
    /** Repetitions at most: each keeps its result, and 2147483647 died of an OutOfMemoryError allocating them. */
    static final int MAX_RUNS = 10_000;
    /** Page numbers drawn per thread, read round and round: a power of two. */
    private static final int ORDER_LENGTH = 1 << 20;
    /** The bytes of one thread's page numbers. */
    static final long ORDER_BYTES = (long) ORDER_LENGTH * Integer.BYTES;
    /** The flags this command sets itself: the cache's size and page size come from --frames, the policy from --policies. */
    private static final List<String> FIXED = List.of("pagecache.memory", "pagecache.page_size", "pagecache.policy");

    @Option(names = "--policies", paramLabel = "LIST", defaultValue = "default,muninn,global-clock,clock-pro,deferred-lru",
        description = "policies, each name[:flag=value]... as in ./bench sim (e.g. deferred-lru:pull_threshold=0.5);"
            + " default stands for the page cache's default policy and runs first, under its name. Default: ${DEFAULT-VALUE}.")
    String policies;

    @Option(names = "--set", paramLabel = "FLAG=VALUE",
        description = "Any other page cache flag for every run, repeatable, e.g. --set pagecache.evictor.enabled=false;"
            + " a flag given twice with different values is refused.")
    List<String> settings = new ArrayList<>();
    /** {@link #settings} by full flag name, as checkFlags() read them. */
    private Map<String, String> set = Map.of();

    @Option(names = "--threads", split = ",", defaultValue = "1,2", description = "thread counts")
    List<Integer> threads;

    @Option(names = "--frames", defaultValue = "8192", description = "frames of the cache")
    int frames;

    @Option(names = "--seconds", defaultValue = "3", description = "timed seconds per run")
    double seconds;

    @Option(names = "--warmup", paramLabel = "SECONDS|quiet", defaultValue = "quiet",
        description = "warm-up before each timed run: seconds, or quiet (at least 1 s, then until the JIT compiler has"
            + " added no compilation time for a second, at most 20 s more). Default: ${DEFAULT-VALUE}.")
    String warmup;
    /** {@link #warmup} in seconds as checkFlags() read it; NaN for {@code quiet}. */
    private double warmupSeconds = Double.NaN;

    @Option(names = "--runs", defaultValue = "1", description = "repetitions; the mean and each run are shown")
    int runs;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<PolicySpec> specs = checkFlags();
        int pages = FILE_FACTOR * frames;
        // deleted also when the run is stopped (Ctrl-C), with the profile a --set warmup.enabled=true writes beside the file
        ScratchFiles scratch = ScratchFiles.create(null, "ratatosk-throughput");
        try (CleanUp deleteScratch = CleanUp.closing(List.of(scratch))) { // its failure said after the run's
            Path file = scratch.folder().resolve("throughput.db");
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength((long) pages * PAGE_SIZE);
            }
            int maxThreads = threads.stream().mapToInt(Integer::intValue).max().orElse(1);
            int[][] orders = zipfOrders(pages, maxThreads);
            System.out.printf(Locale.ROOT, "%-52s %8s %12s %8s  runs%n", "policy", "threads", "Mops/s", "hit %");
            for (PolicySpec policy : specs) {
                for (int t : threads) {
                    double[] mops = new double[runs];
                    double hitPercent = 0; // the mean, as Mops/s's: it was the last run's alone
                    for (int run = 0; run < runs; run++) {
                        double[] result = measure(file, policy, t, orders);
                        mops[run] = result[0];
                        hitPercent += result[1] / runs;
                    }
                    System.out.printf(Locale.ROOT, "%-52s %8d %12.2f %8.2f  %s%n", policy.text(), t, Arrays.stream(mops).average().orElse(0),
                        hitPercent, Arrays.toString(Arrays.stream(mops).map(m -> Math.round(m * 100) / 100.0).toArray()));
                }
            }
            return 0;
        }
    }

    /** Per thread, a million page numbers drawn Zipf(0.9) by rank, ranks scattered over the file. */
    private static int[][] zipfOrders(int pages, int threads) {
        Zipf zipf = new Zipf(pages, 0.9);
        int[][] orders = new int[threads][ORDER_LENGTH];
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(t);
            for (int i = 0; i < orders[t].length; i++) {
                orders[t][i] = (int) (zipf.nextRank(random) * 2654435761L % pages);
            }
        }
        return orders;
    }

    /**
     * Every count in range and every policy a configuration the page cache accepts, before the file is made: a typo
     * in the last policy of a list is not found after the others have run. Returns the policies, {@code default}
     * first under its real name, a repeat dropped.
     */
    private List<PolicySpec> checkFlags() {
        List<String> wrong = new ArrayList<>();
        if (threads.isEmpty()) {
            wrong.add("--threads names no thread count"); // ",," would measure nothing and succeed
        } else if (!ThreadCounts.inRange(threads)) {
            wrong.add(ThreadCounts.outOfRange("--threads", threads));
        } else if (new java.util.HashSet<>(threads).size() < threads.size()) {
            // "1,2,1" measured every policy at 1 thread twice, as long again, two rows of one measurement
            wrong.add("--threads names a thread count twice: " + threads + "; each count runs once (repeat runs with --runs)");
        }
        if (!threads.isEmpty() && ThreadCounts.inRange(threads) && frames >= 2 && frames <= MAX_FRAMES) {
            // the Zipf table and each thread's page numbers are allocated up front: too large a heap's worth died of an
            // OutOfMemoryError, a stack trace
            int most = Collections.max(threads);
            long needed = most * ORDER_BYTES + (long) frames * ZIPF_BYTES_PER_FRAME;
            long heap = Runtime.getRuntime().maxMemory();
            if (needed > heap / 2) {
                wrong.add("--threads " + most + " and --frames " + frames + " need about " + (needed >> 20) + " MiB of heap ("
                    + (ORDER_BYTES >> 20) + " MiB of page numbers per thread, " + ZIPF_BYTES_PER_FRAME + " bytes of Zipf"
                    + " table per frame), more than half the heap's " + (heap >> 20) + " MiB: fewer threads or frames, or"
                    + " a larger heap (JAVA_OPTS=-Xmx" + ((needed * 2 >> 30) + 1) + "g)");
            }
        }
        if (frames < 2 || frames > MAX_FRAMES) {
            wrong.add("--frames must be from 2 to " + MAX_FRAMES + " (the file's " + FILE_FACTOR + " x as many pages are"
                + " numbered by an int): " + frames);
        }
        if (!(seconds > 0 && seconds <= MAX_SECONDS)) { // 1e300 slept for Long.MAX_VALUE ms: the run never ended
            wrong.add("--seconds must be above 0 and at most " + (long) MAX_SECONDS + " (a day): " + seconds);
        }
        if (runs < 1 || runs > MAX_RUNS) {
            wrong.add("--runs must be from 1 to " + MAX_RUNS + ": " + runs);
        }
        warmupSeconds = warmup.equals("quiet") ? Double.NaN : parseOr(warmup, -1);
        if (!warmup.equals("quiet") && !(warmupSeconds >= 0 && warmupSeconds <= 3600)) {
            wrong.add("--warmup must be quiet or seconds from 0 to 3600: " + (DecimalOption.isDecimal(warmup) ? warmup
                : "'" + warmup + "' is not a decimal number"));
        }
        // a frame count or a --set refused would fail every policy: not repeated for each
        boolean checkable = frames >= 2 && frames <= MAX_FRAMES;
        int wrongBefore = wrong.size();
        set = FlagSettings.parse("--set", settings, wrong);
        checkable &= wrong.size() == wrongBefore;
        for (String flag : set.keySet()) {
            if (FIXED.contains(flag)) {
                checkable = false;
                wrong.add("--set " + flag + "=" + set.get(flag) + ": " + flag + " is fixed by this command ("
                    + String.join(", ", FIXED) + ")");
            }
            Optional<String> policyFlag = FlagSettings.policyFlagRefusal(flag, set.get(flag));
            if (policyFlag.isPresent()) {
                checkable = false;
                wrong.add(policyFlag.get());
            }
        }
        if (checkable && !set.isEmpty()) {
            try {
                config(PolicyCatalog.standard().parsePageCachePolicy("muninn"));
            } catch (IllegalArgumentException e) {
                checkable = false;
                wrong.add("--set: " + e.getMessage());
            }
        }
        // parsed as every tool that runs the page cache parses it: default first, a repeat however written dropped
        int wrongBeforePolicies = wrong.size();
        List<PolicySpec> specs = PolicyCatalog.standard().parsePageCacheList("--policies", policies, wrong);
        for (PolicySpec policy : specs) {
            if (checkable) {
                try {
                    config(policy);
                } catch (IllegalArgumentException e) {
                    wrong.add("--policies " + policy.text() + ": " + e.getMessage());
                }
            }
        }
        if (specs.isEmpty() && wrong.size() == wrongBeforePolicies) { // a list of blanks: said with the rest
            wrong.add("--policies names no policy: '" + policies + "'");
        }
        if (!wrong.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", wrong));
        }
        return specs;
    }

    private static double parseOr(String number, double otherwise) {
        if (!DecimalOption.isDecimal(number)) { // 3f and 0x1p-3 too, as every decimal option
            return otherwise;
        }
        try {
            return Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** The cache for one policy, with its flags and {@code --set}'s. */
    private PageCacheConfig config(PolicySpec policy) {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("pagecache.warmup.enabled", "false"); // each policy starts cold, not from the last one's profile
        flags.putAll(set);
        flags.put("pagecache.policy", policy.name());
        flags.putAll(policy.flags());
        flags.put("pagecache.memory", String.valueOf((long) frames * PAGE_SIZE));
        flags.put("pagecache.page_size", String.valueOf(PAGE_SIZE));
        return PageCacheConfig.parse(flags);
    }

    /** Waits while the workers warm up: {@code --warmup} seconds, or until the JIT compiler is quiet; less once {@code stop}. */
    private void warmUp(PolicySpec policy, int threadCount, AtomicBoolean stop) throws InterruptedException {
        if (!Double.isNaN(warmupSeconds)) {
            sleepUnless(stop, (long) (warmupSeconds * 1000));
            return;
        }
        sleepUnless(stop, 1000);
        if (stop.get()) {
            return;
        }
        CompilerWarmUp.Result warm = CompilerWarmUp.awaitQuiet();
        System.err.printf(Locale.ROOT, "throughput: %s, %d thread(s): warmed up for %.1f s%s%n", policy.text(), threadCount,
            1 + warm.millis() / 1000.0, warm.quiet() ? "" : " (the JIT compiler was still busy)");
    }

    /** Returns {Mops/s, hit %} of one timed run. */
    private double[] measure(Path file, PolicySpec policy, int threadCount, int[][] orders) throws Exception {
        try (PageCache cache = PageCache.open(config(policy)); PagedFile pages = cache.map(file, PAGE_SIZE, false)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean timing = new AtomicBoolean();
            LongAdder ops = new LongAdder();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threadCount; t++) {
                int[] order = orders[t];
                Thread worker = new Thread(() -> {
                    try {
                        readLoop.run(pages, order, stop, timing, ops);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                        stop.set(true);
                    }
                }, "throughput-" + t);
                workers.add(worker);
                worker.start();
            }
            // A reader that fails sets stop: the run fails then, not after the warm-up and --seconds (a day at most).
            warmUp(policy, threadCount, stop);
            PageCacheStats before = cache.stats();
            long start = System.nanoTime();
            timing.set(true);
            sleepUnless(stop, (long) (seconds * 1000));
            timing.set(false);
            long nanos = System.nanoTime() - start;
            PageCacheStats after = cache.stats();
            stop.set(true);
            for (Thread worker : workers) {
                worker.join();
            }
            Throwable failed = failure.get();
            if (failed != null) {
                // A reader that failed once died alone, and the run printed the throughput of the threads left.
                String what = "a reading thread of " + policy.text() + " at " + threadCount + " thread(s) failed: " + failed;
                throw failed instanceof IOException ? new IOException(what, failed) : new IllegalStateException(what, failed);
            }
            long hits = after.hits() - before.hits();
            long pins = hits + after.faults() - before.faults();
            return new double[] {ops.sum() * 1e3 / nanos, 100.0 * hits / Math.max(1, pins)};
        }
    }

    /** Sleeps {@code millis}, or until {@code stop} is set. */
    private static void sleepUnless(AtomicBoolean stop, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = millis; left > 0 && !stop.get(); left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())) {
            Thread.sleep(Math.min(left, STOP_POLL_MILLIS));
        }
    }

    /** How often a sleep of the run looks whether a reader failed. */
    private static final long STOP_POLL_MILLIS = 50;

    /** One reading thread's loop until {@code stop}, counting its reads while {@code timing} into {@code ops}. */
    interface ReadLoop {
        void run(PagedFile pages, int[] order, AtomicBoolean stop, AtomicBoolean timing, LongAdder ops) throws IOException;
    }

    /** The readers' loop; tests put one that fails in its place. */
    static volatile ReadLoop readLoop = ThroughputCommand::read;

    private static void read(PagedFile pages, int[] order, AtomicBoolean stop, AtomicBoolean timing, LongAdder ops)
        throws IOException {
        try (PageCursor cursor = pages.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            long counted = 0;
            for (int i = 0; !stop.get(); i++) {
                cursor.next(order[i & (order.length - 1)]);
                if (timing.get()) {
                    counted++;
                }
            }
            ops.add(counted);
        }
    }
}
