package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.ChildJvm;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.Waits;
import io.ratatosk.pagecache.warmup.ResidentProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store growing its file under the NVM tier (write-back) crashes: the pages it grew by were evicted dirty into NVM,
 * which the crash loses, and the file on disk ends where it did. Its last profile took the file's page count from the
 * tier's swapper, which counts the dirty copies past the file's end, so the next map found the file shorter than the
 * profile said and ignored the whole profile as one of a file that shrank, with a warning. The profile now takes the
 * count of the file itself: the map after the crash reheats the hot pages the file holds, without a warning.
 */
class NvmWarmupAfterCrashTest {
    private static final int PAGE = 4096;
    private static final int FILE_PAGES = 100;
    private static final int GROWN = 200;
    /** The pages the child reads last, some of them resident when its profile is written. */
    private static final int HOT = 30;

    @TempDir
    Path dir;

    @Test
    void aCrashWhileTheFileGrowsIntoTheTierKeepsTheProfileOfThePagesTheFileHolds() throws Exception {
        Path file = dir.resolve("store.db");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false",
                "pagecache.jmx.enabled", "false"))); PagedFile paged = cache.map(file, PAGE)) {
            for (long p = 0; p < FILE_PAGES; p++) {
                write(paged, p);
            }
        }
        ChildJvm.Result child = ChildJvm.run(dir, "128m", GrowIntoTheTierThenCrash.class, file.toString());
        assertEquals(0, child.status(), child.output());
        assertEquals((long) FILE_PAGES * PAGE, Files.size(file), "the grown pages were in NVM only: " + child.output());
        long inTheFile = Arrays.stream(ResidentProfile.readFor(file).pages()).filter(p -> p < FILE_PAGES).count();
        assertTrue(inTheFile > 0, child.output());
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger("io.ratatosk.pagecache.warmup");
        Handler collect = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(collect);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "8m",
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.jmx.enabled", "false")));
                PagedFile paged = cache.map(file, PAGE, false)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
            while (cache.stats().io().pagesReheated() < inTheFile && warnings.isEmpty() && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertEquals(List.of(), warnings);
            assertEquals(inTheFile, cache.stats().io().pagesReheated(), "the profiled pages the file holds");
        } finally {
            log.removeHandler(collect);
        }
    }

    /**
     * No crash: the store grows its file under the tier and closes it. The profile, written at the unmap before the
     * flush, counts the pages on disk then, fewer than it lists (the grown pages resident at the close, whose up-to-date
     * copies were the cache's and the tier's alone); the close writes them, and the next map reheats every listed page,
     * without a warning.
     */
    @Test
    void aCleanCloseOfAFileGrownIntoTheTierReheatsThePagesItGrewBy() throws Exception {
        Path file = dir.resolve("clean.db");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false",
                "pagecache.jmx.enabled", "false"))); PagedFile paged = cache.map(file, PAGE)) {
            for (long p = 0; p < FILE_PAGES; p++) {
                write(paged, p);
            }
        }
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(128 * PAGE),
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.swap", "nvm", "pagecache.nvm.capacity",
                String.valueOf(1024 * PAGE), "pagecache.nvm.inject_latency", "false", "pagecache.jmx.enabled", "false")));
                PagedFile paged = cache.map(file, PAGE, false)) {
            for (long p = FILE_PAGES; p < FILE_PAGES + GROWN; p++) {
                write(paged, p);
            }
        }
        assertEquals((long) (FILE_PAGES + GROWN) * PAGE, Files.size(file), "the close wrote the grown pages");
        ResidentProfile profile = ResidentProfile.readFor(file);
        long grownListed = Arrays.stream(profile.pages()).filter(p -> p >= FILE_PAGES).count();
        assertTrue(grownListed > 0, "grown pages resident at the close are listed: " + profile.size() + " pages, counting "
            + profile.filePages());
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger("io.ratatosk.pagecache.warmup");
        Handler collect = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(collect);
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "8m",
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.jmx.enabled", "false")));
                PagedFile paged = cache.map(file, PAGE, false)) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (cache.stats().io().pagesReheated() < profile.size() && warnings.isEmpty()
                && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertEquals(List.of(), warnings);
            assertEquals(profile.size(), cache.stats().io().pagesReheated(), "every listed page, the grown ones too");
            for (long p : profile.pages()) {
                try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    long value;
                    do {
                        value = c.getLong(0);
                    } while (c.shouldRetry());
                    assertEquals(p, value, "page " + p);
                }
            }
        } finally {
            log.removeHandler(collect);
        }
    }

    private static void write(PagedFile paged, long pageId) throws Exception {
        try (PageCursor c = paged.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            if (!c.next()) {
                throw new AssertionError("no page " + pageId);
            }
            c.putLong(0, pageId);
        }
    }

    /**
     * Maps the store with the tier and 128 frames, grows it by {@link #GROWN} pages (evicted dirty into NVM), reads its
     * first {@link #HOT} pages until a profile lists one of them, and halts: a crash.
     */
    static final class GrowIntoTheTierThenCrash {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(128 * PAGE),
                "pagecache.page_size", String.valueOf(PAGE), "pagecache.swap", "nvm", "pagecache.nvm.capacity",
                String.valueOf(1024 * PAGE), "pagecache.nvm.inject_latency", "false", "pagecache.warmup.profile_interval",
                "1s", "pagecache.jmx.enabled", "false")));
            PagedFile paged = cache.map(file, PAGE, false);
            for (long p = FILE_PAGES; p < FILE_PAGES + GROWN; p++) {
                write(paged, p);
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            ResidentProfile profile = null;
            while (System.nanoTime() - deadline < 0) {
                for (long p = 0; p < HOT; p++) { // again each time: resident when the periodic write comes
                    try (PageCursor c = paged.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                        c.next();
                    }
                }
                try {
                    profile = ResidentProfile.readFor(file);
                } catch (Exception torn) {
                    profile = null;
                }
                if (profile != null && profile.size() > 0 && profile.pages()[0] < HOT) {
                    break;
                }
                Thread.sleep(10);
            }
            System.out.println("profile: " + (profile == null ? "none" : profile.filePages() + " file pages, "
                + profile.size() + " pages " + Arrays.toString(Arrays.copyOf(profile.pages(), Math.min(40, profile.size())))));
            System.out.flush();
            Runtime.getRuntime().halt(0); // no close: the tier's copies are lost
        }
    }
}
