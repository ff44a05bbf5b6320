package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cursor-level operations through the NVM tier, one thread, against a model of every page: writes (growing and
 * {@code PF_NO_GROW}), validated reads, reads through linked cursors, {@code copyTo} between pages, truncates that
 * cut written pages (dirty in frames, dirty or clean in NVM) and regrowth past them, flushes, touches, read-ahead
 * scans, unmap and remap. Whatever the tier holds, every read matches the model, and after close the tier holds no
 * page, passes its invariants, and the files read back without the tier match the model, length included.
 */
class NvmCursorModelTest {
    private static final int PAGE = 4096;
    private static final int FILES = 2;
    private static final int MAX_PAGE = 120;

    @TempDir
    Path dir;

    /** A page's content: the (page id, version) whose pattern it holds (after a copyTo, another page's); 0/0 never written. */
    static long content(long source, long version) {
        return source << 32 | version;
    }

    static void writePattern(PageCursor c, long source, long version) {
        int words = c.getCurrentPageSize() / Long.BYTES;
        c.putLong(0, source);
        c.putLong(8, version);
        for (int i = 2; i < words; i++) {
            c.putLong(i * Long.BYTES, PageContent.word(source, version, i));
        }
    }

    /** Writes the pattern of (pageId, version) into page {@code pageId} through a cursor of its own. */
    static void writePage(PagedFile file, long pageId, long version) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(c.next());
            writePattern(c, pageId, version);
        }
    }

    /** The content of page {@code pageId} ({@link #readPattern}), read through a cursor of its own. */
    static long readPage(PagedFile file, long pageId) throws IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next(), "page " + pageId);
            return readPattern(c, new long[file.pageSize() / Long.BYTES]);
        }
    }

    /**
     * The tier's flags as both cursor model tests draw them from {@code r}, in the order their seeds have always drawn
     * them; {@code devices} draws a device count after the capacity, as the concurrent test does.
     */
    static Map<String, String> randomTierFlags(SplittableRandom r, int frames, boolean devices) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(frames * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf((2 + r.nextInt(r.nextBoolean() ? 16 : 200)) * PAGE));
        if (devices) {
            flags.put("pagecache.nvm.devices", String.valueOf(1 + r.nextInt(2)));
        }
        flags.put("pagecache.nvm.write_policy", r.nextInt(3) == 0 ? "write-through" : "write-back");
        flags.put("pagecache.nvm.remapping", r.nextBoolean() ? "start-gap" : "none");
        flags.put("pagecache.nvm.write_aware", Boolean.toString(r.nextInt(3) == 0));
        flags.put("pagecache.nvm.prefetch", Integer.toString(r.nextBoolean() ? 0 : 1 + r.nextInt(8)));
        flags.put("pagecache.nvm.inject_latency", "false");
        flags.put("pagecache.evictor.enabled", Boolean.toString(r.nextBoolean()));
        flags.put("pagecache.warmup.enabled", "false");
        return flags;
    }

    /**
     * Reads page {@code p} into {@code words} and page {@code p + 1}, through a linked cursor, into {@code next}, in
     * one optimistic read validated by the outer cursor; no access may have been out of bounds.
     */
    static void readWithLinked(PagedFile file, long p, long[] words, long[] next, String where) throws IOException {
        try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
            assertTrue(c.next(), where);
            PageCursor l = c.openLinkedCursor(p + 1);
            assertTrue(l.next(), where);
            do {
                for (int i = 0; i < words.length; i++) {
                    words[i] = c.getLong(i * Long.BYTES);
                    next[i] = l.getLong(i * Long.BYTES);
                }
            } while (c.shouldRetry());
            assertFalse(c.checkAndClearBoundsFlag(), where);
        }
    }

    /** The content read, checked to be one whole pattern; 0 for an all-zero page. */
    static long readPattern(PageCursor c, long[] words) throws IOException {
        do {
            for (int i = 0; i < words.length; i++) {
                words[i] = c.getLong(i * Long.BYTES);
            }
        } while (c.shouldRetry());
        assertFalse(c.checkAndClearBoundsFlag());
        return decode(words, "page " + c.getCurrentPageId());
    }

    static long decode(long[] words, String what) {
        long source = words[0];
        long version = words[1];
        if (source == 0 && version == 0) {
            for (int i = 2; i < words.length; i++) {
                if (words[i] != 0) {
                    throw new AssertionError(what + " is zero in its header but not in word " + i);
                }
            }
            return 0;
        }
        for (int i = 2; i < words.length; i++) {
            if (words[i] != PageContent.word(source, version, i)) {
                throw new AssertionError(what + " holds page " + source + " version " + version + " torn at word " + i);
            }
        }
        return content(source, version);
    }

    private static final class FileModel {
        final Path path;
        final int pageSize;
        final long[] pages = new long[MAX_PAGE + 1];
        long last = -1;
        PagedFile file;

        FileModel(Path path, int pageSize) {
            this.path = path;
            this.pageSize = pageSize;
        }

        void cut(long count) {
            for (long p = count; p <= MAX_PAGE; p++) {
                pages[(int) p] = 0;
            }
            last = Math.min(last, count - 1);
        }
    }

    static java.util.stream.LongStream seeds() {
        long from = Long.getLong("ratatosk.seedFrom", 1);
        return java.util.stream.LongStream.range(from, from + Long.getLong("ratatosk.seeds", 12));
    }

    /** What a crash right now would leave: the file's own bytes, read past the cache and the tier. */
    private static void assertFileHoldsTheModel(FileModel f, String where) throws IOException {
        byte[] bytes = Files.readAllBytes(f.path);
        assertEquals((f.last + 1) * f.pageSize, bytes.length, where + ": file length");
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.nativeOrder());
        long[] words = new long[f.pageSize / Long.BYTES];
        for (long p = 0; p <= f.last; p++) {
            for (int i = 0; i < words.length; i++) {
                words[i] = buffer.getLong((int) (p * f.pageSize) + i * Long.BYTES);
            }
            assertEquals(f.pages[(int) p], decode(words, where + " page " + p), where + " page " + p);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.MethodSource("seeds")
    void everyCursorOperationThroughTheTierMatchesTheModelAndSurvivesClose(long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        int frames = 8 + r.nextInt(9);
        Map<String, String> flags = randomTierFlags(r, frames, false);
        String described = "seed " + seed + " " + flags;

        FileModel[] files = new FileModel[FILES];
        for (int i = 0; i < FILES; i++) {
            int[] odd = {PAGE / 2, PAGE / 4, 4095, 1000, 24, 16};
            files[i] = new FileModel(dir.resolve("f" + i + ".db"), i == 0 ? PAGE : odd[r.nextInt(odd.length)]);
        }
        NvmSwapStore tier;
        StringBuilder log = new StringBuilder();
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags))) {
            tier = (NvmSwapStore) cache.tier();
            for (FileModel f : files) {
                f.file = cache.map(f.path, f.pageSize);
            }
            long version = 0;
            for (int op = 0; op < 1500; op++) {
                FileModel f = files[r.nextInt(FILES)];
                long[] words = new long[f.pageSize / Long.BYTES];
                int kind = r.nextInt(100);
                long p = r.nextInt(MAX_PAGE + 1);
                String where = described + " op " + op + " on " + f.path.getFileName() + " page " + p + "; ops " + log;
                if (kind < 35) {
                    version++;
                    boolean noGrow = r.nextInt(4) == 0;
                    log.append(noGrow ? " nogrow" : " write").append(p);
                    try (PageCursor c = f.file.io(p, PagedFile.PF_SHARED_WRITE_LOCK | (noGrow ? PagedFile.PF_NO_GROW : 0))) {
                        boolean moved = c.next();
                        if (noGrow && p > f.last) {
                            assertFalse(moved, where);
                            continue;
                        }
                        assertTrue(moved, where);
                        writePattern(c, p, version);
                    }
                    f.pages[(int) p] = content(p, version);
                    f.last = Math.max(f.last, p);
                } else if (kind < 60) {
                    log.append(" read").append(p);
                    try (PageCursor c = f.file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                        boolean moved = c.next();
                        assertEquals(p <= f.last, moved, where);
                        if (moved) {
                            assertEquals(f.pages[(int) p], readPattern(c, words), where);
                        }
                    }
                } else if (kind < 67) {
                    log.append(" linked").append(p);
                    if (p + 1 > f.last) {
                        continue;
                    }
                    long[] next = new long[words.length];
                    readWithLinked(f.file, p, words, next, where);
                    assertEquals(f.pages[(int) p], decode(words, where), where);
                    assertEquals(f.pages[(int) p + 1], decode(next, where + " (linked)"), where);
                } else if (kind < 74) {
                    long to = r.nextInt(MAX_PAGE + 1);
                    log.append(" copy").append(p).append('>').append(to);
                    if (p > f.last || p == to) { // a read cursor on the page a write cursor holds never validates
                        continue;
                    }
                    try (PageCursor from = f.file.io(p, PagedFile.PF_SHARED_READ_LOCK);
                         PageCursor target = f.file.io(to, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(target.next(), where);
                        assertTrue(from.next(), where);
                        do {
                            assertEquals(f.pageSize, from.copyTo(0, target, 0, f.pageSize), where);
                        } while (from.shouldRetry());
                    }
                    f.pages[(int) to] = f.pages[(int) p];
                    f.last = Math.max(f.last, to);
                } else if (kind < 80) {
                    long count = r.nextInt((int) Math.min(MAX_PAGE + 1, f.last + 3));
                    log.append(" truncate").append(count);
                    f.file.truncate(count);
                    f.cut(count);
                    assertEquals(f.last, f.file.getLastPageId(), where);
                } else if (kind < 84) {
                    log.append(" flush");
                    f.file.flush();
                    assertFileHoldsTheModel(f, where + " (the file itself, right after the flush)");
                } else if (kind < 88) {
                    log.append(" touch").append(p);
                    f.file.touch(p, 1 + r.nextInt(8));
                } else if (kind < 92) {
                    log.append(" scan");
                    try (PageCursor c = f.file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_READ_AHEAD)) {
                        for (long q = 0; q <= f.last; q++) {
                            assertTrue(c.next(), where + " scan page " + q);
                            assertEquals(f.pages[(int) q], readPattern(c, words), where + " scan page " + q);
                        }
                        assertFalse(c.next(), where + " scan past the end");
                    }
                } else {
                    log.append(" remap");
                    f.file.close();
                    f.file = cache.map(f.path, f.pageSize);
                    assertEquals(f.last, f.file.getLastPageId(), where + " after remap");
                }
                if (log.length() > 600) {
                    log.delete(0, log.length() - 600);
                }
            }
            for (FileModel f : files) {
                f.file.close();
            }
        }
        tier.checkInvariants();
        assertEquals(0, tier.stats().residentPages(), described + ": the tier holds no page after close");
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(plain)) {
            for (FileModel f : files) {
                assertEquals((f.last + 1) * f.pageSize, Files.size(f.path), described + ": length of " + f.path);
                long[] words = new long[f.pageSize / Long.BYTES];
                try (PagedFile file = cache.map(f.path, f.pageSize, false);
                     PageCursor c = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                    for (long q = 0; q <= f.last; q++) {
                        assertTrue(c.next());
                        assertEquals(f.pages[(int) q], readPattern(c, words), described + ": " + f.path + " page " + q
                            + " after reopening without the tier; model " + Arrays.toString(f.pages));
                    }
                }
            }
        }
    }
}
