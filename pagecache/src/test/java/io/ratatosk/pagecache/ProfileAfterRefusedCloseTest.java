package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.warmup.ResidentProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file whose close was refused (a write cursor held one of its pages) stays mapped, and its resident-page profile is
 * written by the periodic write as any mapped file's. The warmer took the refused close for an unmap under way and
 * skipped the file's periodic writes until its next close, so a restart after a crash reheated the pages resident at
 * the refused close, not those resident since.
 */
class ProfileAfterRefusedCloseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aFileWhoseCloseWasRefusedHasItsProfileWrittenPeriodicallyAgain() throws Exception {
        Path path = dir.resolve("store.db");
        try (PageCache writing = PageCache.open(config(false)); PagedFile file = writing.map(path, PAGE)) {
            write(file, 0, 20); // no profile: nothing is reheated below
        }
        try (PageCache cache = PageCache.open(config(true))) {
            PagedFile file = cache.map(path, PAGE);
            read(file, 0, 5);
            try (PageCursor writer = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(writer.next());
                assertThrows(IllegalStateException.class, file::close, "a write cursor holds page 0");
            }
            assertFalse(file.mapping().isClosed(), "the refused close left the file mapped");
            read(file, 5, 15); // 15 pages resident now
            cache.warmer().writeProfiles(); // the periodic write
            assertEquals(15, ResidentProfile.readFor(path).size(), "the profile of the pages resident now");
            file.close();
        }
    }

    private static PageCacheConfig config(boolean warmup) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size", "4k", "pagecache.jmx.enabled",
            "false", "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", String.valueOf(warmup)));
    }

    private static void write(PagedFile file, long from, long to) throws IOException {
        for (long p = from; p < to; p++) {
            try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(c.next());
                c.putLong(0, p);
            }
        }
    }

    private static void read(PagedFile file, long from, long to) throws IOException {
        for (long p = from; p < to; p++) {
            try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
            }
        }
    }
}
