package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.Waits;
import io.ratatosk.policies.PolicyRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The randomized model test of the page cache's lifecycle (issue 11). Several threads run random
 * sequences of map (by several spellings of each path, symlinks included; {@code path()} must resolve them; with create
 * or without), unmap, read and write cursors (read-ahead on either; {@code next()}, {@code next(id)}, far and invalid ids;
 * pages through every accessor, longs, ints, shorts, bytes or one block, absolute or relative to an offset that a retry
 * must put back; writes reaching out of the page must write nothing), cursors with linked cursors (read in one
 * {@code shouldRetry()} loop, written, closed in either order, kept open across a close), calls on closed
 * cursors (each must throw IllegalStateException; a cursor closed on two threads at once), copies through
 * {@code copyTo} (across files and page sizes, within a page, near and past the pages' ends; judged byte for byte; into a write cursor on no page, a closed one
 * or a read cursor), cursor
 * exceptions (set, reported, cleared: in read loops that retry or are cut under, through links, on write cursors), flush, touch (its count, its stop at the end, the pages it loaded read at once), truncate (past every page the model
 * writes, so that it loses nothing while its gate races the rest; and to a middle page of a shared file while the
 * others read and write it, where the model learns what it cannot know: see {@link FileModel}; {@code fileSize()} after
 * writes, flushes, touches and truncates must be that of the last page id, in the file's page size), cache close and reopen, over
 * several files, small caches with the background evictor on or off, and every policy, against a model of
 * what each page must hold; every thread's snapshots of {@code stats()} between operations must keep what its counters
 * promise (see {@link StatsChecks}). Each thread also has a file of its own, where the model knows the file's last page:
 * there it truncates to a page in the middle, reads and writes ({@code PF_NO_GROW} or not) past the end, unmaps
 * the file under its own cursors, and maps it again while it is mapped, in a second cache or with another page size
 * (each refused, see {@link ClaimChecks}). The disk fails for a while in some scenarios (a failed force must then stick:
 * every later flush of that mapping throws until it is unmapped), and in some the NVM tier
 * ({@code pagecache.swap=nvm}) sits between most caches' frames and the files, made by the cache or (half the time) by
 * the scenario and given to it ({@code PageCache.open(config, tier)}), whose close of it is refused while the cache is
 * open and does nothing once the cache closed it. Every acknowledged write must survive
 * unmap, close and reopen; nothing may crash, hang, tear a page, or map one file twice.
 *
 * <p>It runs short scenarios until its time is up: about a minute by default; {@code -Dratatosk.soak=10m}
 * runs as long as asked. The master seed is printed at the start and in every failure, with the flags
 * that replay the failing scenario ({@code -Dratatosk.seed=... -Dratatosk.scenario=...}); see
 * {@link RunSettings}. {@code -Dratatosk.skip=LINKS,STALE_READ_ACROSS_CLOSE,...} leaves things out (see
 * {@link Skips}), to see what else a run finds while one bug still fails or crashes every run.
 */
class LifecycleModelTest {
    private static final int MAX_PARTICIPANTS = 17;
    /**
     * Where the page cache warns (System.Logger, backed by these JUL loggers) of what the model does on purpose
     * several times a scenario: a cache closed with cursors still open (LifecycleTest checks that warning), a
     * warm-up stopped by an injected read failure (WarmupTest checks the warm-up's warnings).
     */
    private static final Logger PAGECACHE_LOG = Logger.getLogger("io.ratatosk.pagecache");
    private static final Logger WARMUP_LOG = Logger.getLogger("io.ratatosk.pagecache.warmup");
    private static final String CLOSED_WITH_CURSORS = "page cache closed with ";
    private static final String STALE_PROFILE = "stale, the file has ";
    private static final String CACHE_THREAD_PREFIX = "ratatosk-";
    /**
     * How long a cache's thread may take to end after its cache closed: the shared bound of one wait
     * ({@link Waits#BOUND_SECONDS}, {@code ratatosk.test.wait_s}), which a loaded machine raises (a fixed 10 s
     * ignored it, failing a thread slow to end on a machine where every other wait was given longer).
     */
    private static final Duration THREAD_EXIT_GRACE = Duration.ofSeconds(Waits.BOUND_SECONDS);

    @TempDir
    Path dir;

    @Test
    void randomLifecycleOperationsNeverLoseAnAcknowledgedWriteCrashOrHang() throws Exception {
        RunSettings settings = RunSettings.fromSystemProperties();
        print("lifecycle model test: master seed " + settings.seed() + " (replay with -D" + RunSettings.SEED + "="
            + settings.seed() + "), " + settings.threads() + " threads, for " + settings.soak().toSeconds() + " s"
            + (settings.onlyScenario() >= 0 ? ", only scenario " + settings.onlyScenario() : "")
            + (settings.skips().none() ? "" : ", " + settings.skips()) + "; policies " + PolicyRegistry.NAMES);
        Failures failures = new Failures();
        // Counted, not printed: hundreds of such warnings a minute would bury the scenarios' own lines. Any other
        // record of these loggers is printed as it would be.
        AtomicLong closedWithCursors = new AtomicLong();
        AtomicLong injectedWarmUpFailures = new AtomicLong();
        Filter previousFilter = PAGECACHE_LOG.getFilter();
        Filter previousWarmUpFilter = WARMUP_LOG.getFilter();
        PAGECACHE_LOG.setFilter(countAndDrop(previousFilter, m -> m.startsWith(CLOSED_WITH_CURSORS), closedWithCursors));
        // A profile written before a truncate of a thread's own file (or kept while a reheat ran) names more pages than
        // the file has at the next map, which ignores it as stale, warning: expected, not printed either.
        WARMUP_LOG.setFilter(countAndDrop(previousWarmUpFilter, m -> m.contains("injected ") || m.contains(STALE_PROFILE),
            injectedWarmUpFailures));
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (!FaultInjector.isInjected(e)) {
                failures.fail("thread " + thread.getName() + " reported an uncaught " + e + " (master seed "
                    + settings.seed() + ")", e);
            }
        });
        try (Watchdog watchdog = new Watchdog(MAX_PARTICIPANTS, settings.opTimeout(), failures)) {
            Thread driver = new Thread(() -> runScenarios(settings, failures, watchdog), "lifecycle-driver");
            driver.setDaemon(true);
            driver.start();
            while (driver.isAlive() && !failures.await(200)) {
                // wait for the end, or the first failure (a hung driver is left behind)
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
            PAGECACHE_LOG.setFilter(previousFilter);
            WARMUP_LOG.setFilter(previousWarmUpFilter);
        }
        print("lifecycle model test: " + closedWithCursors.get() + " caches closed with cursors still open and "
            + injectedWarmUpFailures.get() + " warm-ups stopped by an injected read failure or profiles of a truncated file"
            + " ignored as stale (each a WARNING of the page cache's, counted here instead of printed)");
        if (failures.any()) {
            throw failures.first();
        }
    }

    /** A filter that drops, and counts, the WARNING records whose message {@code expected} accepts. */
    private static Filter countAndDrop(Filter previous, Predicate<String> expected, AtomicLong count) {
        return record -> {
            if (record.getLevel() == Level.WARNING && record.getMessage() != null && expected.test(record.getMessage())) {
                count.incrementAndGet();
                return false;
            }
            return previous == null || previous.isLoggable(record);
        };
    }

    private void runScenarios(RunSettings settings, Failures failures, Watchdog watchdog) {
        long deadline = System.nanoTime() + settings.soak().toNanos();
        int first = Math.max(0, settings.onlyScenario());
        for (int index = first; !failures.any(); index++) {
            if (index > first && (settings.onlyScenario() >= 0 || System.nanoTime() > deadline)) {
                return;
            }
            ScenarioConfig config = ScenarioConfig.draw(index, RunSettings.mix(settings.seed(), index), settings.threads(), settings.skips());
            long start = System.nanoTime();
            Scenario sc;
            try {
                sc = new Scenario(config, settings, dir.resolve("s" + index), failures, watchdog);
            } catch (Exception e) {
                failures.fail("setting up " + config + " failed: " + e, e);
                return;
            }
            if (index == first && !sc.spellings.notes().isEmpty()) {
                print("note: " + String.join("; ", sc.spellings.notes()));
            }
            failures.context(sc::dumpLogs);
            print("starting " + config);
            Set<Thread> threadsBefore = cacheThreads();
            try {
                new ScenarioRunner(sc).run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable e) {
                sc.fail("scenario driver threw " + e, e);
            }
            if (failures.any()) {
                return;
            }
            checkNoThreadLeft(sc, threadsBefore);
            if (failures.any()) {
                return;
            }
            print("done in " + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms: " + sc.summary());
        }
    }

    /** The page caches' own threads alive now (evictor, read-ahead, warm-up, tier prefetcher). */
    private static Set<Thread> cacheThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(CACHE_THREAD_PREFIX) && t.isAlive()) {
                threads.add(t);
            }
        }
        return threads;
    }

    /**
     * Every cache of the scenario is closed at its end, so none of the threads its caches started may still run: a
     * cache whose close left a thread behind leaks it for the life of the host (a long soak once ran out of native
     * threads). A thread gets {@link #THREAD_EXIT_GRACE} to finish its exit.
     */
    private static void checkNoThreadLeft(Scenario sc, Set<Thread> before) {
        long deadline = System.nanoTime() + THREAD_EXIT_GRACE.toNanos();
        Set<Thread> left = cacheThreads();
        left.removeAll(before);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(10_000_000);
            left.removeIf(t -> !t.isAlive());
        }
        if (!left.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (Thread t : left) {
                sb.append("\n  ").append(t.getName()).append(" (").append(t.getState()).append(")");
                for (StackTraceElement e : t.getStackTrace()) {
                    sb.append("\n    at ").append(e);
                }
            }
            sc.fail(left.size() + " page cache thread(s) still alive " + THREAD_EXIT_GRACE.toSeconds()
                + " s after the scenario closed every cache:" + sb, null);
        }
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
