package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cursor operations of several threads at once through the NVM tier: each thread owns a range of pages of each
 * file (so its own model is exact), writes, reads, reads through linked cursors, copies between its pages, flushes,
 * touches and scans with read-ahead, while the thread owning the last range also truncates into it and grows it
 * again. Every read matches the owner's model; after close the tier is empty and consistent and the files hold
 * exactly the model.
 */
class NvmConcurrentCursorTest {
    private static final int PAGE = 4096;
    private static final int THREADS = 4;
    private static final int RANGE = 24;
    private static final int FILES = 2;

    @TempDir
    Path dir;

    static LongStream seeds() {
        long from = Long.getLong("ratatosk.seedFrom", 1);
        return LongStream.range(from, from + Long.getLong("ratatosk.seeds", 6));
    }

    private static final class Owned {
        final long[][] pages = new long[FILES][RANGE];
        /** For the last range only: the file's last page as this thread made it. */
        final long[] last = new long[FILES];
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void concurrentCursorsThroughTheTierNeverLoseTearOrMisplaceAPage(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        int frames = 8 + r.nextInt(17);
        Map<String, String> flags = NvmCursorModelTest.randomTierFlags(r, frames, true);
        String described = "seed " + seed + " " + flags;
        Path[] paths = new Path[FILES];
        int[] pageSizes = new int[FILES];
        for (int i = 0; i < FILES; i++) {
            paths[i] = dir.resolve("c" + i + ".db");
            pageSizes[i] = i == 0 ? PAGE : PAGE / 2;
        }
        Owned[] owned = new Owned[THREADS];
        NvmSwapStore tier;
        long version0 = 1;
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            tier = (NvmSwapStore) cache.tier();
            PagedFile[] files = new PagedFile[FILES];
            for (int i = 0; i < FILES; i++) {
                files[i] = cache.map(paths[i], pageSizes[i]);
                try (PageCursor c = files[i].io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    for (long p = 0; p < (long) THREADS * RANGE; p++) {
                        assertTrue(c.next());
                        NvmCursorModelTest.writePattern(c, p, version0);
                    }
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    Owned mine = owned[t] = new Owned();
                    for (int i = 0; i < FILES; i++) {
                        for (int k = 0; k < RANGE; k++) {
                            mine.pages[i][k] = NvmCursorModelTest.content((long) thread * RANGE + k, version0);
                        }
                        mine.last[i] = (long) THREADS * RANGE - 1;
                    }
                    long threadSeed = r.nextLong();
                    futures.add(pool.submit(() -> {
                        work(thread, files, mine, new SplittableRandom(threadSeed), described + " thread " + thread);
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get(2 * Waits.BOUND_SECONDS, TimeUnit.SECONDS); // 800 operations, not one wait
                }
            } finally {
                pool.shutdownNow();
            }
            for (PagedFile f : files) {
                f.close();
            }
        }
        tier.checkInvariants();
        assertEquals(0, tier.stats().residentPages(), described + ": the tier holds no page after close");
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(plain)) {
            for (int i = 0; i < FILES; i++) {
                long last = owned[THREADS - 1].last[i];
                assertEquals((last + 1) * pageSizes[i], Files.size(paths[i]), described + ": length of " + paths[i]);
                long[] words = new long[pageSizes[i] / Long.BYTES];
                try (PagedFile file = cache.map(paths[i], pageSizes[i], false);
                     PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                    for (long q = 0; q <= last; q++) {
                        assertTrue(c.next());
                        long expected = owned[(int) (q / RANGE)].pages[i][(int) (q % RANGE)];
                        assertEquals(expected, NvmCursorModelTest.readPattern(c, words),
                            described + ": " + paths[i] + " page " + q + " after reopening without the tier");
                    }
                }
            }
        }
    }

    private static void work(int thread, PagedFile[] files, Owned mine, SplittableRandom r, String described)
        throws IOException {
        long base = (long) thread * RANGE;
        boolean top = thread == THREADS - 1;
        long version = 1;
        for (int op = 0; op < 800; op++) {
            int i = r.nextInt(FILES);
            PagedFile f = files[i];
            long[] model = mine.pages[i];
            long[] words = new long[f.pageSize() / Long.BYTES];
            int k = r.nextInt(RANGE);
            long p = base + k;
            String where = described + " op " + op + " file " + i + " page " + p;
            int kind = r.nextInt(100);
            if (top && p > mine.last[i] && kind < 60) {
                kind = 0; // a page truncated away: grow the file again
            }
            if (kind < 35) {
                version++;
                try (PageCursor c = f.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(c.next(), where);
                    NvmCursorModelTest.writePattern(c, p, version);
                }
                model[k] = NvmCursorModelTest.content(p, version);
                if (top && p > mine.last[i]) {
                    for (long q = mine.last[i] + 1; q < p; q++) {
                        model[(int) (q - base)] = 0; // holes between the old end and the new page
                    }
                    mine.last[i] = p;
                }
            } else if (kind < 60) {
                try (PageCursor c = f.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next(), where);
                    assertEquals(model[k], NvmCursorModelTest.readPattern(c, words), where);
                }
            } else if (kind < 68) {
                if (k + 1 >= RANGE || (top && p + 1 > mine.last[i])) {
                    continue;
                }
                long[] next = new long[words.length];
                NvmCursorModelTest.readWithLinked(f, p, words, next, where);
                assertEquals(model[k], NvmCursorModelTest.decode(words, where), where);
                assertEquals(model[k + 1], NvmCursorModelTest.decode(next, where + " (linked)"), where);
            } else if (kind < 76) {
                int to = r.nextInt(RANGE);
                if (to == k || (top && (p > mine.last[i] || base + to > mine.last[i]))) {
                    continue;
                }
                try (PageCursor from = f.io(p, PagedFile.PF_SHARED_READ_LOCK);
                     PageCursor target = f.io(base + to, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(target.next(), where);
                    assertTrue(from.next(), where);
                    do {
                        assertEquals(f.pageSize(), from.copyTo(0, target, 0, f.pageSize()), where);
                    } while (from.shouldRetry());
                }
                model[to] = model[k];
            } else if (kind < 82) {
                if (top) {
                    long count = base + r.nextInt(RANGE + 1);
                    f.truncate(count);
                    for (long q = count; q < base + RANGE; q++) {
                        model[(int) (q - base)] = 0;
                    }
                    mine.last[i] = Math.min(mine.last[i], count - 1);
                } else {
                    f.flush();
                    assertOwnPagesInTheFile(f, i, base, model, where + " (the file itself, right after this thread's flush)");
                }
            } else if (kind < 88) {
                f.touch(p, 1 + r.nextInt(6));
            } else if (kind < 92) {
                long end = top ? Math.min(base + RANGE - 1, mine.last[i]) : base + RANGE - 1;
                try (PageCursor c = f.io(base, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                    for (long q = base; q <= end; q++) {
                        assertTrue(c.next(), where + " scan page " + q);
                        assertEquals(model[(int) (q - base)], NvmCursorModelTest.readPattern(c, words), where + " scan page " + q);
                    }
                }
            } else {
                f.flush();
                if (!top) {
                    assertOwnPagesInTheFile(f, i, base, model, where + " (the file itself, right after this thread's flush)");
                }
            }
        }
    }

    /**
     * What a crash right after a flush would leave of this thread's pages, all written before it began: the file's
     * own bytes, read past the cache and the tier, while other threads go on evicting into NVM and flushing.
     */
    private static void assertOwnPagesInTheFile(PagedFile f, int file, long base, long[] model, String where)
        throws IOException {
        int pageSize = f.pageSize();
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(RANGE * pageSize).order(java.nio.ByteOrder.nativeOrder());
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(f.path())) {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, base * pageSize + buffer.position()) < 0) {
                    break;
                }
            }
        }
        long[] words = new long[pageSize / Long.BYTES];
        for (int k = 0; k < RANGE; k++) {
            for (int w = 0; w < words.length; w++) {
                int at = k * pageSize + w * Long.BYTES;
                words[w] = at + Long.BYTES <= buffer.position() ? buffer.getLong(at) : 0;
            }
            assertEquals(model[k], NvmCursorModelTest.decode(words, where + " page " + (base + k)),
                where + " file " + file + " page " + (base + k));
        }
    }
}
