package io.ratatosk.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
}
