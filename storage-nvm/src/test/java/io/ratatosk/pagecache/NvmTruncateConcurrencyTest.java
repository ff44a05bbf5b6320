package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.nvm.NvmSwapStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The NVM tier's truncate holds every page latch for the file's cut. Racing it: swap-ins and swap-outs of its own file
 * and of another (a tier of a few slots, so the tier's clock writes dirty copies back to make room), flushes, the cache's
 * flushAndForce, and a third file mapped and closed over and over (its close writes back and drops its copies, latch by
 * latch). Nothing may deadlock (a watchdog dumps every thread if the work does not end), and the other file's pages keep
 * their last writes throughout and after the cache's close. In this package for {@link LifecycleTest}'s read and write.
 */
class NvmTruncateConcurrencyTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 24;
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long WATCHDOG_SECONDS = 2 * Waits.BOUND_SECONDS;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void truncatesRacingSwapsFlushesAndClosesNeverDeadlock(String writePolicy) throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of(
            "pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.warmup.enabled", "false",
            "pagecache.jmx.enabled", "false",
            "pagecache.swap", "nvm",
            "pagecache.nvm.capacity", String.valueOf(8 * PAGE),
            "pagecache.nvm.devices", "2",
            "pagecache.nvm.write_policy", writePolicy,
            "pagecache.nvm.prefetch", "4",
            "pagecache.nvm.inject_latency", "false"));
        Path otherPath = dir.resolve("other.db");
        // per page of the other file: its last write, written only by the page's owner thread (page % 4)
        AtomicLongArray lastWrite = new AtomicLongArray(PAGES);
        AtomicLong truncates = new AtomicLong();
        PageCache cache = PageCache.open(config);
        boolean hung = true; // until the workers ended: a hung cache is left open, as its close would hang too
        try {
            PagedFile cut = cache.map(dir.resolve("cut.db"), PAGE);
            PagedFile other = cache.map(otherPath, PAGE);
            long end = System.nanoTime() + RUN_NANOS;
            AtomicBoolean failed = new AtomicBoolean();
            List<Runnable> workers = new ArrayList<>();
            workers.add(() -> { // truncates the first file at random points, with the writers growing it again
                SplittableRandom random = new SplittableRandom(1);
                while (System.nanoTime() < end && !failed.get()) {
                    try {
                        cut.truncate(random.nextInt(PAGES));
                        truncates.incrementAndGet();
                    } catch (IllegalStateException busy) {
                        assertTrue(busy.getMessage().contains("write cursor"), busy.getMessage()); // a writer holds a page
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                }
            });
            for (int w = 0; w < 3; w++) {
                int seed = w;
                workers.add(() -> { // writes and reads the first file, past its end too
                    SplittableRandom random = new SplittableRandom(100 + seed);
                    while (System.nanoTime() < end && !failed.get()) {
                        int page = random.nextInt(PAGES);
                        try {
                            if (random.nextBoolean()) {
                                LifecycleTest.write(cut, page, page);
                            } else {
                                try (PageCursor c = cut.io(page, PagedFile.PF_SHARED_READ_LOCK)) {
                                    if (c.next()) {
                                        do {
                                            c.getLong(0);
                                        } while (c.shouldRetry());
                                    }
                                }
                            }
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }
                });
            }
            for (int w = 0; w < 4; w++) {
                int owner = w;
                workers.add(() -> { // writes its own pages of the other file and reads them back
                    SplittableRandom random = new SplittableRandom(200 + owner);
                    long version = 0;
                    while (System.nanoTime() < end && !failed.get()) {
                        int page = owner + 4 * random.nextInt(PAGES / 4);
                        try {
                            if (random.nextInt(3) == 0) {
                                long expected = lastWrite.get(page);
                                if (expected != 0) {
                                    assertEquals(expected, LifecycleTest.read(other, page), "other.db page " + page);
                                }
                            } else {
                                long value = ((long) page << 32) | ++version;
                                LifecycleTest.write(other, page, value);
                                lastWrite.set(page, value);
                            }
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }
                });
            }
            workers.add(() -> { // flushes both files and the whole cache
                while (System.nanoTime() < end && !failed.get()) {
                    try {
                        other.flush();
                        cut.flush();
                        cache.flushAndForce();
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                }
            });
            workers.add(() -> { // maps, writes and closes a third file: its close drops its copies latch by latch
                long round = 0;
                while (System.nanoTime() < end && !failed.get()) {
                    try (PagedFile third = cache.map(dir.resolve("third.db"), PAGE)) {
                        for (int p = 0; p < 8; p++) {
                            LifecycleTest.write(third, p, ++round);
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                }
            });
            try {
                runUnderWatchdog(workers, failed);
            } catch (ExecutionException workerFailed) {
                hung = false; // every worker ended
                throw workerFailed;
            }
            hung = false;
            other.close();
            cut.close();
            ((NvmSwapStore) cache.tier()).checkInvariants();
        } finally {
            if (!hung) {
                cache.close();
            }
        }
        assertTrue(truncates.get() > 0, "some truncates went through");
        try (PageCache reopened = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
                 "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false")));
             PagedFile other = reopened.map(otherPath, PAGE, false)) {
            for (int page = 0; page < PAGES; page++) {
                if (lastWrite.get(page) != 0) {
                    assertEquals(lastWrite.get(page), LifecycleTest.read(other, page), "other.db page " + page + " after close");
                }
            }
        }
    }

    /** Runs the workers to their end; if they have not ended within the watchdog's time, fails with every thread's stack. */
    private static void runUnderWatchdog(List<Runnable> workers, AtomicBoolean failed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers.size());
        boolean hung = false;
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Runnable worker : workers) {
                futures.add(pool.submit(() -> {
                    try {
                        worker.run();
                    } catch (Throwable t) {
                        failed.set(true);
                        throw t;
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WATCHDOG_SECONDS);
            for (Future<?> future : futures) {
                try {
                    future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    StringBuilder dump = new StringBuilder("the workers did not end within " + WATCHDOG_SECONDS + " s:\n");
                    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                        dump.append(info);
                    }
                    failed.set(true);
                    hung = true;
                    throw new AssertionError(dump.toString());
                }
            }
        } finally {
            pool.shutdown();
            if (!hung && !pool.awaitTermination(WATCHDOG_SECONDS, TimeUnit.SECONDS)) { // hung: the dump says why
                throw new AssertionError("workers still running after the test");
            }
        }
    }
}
