package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the page cache refuses, and how it says so. */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void negativePageIdsAreRefusedNamingTheFile() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")));
             PagedFile file = cache.map(dir.resolve("neg.db"), 8192)) {
            IllegalArgumentException io = assertThrows(IllegalArgumentException.class,
                () -> file.io(-1, PagedFile.PF_SHARED_READ_LOCK));
            assertTrue(io.getMessage().contains("pageId=-1") && io.getMessage().contains("neg.db"), io.getMessage());
            try (PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                IllegalArgumentException next = assertThrows(IllegalArgumentException.class, () -> c.next(-5));
                assertTrue(next.getMessage().contains("pageId=-5"), next.getMessage());
            }
        }
    }

    /**
     * A file with more pages than page ids (a sparse file on tmpfs or XFS may be 2^62 bytes), or a swapper that
     * counts a negative number: refused at map. Such a file once mapped, and a read-ahead scan near page 2^48 - 1
     * faulted in page 2^48, whose page key is the next file id's page 0; its fault never ended and no close succeeded.
     */
    @Test
    void aFileWithMorePagesThanTheCacheCanAddressIsRefusedAtMap() throws Exception {
        for (long pageCount : new long[] {(1L << 48) + 1, 1L << 50, Long.MAX_VALUE, -1}) {
            FileSwapperFactory files = new FileSwapperFactory();
            PageSwapperFactory counting = (file, fileId, pageSize, create) ->
                new ForwardingPageSwapper(files.create(file, fileId, pageSize, create)) {
                    @Override
                    public long pageCount() {
                        return pageCount;
                    }
                };
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")), counting)) {
                IOException e = assertThrows(IOException.class, () -> cache.map(dir.resolve("huge.db"), 8192));
                assertTrue(e.getMessage().contains("has " + pageCount + " pages") && e.getMessage().contains("huge.db"),
                    e.getMessage());
            }
        }
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")));
             PagedFile file = cache.map(dir.resolve("huge.db"), 8192)) {
            assertEquals(-1, file.getLastPageId(), "the refused maps left the file as it was");
        }
    }

    /**
     * A sparse file as long as a file can be (Long.MAX_VALUE bytes, which tmpfs allows): the file swapper's page count
     * rounded up by adding a page less one byte, which wrapped round, so the map was refused saying the file had
     * -1125899906842623 pages. It now gives the file's real count.
     */
    @Test
    void aFileOfTheLargestSizeIsRefusedWithItsRealPageCount() throws Exception {
        Path shm = Path.of("/dev/shm");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(shm)
            && java.nio.file.Files.isWritable(shm), "no writable /dev/shm (tmpfs) to make the file on");
        Path huge = java.nio.file.Files.createTempFile(shm, "ratatosk-largest", ".db");
        try {
            try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
                file.setLength(Long.MAX_VALUE);
            } catch (IOException e) {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, "/dev/shm holds no file that large here: " + e);
            }
            long pages = java.math.BigInteger.valueOf(Long.MAX_VALUE).add(java.math.BigInteger.valueOf(8191))
                .divide(java.math.BigInteger.valueOf(8192)).longValueExact();
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false")))) {
                IOException e = assertThrows(IOException.class, () -> cache.map(huge, 8192));
                assertTrue(e.getMessage().contains("has " + pages + " pages"), e.getMessage());
            }
        } finally {
            java.nio.file.Files.delete(huge);
        }
    }

    @Test
    void invalidCursorFlagsAreRefused() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")));
             PagedFile file = cache.map(dir.resolve("flags.db"), 8192)) {
            assertThrows(IllegalArgumentException.class, () -> file.io(0, 0));
            assertThrows(IllegalArgumentException.class,
                () -> file.io(0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_SHARED_WRITE_LOCK));
            assertThrows(IllegalArgumentException.class, () -> file.io(0, 1 << 10));
        }
    }

    @Test
    void aFilePageLargerThanTheCachePageIsRefused() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k")))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cache.map(dir.resolve("big.db"), 8192));
            assertTrue(e.getMessage().contains("filePageSize=8192") && e.getMessage().contains("pagecache.page_size"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> cache.map(dir.resolve("zero.db"), 0));
        }
    }

    @Test
    void mappingAMissingFileWithoutCreateIsRefused() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")))) {
            assertThrows(NoSuchFileException.class, () -> cache.map(dir.resolve("absent.db"), 8192, false));
        }
    }

    @Test
    void pinningMorePagesThanTheCacheHoldsFailsWithAClearMessageInsteadOfHanging() throws Exception {
        for (boolean evictor : new boolean[] {true, false}) {
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of(
                     "pagecache.memory", "32k", "pagecache.page_size", "8k",
                     "pagecache.evictor.enabled", String.valueOf(evictor))));
                 PagedFile file = cache.map(dir.resolve("pinned-" + evictor + ".db"), 8192)) {
                List<PageCursor> pinned = new ArrayList<>();
                try {
                    for (int p = 0; p < cache.frameCount(); p++) {
                        PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK);
                        assertTrue(c.next());
                        pinned.add(c);
                    }
                    NoEvictableFrameException e = assertTimeoutPreemptively(Duration.ofSeconds(Waits.BOUND_SECONDS), () ->
                        assertThrows(NoEvictableFrameException.class, () -> {
                            try (PageCursor extra = file.io(100, PagedFile.PF_SHARED_WRITE_LOCK)) {
                                extra.next();
                            }
                        }));
                    assertEquals(4, e.frames());
                    assertEquals(4, e.pinned());
                    assertTrue(e.getMessage().contains("all 4 frames") && e.getMessage().contains("4 by write cursors")
                        && e.getMessage().contains("pagecache.memory"), e.getMessage());
                } finally {
                    pinned.forEach(PageCursor::close);
                }
                // Once the pins are released the same fault succeeds.
                try (PageCursor extra = file.io(100, PagedFile.PF_SHARED_WRITE_LOCK)) {
                    assertTrue(extra.next());
                }
            }
        }
    }

    @Test
    void closingAFileWithAnOpenWriteCursorIsRefusedAndLosesNothing() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m")))) {
            PagedFile file = cache.map(dir.resolve("open-cursor.db"), 8192);
            PageCursor w = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK);
            assertTrue(w.next());
            w.putLong(0, 5);
            IllegalStateException e = assertThrows(IllegalStateException.class, file::close);
            assertTrue(e.getMessage().contains("write cursor"), e.getMessage());
            w.close();
            file.close();
            try (PagedFile again = cache.map(dir.resolve("open-cursor.db"), 8192); PageCursor r = again.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(r.next());
                long v;
                do {
                    v = r.getLong(0);
                } while (r.shouldRetry());
                assertEquals(5, v);
            }
        }
    }

    @Test
    void misspeltFlagsAreRefusedWithTheNearestName() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
            () -> PageCacheConfig.parse(Map.of("pagecache.memroy", "1m")));
        assertTrue(e.getMessage().contains("pagecache.memroy") && e.getMessage().contains("pagecache.memory"), e.getMessage());
    }

    @Test
    void theParserAcceptsExactlyThePoliciesThatExist() {
        assertEquals(List.copyOf(PolicyRegistry.NAMES), PageCacheFlags.POLICY.choices(),
            "pagecache.policy's accepted values must list exactly PolicyRegistry.NAMES");
    }
}
