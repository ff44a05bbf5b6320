package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.NoEvictableFrameException;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cursor misuse with the NVM tier between frames and files, where a page's newest copy may be in NVM: cursors
 * held across a refused or a successful close, across an unmap, across a refused truncate; cursors handed to
 * another thread; more pages pinned than there are frames. Nothing is lost, nothing stays pinned, and the tier
 * holds no page once the cache is closed.
 */
class NvmCursorMisuseTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 8;
    private static final int PAGES = 48;

    @TempDir
    Path dir;

    private static PageCacheConfig config(String writePolicy) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(FRAMES * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(64 * PAGE));
        flags.put("pagecache.nvm.write_policy", writePolicy);
        flags.put("pagecache.nvm.inject_latency", "false");
        flags.put("pagecache.evictor.enabled", "false");
        flags.put("pagecache.warmup.enabled", "false");
        return PageCacheConfig.parse(flags);
    }



    /** Writes every page twice, so that NVM holds copies (dirty ones under write-back) of most of them. */
    private static void fill(PagedFile file, long version) throws IOException {
        for (long v = version - 1; v <= version; v++) {
            for (long p = 0; p < PAGES; p++) {
                NvmCursorModelTest.writePage(file, p, v);
            }
        }
    }

    private static int inTier(NvmSwapStore tier, PagedFile file) {
        int n = 0;
        for (long p = 0; p < PAGES; p++) {
            n += tier.contains(PageCacheInternals.fileId(file), p) ? 1 : 0;
        }
        return n;
    }

    private void verifyWithoutTier(Path path, long pages, long version, long changedPage, long changedVersion)
        throws IOException {
        assertEquals(pages * PAGE, Files.size(path), path.toString());
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false"));
        try (PageCache cache = PageCache.open(plain); PagedFile file = cache.map(path, PAGE, false)) {
            for (long p = 0; p < pages; p++) {
                long v = p == changedPage ? changedVersion : version;
                assertEquals(NvmCursorModelTest.content(p, v), NvmCursorModelTest.readPage(file, p), path + " page " + p);
            }
        }
    }

    private static void assertTierEmpty(NvmSwapStore tier) {
        tier.checkInvariants();
        assertEquals(0, tier.stats().residentPages(), "the tier holds no page after close");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void aCloseRefusedForAPinnedWriteCursorLosesNothingAndTheRetriedCloseEmptiesTheTier(String writePolicy)
        throws IOException {
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        PageCache cache = PageCache.open(config(writePolicy));
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile fa = cache.map(a, PAGE);
        PagedFile fb = cache.map(b, PAGE);
        fill(fa, 2);
        fill(fb, 2);
        assertTrue(inTier(tier, fa) + inTier(tier, fb) > 0, "pages went into NVM");
        PageCursor held = fb.io(7, PagedFile.PF_SHARED_WRITE_LOCK);
        assertTrue(held.next());
        NvmCursorModelTest.writePattern(held, 7, 3);
        assertThrows(IllegalStateException.class, cache::close);
        NvmCursorModelTest.writePattern(held, 7, 4); // the file stays mapped: the cursor still works
        held.close();
        assertEquals(NvmCursorModelTest.content(7, 4), NvmCursorModelTest.readPage(fb, 7));
        assertEquals(NvmCursorModelTest.content(30, 2), NvmCursorModelTest.readPage(fb, 30));
        cache.close();
        assertTierEmpty(tier);
        verifyWithoutTier(a, PAGES, 2, -1, 0);
        verifyWithoutTier(b, PAGES, 2, 7, 4);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void cursorsHeldAcrossCloseThrowOnTheirNextMoveAndPinNothing(String writePolicy) throws IOException {
        Path a = dir.resolve("a.db");
        PageCache cache = PageCache.open(config(writePolicy));
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(a, PAGE);
        fill(file, 2);
        PageCursor reader = file.io(3, PagedFile.PF_SHARED_READ_LOCK);
        assertTrue(reader.next());
        long[] words = new long[PAGE / Long.BYTES];
        assertEquals(NvmCursorModelTest.content(3, 2), NvmCursorModelTest.readPattern(reader, words));
        PageCursor unpinnedWriter = file.io(PAGES + 5, PagedFile.PF_SHARED_WRITE_LOCK | PagedFile.PF_NO_GROW);
        assertFalse(unpinnedWriter.next());
        cache.close();
        assertTierEmpty(tier);
        assertThrows(IllegalStateException.class, reader::shouldRetry);
        assertThrows(IllegalStateException.class, reader::next);
        assertThrows(IllegalStateException.class, unpinnedWriter::next);
        assertThrows(IllegalStateException.class, () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK));
        reader.close();
        unpinnedWriter.close();
        assertEquals(0, cache.openCursors());
        verifyWithoutTier(a, PAGES, 2, -1, 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void aReadCursorOnAnUnmappedFileThrowsAndTheRemappedFileReadsTheNewestCopies(String writePolicy)
        throws IOException {
        Path a = dir.resolve("a.db");
        try (PageCache cache = PageCache.open(config(writePolicy))) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            PagedFile file = cache.map(a, PAGE);
            fill(file, 2);
            PageCursor reader = file.io(0, PagedFile.PF_SHARED_READ_LOCK);
            assertTrue(reader.next());
            file.close();
            assertEquals(0, inTier(tier, file), "the unmapped file's copies left the tier");
            assertThrows(IllegalStateException.class, reader::shouldRetry);
            assertThrows(IllegalStateException.class, () -> reader.next(5));
            reader.close();
            try (PagedFile again = cache.map(a, PAGE)) {
                for (long p = 0; p < PAGES; p++) {
                    assertEquals(NvmCursorModelTest.content(p, 2), NvmCursorModelTest.readPage(again, p), "page " + p);
                }
            }
            tier.checkInvariants();
        }
        verifyWithoutTier(a, PAGES, 2, -1, 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void aTruncateRefusedForAWriteCursorChangesNothingInFramesTierOrFile(String writePolicy) throws IOException {
        Path a = dir.resolve("a.db");
        PageCache cache = PageCache.open(config(writePolicy));
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(a, PAGE);
        fill(file, 2);
        int before = inTier(tier, file);
        assertTrue(before > 0);
        try (PageCursor held = file.io(PAGES - 1, PagedFile.PF_SHARED_WRITE_LOCK)) {
            assertTrue(held.next());
            assertThrows(IllegalStateException.class, () -> file.truncate(10));
            assertEquals(PAGES - 1, file.getLastPageId());
            assertEquals(before, inTier(tier, file), "the refused truncate dropped nothing from the tier");
            NvmCursorModelTest.writePattern(held, PAGES - 1, 3);
        }
        for (long p = 0; p < PAGES; p++) {
            assertEquals(NvmCursorModelTest.content(p, p == PAGES - 1 ? 3 : 2), NvmCursorModelTest.readPage(file, p), "page " + p);
        }
        cache.close();
        assertTierEmpty(tier);
        verifyWithoutTier(a, PAGES, 2, PAGES - 1, 3);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void cursorsHandedToOtherThreadsKeepTheirPagesAndLoseNothing(String writePolicy) throws Exception {
        Path a = dir.resolve("a.db");
        PageCache cache = PageCache.open(config(writePolicy));
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(a, PAGE);
        fill(file, 2);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            for (long p = 0; p < PAGES; p += 3) {
                long page = p;
                // opened here, moved and written there, closed here; then opened there and closed here
                PageCursor w = file.io(page, PagedFile.PF_SHARED_WRITE_LOCK);
                other.submit(() -> {
                    assertTrue(w.next());
                    NvmCursorModelTest.writePattern(w, page, 3);
                    return null;
                }).get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                w.close();
                PageCursor r = other.submit(() -> file.io(page, PagedFile.PF_SHARED_READ_LOCK)).get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
                assertTrue(r.next());
                assertEquals(NvmCursorModelTest.content(page, 3), NvmCursorModelTest.readPattern(r, new long[PAGE / 8]));
                other.submit(r::close).get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            other.shutdownNow();
        }
        assertEquals(0, cache.openCursors());
        cache.close();
        assertTierEmpty(tier);
        PageCacheConfig plain = PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE),
            "pagecache.page_size", String.valueOf(PAGE), "pagecache.warmup.enabled", "false"));
        try (PageCache again = PageCache.open(plain); PagedFile f = again.map(a, PAGE, false)) {
            for (long p = 0; p < PAGES; p++) {
                assertEquals(NvmCursorModelTest.content(p, p % 3 == 0 ? 3 : 2), NvmCursorModelTest.readPage(f, p), "page " + p);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write-back", "write-through"})
    void moreWriteCursorsThanFramesFailTheFaultThatFindsNoFrameAndLeaveTheRestIntact(String writePolicy)
        throws IOException {
        Path a = dir.resolve("a.db");
        PageCache cache = PageCache.open(config(writePolicy));
        NvmSwapStore tier = (NvmSwapStore) cache.tier();
        PagedFile file = cache.map(a, PAGE);
        fill(file, 2);
        List<PageCursor> held = new ArrayList<>();
        try {
            for (long p = 0; p < FRAMES; p++) {
                PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK);
                held.add(c);
                assertTrue(c.next());
                NvmCursorModelTest.writePattern(c, p, 3);
            }
            PageCursor one = file.io(FRAMES + 1, PagedFile.PF_SHARED_WRITE_LOCK);
            held.add(one);
            assertThrows(NoEvictableFrameException.class, one::next);
            PageCursor reader = file.io(FRAMES + 2, PagedFile.PF_SHARED_READ_LOCK);
            held.add(reader);
            assertThrows(NoEvictableFrameException.class, reader::next);
        } finally {
            for (PageCursor c : held) {
                c.close();
            }
        }
        assertEquals(0, cache.openCursors());
        for (long p = 0; p < PAGES; p++) {
            assertEquals(NvmCursorModelTest.content(p, p < FRAMES ? 3 : 2), NvmCursorModelTest.readPage(file, p), "page " + p);
        }
        cache.close();
        assertTierEmpty(tier);
    }
}
