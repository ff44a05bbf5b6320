package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheStats;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one scenario: opens the first cache, runs the workers to the end of their operations, then
 * (with the disk healthy again) closes the cache, checks every file on disk against the model, and
 * once more through a fresh cache that maps each file by two spellings (which must give the same
 * PagedFile), then deletes the files.
 */
final class ScenarioRunner {
    private final Scenario sc;
    private final int driver;

    ScenarioRunner(Scenario sc) {
        this.sc = sc;
        this.driver = sc.config.threads();
    }

    /** Runs the scenario; returns normally also when it failed (see {@link Failures}). */
    void run() throws InterruptedException {
        step("opening the first cache", sc::start);
        List<Thread> threads = new ArrayList<>();
        List<Worker> workers = new ArrayList<>();
        for (int t = 0; t < sc.config.threads(); t++) {
            Worker worker = new Worker(sc, t);
            workers.add(worker);
            Thread thread = new Thread(worker, "lifecycle-s" + sc.config.index() + "-t" + t);
            thread.setDaemon(true); // a hung worker must not keep the JVM alive
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            while (thread.isAlive() && !sc.failures.any()) {
                thread.join(100);
            }
        }
        if (sc.failures.any()) {
            return;
        }
        sc.injector.disable();
        step("checking that no cache counts a cursor open", this::checkNoCursorOpen);
        step("checking the last cache's stats() against the workers' last snapshots", () -> checkStatsAtEnd(workers));
        step("checking the last cache's MBean", () -> sc.checkBeanShown(sc.currentNow()));
        step("closing the last cache", this::closeLast);
        step("checking every cache's counters at rest", this::checkStatsAtRest);
        step("checking every file on disk", () -> sc.verifyOnDisk("at the end of the scenario", true));
        step("checking every file through a fresh cache", this::verifyThroughFreshCache);
        step("deleting the files", this::deleteFiles);
    }

    interface Step {
        void run() throws Exception;
    }

    private void step(String what, Step step) {
        if (sc.failures.any()) {
            return;
        }
        sc.driverLog().add(what);
        sc.watchdog.begin(driver, "driver: " + what + " in scenario " + sc.config.index());
        try {
            step.run();
            sc.driverLog().end("ok");
        } catch (AssertionError e) {
            sc.driverLog().end("FAILED");
        } catch (Throwable e) {
            sc.driverLog().end(e.toString());
            sc.fail("driver: " + what + " threw " + e, e);
        } finally {
            sc.watchdog.end(driver);
        }
    }

    /** Closes the current cache; errors the failing disk left pending may surface a few times first. */
    private void closeLast() throws IOException {
        CacheGeneration g = sc.currentNow();
        for (int attempt = 0; ; attempt++) {
            try {
                sc.close(g);
                return;
            } catch (IOException | Error e) {
                if (!FaultInjector.isInjected(e) || attempt >= 20) {
                    throw sc.fail("closing the cache after every worker stopped (and the disk was healthy again) threw " + e, e);
                }
            } catch (IllegalStateException e) {
                throw sc.fail("closing the cache after every worker stopped threw " + e
                    + ": no cursor is open, so nothing may hold a page", e);
            }
        }
    }

    /**
     * Every worker closed every cursor it opened (linked ones, ones whose calls were refused, ones left open across a
     * close), so no cache of the scenario may count one open: a closed cache frees its page memory only when that count
     * reaches 0, so one cursor counted and never uncounted keeps a cache's memory for the life of the host.
     */
    private void checkNoCursorOpen() {
        for (CacheGeneration g : sc.generations) {
            long open = g.cache.openCursors();
            if (open != 0) {
                throw sc.fail(g + (g.closed ? ", closed," : "") + " counts " + open + " cursors open after every worker"
                    + " closed every cursor it opened" + (g.closed ? ": its page memory is never freed" : ""), null);
            }
        }
    }

    /**
     * With every worker stopped (joined: their snapshots happened before), a snapshot of the last cache, still open, may
     * be below none of the workers' last snapshots of it: its counters only go up.
     */
    private void checkStatsAtEnd(List<Worker> workers) {
        CacheGeneration g = sc.currentNow();
        StatsChecks end = new StatsChecks(sc, "driver at the end");
        end.snapshot(g, "after every worker stopped");
        for (Worker w : workers) {
            end.notBelow(w.stats.lastOf(g), "t" + w.t);
        }
    }

    /** Every cache of the scenario is closed now, and every cursor on it: their counters are final ({@link StatsChecks#atRest}). */
    private void checkStatsAtRest() {
        for (CacheGeneration g : sc.generations) {
            StatsChecks.atRest(sc, g);
        }
    }

    private void verifyThroughFreshCache() throws IOException {
        PageCache cache = PageCache.open(sc.config.cacheConfig(1_000_000));
        try {
            long moved = 0;
            for (FileModel f : sc.allFiles) {
                Path first = f.spellings.get(0);
                Path second = f.spellings.get(f.spellings.size() - 1);
                PagedFile a = cache.map(first, f.pageSize);
                PagedFile b = cache.map(second, f.pageSize);
                try {
                    if (a != b) {
                        throw sc.fail("a fresh cache mapped " + f.name + " twice, via " + first + " and " + second
                            + ", as two PagedFile objects", null);
                    }
                    if (a.getLastPageId() < f.maxAckedPageId()) {
                        throw sc.fail(f.name + " has last page id " + a.getLastPageId() + " in a fresh cache, but page "
                            + f.maxAckedPageId() + " was acknowledged", null);
                    }
                    if (f.privateOwner >= 0 && (a.getLastPageId() < f.lastPageLow() || a.getLastPageId() > f.lastPageHigh())) {
                        throw sc.fail(f.name + " has last page id " + a.getLastPageId() + " in a fresh cache, where its"
                            + " writes and truncates leave it in [" + f.lastPageLow() + ", " + f.lastPageHigh() + "]", null);
                    }
                    touchCountsNoPin(cache, f, a);
                    moved += verifyEverySlot(f, a);
                } finally {
                    b.close();
                    a.close();
                }
            }
            // One thread's cursors, each closed: every next() that moved is one hit or one fault (a fault may count again
            // where the page is evicted before the cursor pins it), and nothing else counts either
            PageCacheStats stats = cache.stats();
            if (stats.hits() > moved || stats.hits() + stats.faults() < moved) {
                throw sc.fail("a fresh cache, read through by one cursor at a time whose next() moved " + moved + " times,"
                    + " counts hits " + stats.hits() + " and faults " + stats.faults() + ": each move is one or the other", null);
            }
        } finally {
            cache.close();
        }
        // It only read, touched and reheated: closed, it wrote no page (a read or a touch that marked a page modified, or a
        // clean page written back, would show here) and every frame is free again
        PageCacheStats closed = cache.stats();
        if (closed.io().pagesWritten() != 0 || closed.bytesWritten() != 0 || closed.freeFrames() != closed.frames()) {
            throw sc.fail("a fresh cache that only read its files, closed, wrote io.pagesWritten " + closed.io().pagesWritten()
                + " (bytesWritten " + closed.bytesWritten() + ") and has " + closed.freeFrames() + " of " + closed.frames()
                + " frames free\n  " + closed, null);
        }
    }

    /**
     * A touch of the first pages of {@code f} in the fresh cache, no cursor open: it pins nothing, so it is neither a hit
     * nor a fault (PagedFile.touch), and the counts cursors published stay as they were.
     */
    private void touchCountsNoPin(PageCache cache, FileModel f, PagedFile file) throws IOException {
        PageCacheStats before = cache.stats();
        int touched = file.touch(0, 8);
        PageCacheStats after = cache.stats();
        if (after.hits() != before.hits() || after.faults() != before.faults()) {
            throw sc.fail("a touch of " + f.name + " that brought in " + touched + " pages, with no cursor open, moved hits from "
                + before.hits() + " to " + after.hits() + " and faults from " + before.faults() + " to " + after.faults()
                + ": a touch pins nothing", null);
        }
    }

    /** Judges every slot of {@code f} through {@code file}; returns how many times the cursor's {@code next()} moved. */
    private long verifyEverySlot(FileModel f, PagedFile file) throws IOException {
        long moved = 0;
        long[] words = new long[PageImage.words(f.pageSize)];
        try (PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int s = 0; s < f.slots(); s++) {
                long pageId = f.pageId(s);
                if (!c.next(pageId)) {
                    if (f.acked(s) > 0) {
                        throw sc.fail("fresh cache: " + f.describe(s) + " is past the end of the file", null);
                    }
                    continue;
                }
                moved++;
                PageImage.readValidated(c, words, null);
                long version;
                try {
                    version = PageImage.versionOf(words, f.tag, pageId);
                } catch (PageImage.DamagedPage e) {
                    throw sc.fail("fresh cache: " + f.describe(s) + " " + e.getMessage(), null);
                }
                String wrong = f.judge(s, version, f.seen(s));
                if (wrong == null && f.acked(s) == f.started(s) && version != f.acked(s)) {
                    wrong = "holds version " + version + " instead of " + f.acked(s);
                }
                if (wrong != null) {
                    throw sc.fail("fresh cache: " + f.describe(s) + " " + wrong, null);
                }
            }
        }
        return moved;
    }

    private void deleteFiles() throws IOException {
        for (FileModel f : sc.allFiles) {
            sc.spellings.delete(f.name);
        }
    }
}
