package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.internal.FileChannelOpener;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Threads read and write random pages of a file ten times the cache while the swappers fail at random
 * ({@link FaultInjectingSwapperFactory}: IOExceptions, Errors, short and failed transfers, stalls, and
 * interrupts of the calling and of other threads), with the background evictor on and off, and once over
 * interruptible channels (FileSwapper's reopening fallback). Threads take every failure an injected fault
 * causes in their stride, clear their interrupt status and carry on.
 * When the faults stop, a flush, a close and a reopen with a fresh cache must find every page holding its
 * last acknowledged version, or the later one that was under way, never torn or misplaced.
 * <p>
 * What counts as written, per page (each page has one writing thread, so its versions go in order):
 * <ul>
 *   <li>{@code started[p]}: the last version whose write cursor's {@code next()} returned true. Its whole
 *   content then reached the frame, since puts cannot fail; the next attempt writes {@code started + 1},
 *   and an attempt whose {@code io()} or {@code next()} threw reuses its version.</li>
 *   <li>{@code acknowledged[p]}: the last version whose write cursor was then closed without any
 *   exception: what the application was told is written.</li>
 * </ul>
 * The rule, for every validated read during the run and for every page after the reopen: the page holds
 * a version v with {@code acknowledged-before-the-read <= v <= started}, intact ({@link PageContent}),
 * or is all zeros only if nothing was acknowledged. A failure prints the seed; replay with
 * {@code -Dratatosk.faultSeed=<seed>}. A hang fails after {@link #DEADLINE_SECONDS} with a thread dump.
 */
class FaultInjectionStressTest {
    private static final int THREADS = 6;
    private static final long FAULT_MILLIS = 4000;
    /**
     * A scenario's whole run: its faults, then the checks, flush, close, reopen and check. Beyond the faults' time, the
     * shared bound of one wait: 30 s in all could report as a hang a run that a loaded 2-core machine only slowed
     * (six workers to stop, then every page checked twice, around a close and a reopen).
     */
    private static final long DEADLINE_SECONDS = TimeUnit.MILLISECONDS.toSeconds(FAULT_MILLIS) + Waits.BOUND_SECONDS;
    /** Set when a hung run's threads could not be stopped: they still spin, and would distort later runs. */
    private static volatile String stillSpinning;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "background evictor {0}, {1} channel")
    @CsvSource({"true, UNINTERRUPTIBLE", "false, UNINTERRUPTIBLE", "true, INTERRUPTIBLE"})
    void everyAcknowledgedWriteSurvivesInjectedFaults(boolean evictor, ChannelKind channel) throws Throwable {
        Assumptions.assumeTrue(stillSpinning == null, () -> "skipped: " + stillSpinning);
        Long given = Long.getLong("ratatosk.faultSeed");
        long seed = given != null ? given : System.nanoTime();
        String variant = "background evictor " + evictor + ", " + channel + " channel";
        System.out.println("FaultInjectionStressTest (" + variant + "): seed " + seed
            + "; replay with -Dratatosk.faultSeed=" + seed);
        Scenario scenario = new Scenario(seed, evictor, channel, variant);
        FutureTask<Void> task = new FutureTask<>(() -> {
            scenario.run();
            return null;
        });
        Thread runner = new Thread(task, "fault-injection-scenario");
        runner.setDaemon(true);
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (thread.getName().startsWith("ratatosk-")) {
                scenario.uncaught(thread, e); // the evictor reports its errors here
            } else {
                e.printStackTrace(); // the handler is the JVM's: a thread another test left running is not this scenario's
            }
        });
        try {
            runner.start();
            task.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            scenario.stop = true;
            AssertionError hang = new AssertionError("seed " + seed + ": the scenario did not finish within "
                + DEADLINE_SECONDS + " s (phase: " + scenario.phase + "); " + scenario.summary()
                + "\nthe injected Errors that escaped first are attached as suppressed exceptions\n" + threadDump());
            scenario.escapedErrors.forEach(hang::addSuppressed);
            List<Thread> hung = new ArrayList<>(scenario.workers);
            hung.add(runner);
            if (!stopSpinning(hung)) {
                stillSpinning = "an earlier run hung (seed " + seed + ") and its threads still spin";
            }
            throw hang;
        } catch (ExecutionException e) {
            throw new AssertionError("seed " + seed + ", phase " + scenario.phase + ": " + e.getCause() + "; "
                + scenario.summary(), e.getCause());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    /** The channels under the swappers. */
    enum ChannelKind {
        /** The default: interrupts cannot close them. */
        UNINTERRUPTIBLE,
        /** FileSwapper's fallback: an interrupt closes the channel and the swapper reopens the file. */
        INTERRUPTIBLE
    }

    /** One run: the cache, the workers, and what they were told. */
    private final class Scenario {
        private final long seed;
        private final boolean evictor;
        private final String variant;
        private final FaultInjectingSwapperFactory swappers;
        private final AtomicLongArray started = StressWorkload.nothingCommitted();
        private final AtomicLongArray acknowledged = StressWorkload.nothingCommitted();
        /** The first damage seen: a torn, misplaced, lost or impossible page. Fails the run at once. */
        private final AtomicReference<Throwable> damage = new AtomicReference<>();
        /** Failures no injected fault explains, by type and message, with the first of each kind. */
        private final Map<String, Throwable> unexpected = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> unexpectedCounts = new ConcurrentHashMap<>();
        private final AtomicLong tolerated = new AtomicLong();
        private final AtomicLong toleratedInterrupts = new AtomicLong();
        private final AtomicLong writes = new AtomicLong();
        private final AtomicLong reads = new AtomicLong();
        private final AtomicLong flushes = new AtomicLong();
        private final AtomicLong evictorErrors = new AtomicLong();
        final List<Thread> workers = new CopyOnWriteArrayList<>();
        /** The first injected Errors that reached a worker or the evictor: where a hang usually began. */
        final List<Throwable> escapedErrors = Collections.synchronizedList(new ArrayList<>());
        volatile boolean stop;
        volatile String phase = "opening";

        Scenario(long seed, boolean evictor, ChannelKind channel, String variant) {
            this.seed = seed;
            this.evictor = evictor;
            this.variant = variant;
            this.swappers = new FaultInjectingSwapperFactory(seed, channel == ChannelKind.UNINTERRUPTIBLE
                ? FileChannelOpener.uninterruptible() : FileChannelOpener.interruptible());
            FaultInjectingSwapperFactory s = swappers;
            s.ioException = 0.01;
            s.error = 0.003;
            s.interruptOther = 0.01;
            s.channel.ioException = 0.01;
            s.channel.shortTransfer = 0.05;
            s.channel.stall = 0.01;
            s.channel.maxStallNanos = TimeUnit.MILLISECONDS.toNanos(2);
            s.channel.interruptCaller = 0.01;
        }

        void run() throws Exception {
            PageCacheConfig config = PageCacheConfig.parse(Map.of(
                "pagecache.memory", String.valueOf(StressWorkload.FRAMES * StressWorkload.PAGE_SIZE),
                "pagecache.page_size", String.valueOf(StressWorkload.PAGE_SIZE),
                "pagecache.evictor.enabled", String.valueOf(evictor)));
            Path path = dir.resolve("faults.db");
            try (PageCache cache = PageCache.open(config, swappers)) {
                PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE);
                phase = "faults injected";
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    Thread worker = new Thread(() -> work(file, thread), "fault-worker-" + t);
                    worker.setDaemon(true);
                    workers.add(worker);
                    swappers.workers.add(worker);
                }
                swappers.enable(true);
                workers.forEach(Thread::start);
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAULT_MILLIS);
                while (System.nanoTime() < end && damage.get() == null) {
                    Thread.sleep(10);
                }
                stop = true;
                phase = "stopping the workers";
                for (Thread worker : workers) {
                    worker.join();
                }
                swappers.workers.clear();
                swappers.enable(false);
                throwIfDamaged();

                phase = "checking the cache once the faults stopped";
                verify(file, "in the cache once the faults stopped");
                phase = "flushing";
                try {
                    flushOrReportAFailedForce(file);
                } catch (IOException pendingFromTheFaults) {
                    flushOrReportAFailedForce(file); // an eviction error from the faulty period is reported once
                }
                phase = "closing";
                try {
                    file.close();
                } catch (IOException e) {
                    if (!saysAnEarlierForceFailed(e)) {
                        throw e;
                    }
                    file.close(); // unmapped all the same: this closes its swapper
                }
            }
            phase = "reopening";
            try (PageCache cache = PageCache.open(config); PagedFile file = cache.map(path, StressWorkload.PAGE_SIZE, false)) {
                phase = "checking the reopened file";
                verify(file, "after flush, close and reopen");
            }
            phase = "done";
            if (!unexpected.isEmpty()) {
                AssertionError e = new AssertionError("seed " + seed + ": failures no injected fault explains: "
                    + unexpectedCounts + "; " + summary());
                unexpected.values().forEach(e::addSuppressed);
                throw e;
            }
            assertTrue(writes.get() > 0 && reads.get() > 0, "the workers made no progress: " + summary());
            assertTrue(swappers.ioExceptions.get() + swappers.errors.get() + swappers.channel.ioExceptions.get() > 0,
                "no fault was injected: " + summary());
            System.out.println("FaultInjectionStressTest (" + variant + "), seed " + seed + ": " + summary());
        }

        /**
         * A flush once the faults stopped. A force that failed during them sticks (every later flush and the close say
         * so), but each flush still wrote every dirty page: what the reopened file is checked for.
         */
        private void flushOrReportAFailedForce(PagedFile file) throws IOException {
            try {
                file.flush();
            } catch (IOException e) {
                if (!saysAnEarlierForceFailed(e)) {
                    throw e;
                }
            }
        }

        /**
         * A failed force that sticks: said by every later flush and the close. With an interruptible channel the first
         * one may also be the swapper's own, once an interrupt made it reopen the file over writes not yet forced.
         */
        private boolean saysAnEarlierForceFailed(IOException e) {
            String message = String.valueOf(e.getMessage());
            return message.startsWith("an earlier force of ")
                || message.contains("not yet forced went through a channel that an interrupt closed");
        }

        private void work(PagedFile file, int thread) {
            SplittableRandom random = new SplittableRandom(seed * 31 + thread);
            long[] body = new long[PageContent.bodyWords(StressWorkload.PAGE_SIZE)];
            while (!stop && damage.get() == null) {
                try {
                    long pageId = random.nextInt(StressWorkload.FILE_PAGES);
                    if (random.nextInt(4) == 0) {
                        pageId = pageId - pageId % THREADS + thread; // write only the pages this thread owns
                        pageId = pageId < StressWorkload.FILE_PAGES ? pageId : thread;
                    }
                    if (random.nextInt(500) == 0) {
                        file.flush(); // a checkpoint: writes and forces meet the faults too, not only evictions
                        flushes.incrementAndGet();
                    } else if (pageId % THREADS == thread && random.nextInt(3) == 0) {
                        write(file, pageId);
                    } else {
                        read(file, pageId, body);
                    }
                } catch (Throwable e) {
                    judge(e);
                } finally {
                    Thread.interrupted();
                }
            }
        }

        private void write(PagedFile file, long pageId) throws IOException {
            int p = (int) pageId;
            long version = started.get(p) + 1;
            try (PageCursor w = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
                if (!w.next()) {
                    throw new IllegalStateException("a write cursor's next() returned false for page " + pageId);
                }
                started.set(p, version);
                PageContent.write(w, pageId, version);
            }
            acknowledged.set(p, version);
            writes.incrementAndGet();
        }

        private void read(PagedFile file, long pageId, long[] body) throws IOException {
            int p = (int) pageId;
            long before = acknowledged.get(p);
            try (PageCursor r = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
                long seen;
                if (r.next()) {
                    seen = readChecked(r, pageId, body);
                } else if (before >= 0) {
                    throw damaged(new AssertionError("page " + pageId + " was acknowledged at version " + before
                        + " but a read cursor's next() says it does not exist"));
                } else {
                    return;
                }
                check(pageId, seen, before, started.get(p), "read during the faults");
            }
            reads.incrementAndGet();
        }

        private long readChecked(PageCursor cursor, long pageId, long[] body) throws IOException {
            try {
                return PageContent.readValidated(cursor, pageId, body);
            } catch (AssertionError e) {
                if (isInjected(e)) {
                    throw e; // shouldRetry() faulted the page in again, and the swapper failed
                }
                throw damaged(e); // a torn or misplaced page
            }
        }

        private void check(long pageId, long seen, long acknowledgedBefore, long startedNow, String when) {
            boolean ok = seen == -1 ? acknowledgedBefore == -1 : acknowledgedBefore <= seen && seen <= startedNow;
            if (!ok) {
                throw damaged(new AssertionError("page " + pageId + " holds version " + seen + " (" + when
                    + "); acknowledged " + acknowledgedBefore + ", last started " + startedNow));
            }
        }

        private void verify(PagedFile file, String when) throws IOException {
            long[] body = new long[PageContent.bodyWords(StressWorkload.PAGE_SIZE)];
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = 0; p < StressWorkload.FILE_PAGES; p++) {
                    long seen;
                    try {
                        seen = p > file.getLastPageId() ? -1 : (c.next(p) ? readChecked(c, p, body) : -1);
                    } catch (IOException pendingFromTheFaults) {
                        // an eviction that failed during the faults is reported once, to the next fault
                        if (!isInjected(pendingFromTheFaults)) {
                            throw pendingFromTheFaults;
                        }
                        seen = c.next(p) ? readChecked(c, p, body) : -1;
                    }
                    check(p, seen, acknowledged.get(p), started.get(p), when);
                }
            }
            throwIfDamaged();
        }

        private AssertionError damaged(AssertionError e) {
            DamageSeen seen = new DamageSeen(e);
            damage.compareAndSet(null, seen);
            return seen;
        }

        private void throwIfDamaged() {
            Throwable e = damage.get();
            if (e != null) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage() + "; " + summary(), e);
            }
        }

        /** Counts a failure an injected fault explains; records any other. */
        private void judge(Throwable e) {
            if (e instanceof DamageSeen) {
                return; // recorded when it was seen; the first one fails the run
            }
            if (isInjected(e)) {
                tolerated.incrementAndGet();
                if (e instanceof Error && escapedErrors.size() < 5) {
                    escapedErrors.add(new AssertionError("injected Error reached " + Thread.currentThread().getName(), e));
                }
            } else if (isInterrupt(e)) {
                toleratedInterrupts.incrementAndGet();
            } else {
                String kind = e.getClass().getName() + ": " + firstLine(e.getMessage());
                unexpectedCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
                unexpected.putIfAbsent(kind, e);
            }
        }

        void uncaught(Thread thread, Throwable e) {
            evictorErrors.incrementAndGet();
            judge(e);
        }

        String summary() {
            return writes + " acknowledged writes, " + reads + " checked reads, " + flushes + " flushes, " + tolerated
                + " failures from injected faults, " + toleratedInterrupts + " from interrupts, "
                + evictorErrors + " errors reported by the evictor thread, unexpected " + unexpectedCounts
                + "; " + swappers;
        }
    }

    /** A page found torn, misplaced, lost or newer than anything written. */
    private static final class DamageSeen extends AssertionError {
        DamageSeen(AssertionError what) {
            super(what.getMessage(), what);
        }
    }

    /** Whether an injected fault is among {@code e}, its causes and suppressed exceptions. */
    static boolean isInjected(Throwable e) {
        return anyInChain(e, t -> t.getMessage() != null && t.getMessage().contains(FaultInjectingSwapperFactory.MARK),
            Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static boolean isInterrupt(Throwable e) {
        // Also a force that fails because an interrupt made FileSwapper reopen its file over writes not yet forced
        return anyInChain(e, t -> t instanceof InterruptedException || t instanceof InterruptedIOException
            || t instanceof ClosedByInterruptException || String.valueOf(t.getMessage()).contains("that an interrupt closed"),
            Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static boolean anyInChain(Throwable e, java.util.function.Predicate<Throwable> test, Set<Throwable> seen) {
        if (e == null || !seen.add(e)) {
            return false;
        }
        if (test.test(e) || anyInChain(e.getCause(), test, seen)) {
            return true;
        }
        for (Throwable s : e.getSuppressed()) {
            if (anyInChain(s, test, seen)) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String line = message.lines().findFirst().orElse("");
        return line.replaceAll("\\d+", "N"); // one kind per message shape, whatever the page
    }

    /**
     * Best effort to stop threads that hung spinning inside the cache, so that they do not eat the CPU
     * of the tests that run after this one in the same JVM. Thread.stop works up to JDK 19 and throws
     * from JDK 20 on. A stopped thread may run into another spin on its way out (closing the cache in a
     * finally block, say), so it is stopped again. Returns whether every thread is gone.
     */
    private static boolean stopSpinning(List<Thread> threads) {
        for (int round = 0; round < 10; round++) {
            boolean anyAlive = false;
            for (Thread thread : threads) {
                if (thread.isAlive()) {
                    anyAlive = true;
                    try {
                        Thread.class.getMethod("stop").invoke(thread);
                    } catch (ReflectiveOperationException | RuntimeException unsupportedOnThisJdk) {
                        return false;
                    }
                }
            }
            if (!anyAlive) {
                return true;
            }
            for (Thread thread : threads) {
                try {
                    thread.join(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    private static String threadDump() {
        StringBuilder dump = new StringBuilder("thread dump:\n");
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            if (info.getThreadName().equals("main")) {
                continue; // the test runner, waiting here
            }
            dump.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                dump.append(" on ").append(info.getLockName());
            }
            dump.append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                dump.append("    at ").append(frame).append('\n');
            }
        }
        return dump.toString();
    }
}
