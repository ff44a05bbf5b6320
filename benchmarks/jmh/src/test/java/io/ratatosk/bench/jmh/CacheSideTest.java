package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both sides behind {@link CacheSide} do the same thing with the same file: what the benchmarks rely on. */
class CacheSideTest {
    @ParameterizedTest
    @ValueSource(strings = {CacheSide.RATATOSK, CacheSide.MUNINN})
    void aFileThatFitsIsReadOnceAndThenServedFromTheCache(String side) throws IOException {
        try (BenchFile file = BenchFile.create(64);
             CacheSide cache = CacheSide.open(side, file.path(), 128, "muninn", true);
             CacheSide.Cursor cursor = cache.readCursor()) {
            for (int round = 0; round < 3; round++) {
                for (long page = 0; page < file.pages(); page++) {
                    assertEquals(BenchFile.expected(page, PageOps.slotOf(page)), PageOps.read(cursor, page));
                }
            }
            assertEquals(64, cache.pagesRead(), "each page read from the file exactly once");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {CacheSide.RATATOSK, CacheSide.MUNINN})
    void writesReachTheFileWhenTheCacheCloses(String side) throws IOException {
        try (BenchFile file = BenchFile.create(16)) {
            try (CacheSide cache = CacheSide.open(side, file.path(), 32, "muninn", true);
                 CacheSide.Cursor writer = cache.writeCursor()) {
                assertTrue(writer.next(7));
                writer.putLong(8 * 5, 4242L);
                PageOps.write(writer, 3); // rewrites what page 3 holds: stays checkable
            }
            try (CacheSide cache = CacheSide.open(side, file.path(), 32, "muninn", true);
                 CacheSide.Cursor reader = cache.readCursor()) {
                assertTrue(reader.next(7));
                long v;
                do {
                    v = reader.getLong(8 * 5);
                } while (reader.shouldRetry());
                assertEquals(4242L, v);
                PageOps.read(reader, 3);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {CacheSide.RATATOSK, CacheSide.MUNINN})
    void aFileFourTimesTheCacheFaultsAndEvictsWithTheEvictorOnOrOff(String side) throws IOException {
        for (boolean evictor : new boolean[] {true, false}) {
            // 1024 frames, so that the free pool the evictor keeps (5% of the frames) costs little capacity;
            // in a cache of 64 frames keep_free is 30 and the hit ratio of 4x the cache is nearer 1/5.
            try (BenchFile file = BenchFile.create(4096);
                 CacheSide cache = CacheSide.open(side, file.path(), 1024, "muninn", evictor);
                 CacheSide.Cursor cursor = cache.readCursor()) {
                PageIds ids = PageIds.uniform(file.pages(), 1);
                int reads = 40_000;
                for (int i = 0; i < reads; i++) {
                    PageOps.read(cursor, ids.next());
                }
                double hitRatio = 1.0 - (double) cache.pagesRead() / reads;
                assertEquals(0.25, hitRatio, 0.05, side + " evictor=" + evictor + ": uniform over 4x the cache hits about 1/4");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {CacheSide.RATATOSK, CacheSide.MUNINN})
    void readingPastTheEndIsAnError(String side) throws IOException {
        try (BenchFile file = BenchFile.create(4);
             CacheSide cache = CacheSide.open(side, file.path(), 8, "muninn", true);
             CacheSide.Cursor cursor = cache.readCursor()) {
            assertThrows(IllegalStateException.class, () -> PageOps.read(cursor, 4));
        }
    }

    @Test
    void withTheNvmTierFaultsOfPagesEvictedOnceAreSwapInsNotFileReads() throws IOException {
        int frames = 256;
        try (BenchFile file = BenchFile.create(4 * frames);
             CacheSide cache = CacheSide.open(CacheSide.RATATOSK, file.path(), frames, "muninn", false,
                 NvmSwapBenchmark.flags("nvm-dram", file.pages()))) {
            try (CacheSide.Cursor cursor = cache.readCursor()) {
                for (long page = 0; page < file.pages(); page++) {
                    PageOps.read(cursor, page);
                }
                assertEquals(file.pages(), cache.pagesRead(), "the first pass reads the file");
                assertEquals(0, cache.swapIns());
                PageIds ids = PageIds.uniform(file.pages(), 1);
                for (int i = 0; i < 10_000; i++) {
                    PageOps.read(cursor, ids.next()); // checks every value NVM returned
                }
            }
            assertEquals(file.pages(), cache.pagesRead(), "no page is read from the file twice");
            assertTrue(cache.swapIns() > 5_000, "about 3/4 of 10 000 uniform reads fault, from NVM: " + cache.swapIns());
            assertEquals(faults(cache), cache.pagesRead() + cache.swapIns(), "every fault is one or the other");
        }
    }

    @Test
    void withTheFileTierEveryFaultReadsTheFile() throws IOException {
        try (BenchFile file = BenchFile.create(64);
             CacheSide cache = CacheSide.open(CacheSide.RATATOSK, file.path(), 16, "muninn", false,
                 NvmSwapBenchmark.flags(NvmSwapBenchmark.FILE, file.pages()))) {
            try (CacheSide.Cursor cursor = cache.readCursor()) {
                for (int round = 0; round < 2; round++) {
                    for (long page = 0; page < file.pages(); page++) {
                        PageOps.read(cursor, page);
                    }
                }
            }
            assertTrue(cache.pagesRead() > 100, "a file 4x the cache read twice in order mostly misses: " + cache.pagesRead());
            assertEquals(faults(cache), cache.pagesRead());
            assertEquals(0, cache.swapIns());
        }
    }

    /** Our cache's fault count: published by the cursors when they close. */
    private static long faults(CacheSide cache) {
        return ((RatatoskSide) cache).cache().stats().faults();
    }

    /** A slot PageOps does not read on pages 0 to 63 (it reads slot pageId). */
    private static final int SLOT = 100;

    @Test
    void pagesWrittenThroughTheNvmTierReachTheFileWhenTheCacheCloses() throws IOException {
        try (BenchFile file = BenchFile.create(64)) {
            try (CacheSide cache = CacheSide.open(CacheSide.RATATOSK, file.path(), 16, "muninn", false,
                     NvmSwapBenchmark.flags("nvm-dram", file.pages()));
                 CacheSide.Cursor writer = cache.writeCursor()) {
                for (long page = 0; page < file.pages(); page++) {
                    assertTrue(writer.next(page));
                    writer.putLong(8 * SLOT, 4242L + page); // evicted dirty into NVM, written back to the file at close
                }
            }
            try (CacheSide cache = CacheSide.open(CacheSide.RATATOSK, file.path(), 16, "muninn", false);
                 CacheSide.Cursor reader = cache.readCursor()) {
                for (long page = 0; page < file.pages(); page++) {
                    assertTrue(reader.next(page));
                    long v;
                    do {
                        v = reader.getLong(8 * SLOT);
                    } while (reader.shouldRetry());
                    assertEquals(4242L + page, v, "page " + page);
                    PageOps.read(reader, page); // the rest of the page is as BenchFile wrote it
                }
            }
        }
    }

    @Test
    void flagsThatWouldMakeTheSidesDifferAreRefused() throws IOException {
        try (BenchFile file = BenchFile.create(4)) {
            IllegalArgumentException peer = assertThrows(IllegalArgumentException.class,
                () -> CacheSide.open(CacheSide.MUNINN, file.path(), 8, "muninn", true, Map.of("pagecache.swap", "nvm")));
            assertTrue(peer.getMessage().contains("pagecache.swap"), peer.getMessage());
            IllegalArgumentException geometry = assertThrows(IllegalArgumentException.class,
                () -> CacheSide.open(CacheSide.RATATOSK, file.path(), 8, "muninn", true, Map.of("pagecache.memory", "1m")));
            assertEquals("pagecache.memory is set from the benchmark's geometry, policy and evictor parameters, not as"
                + " a further flag: pagecache.memory=1m", geometry.getMessage());
        }
        IllegalArgumentException tier = assertThrows(IllegalArgumentException.class, () -> NvmSwapBenchmark.flags("optane", 4));
        assertEquals("tier must be file or nvm-<profile>, one of [file, nvm-nvme, nvm-nvme-fast, nvm-pcm, nvm-dram]:"
            + " tier=optane", tier.getMessage());
    }
}
