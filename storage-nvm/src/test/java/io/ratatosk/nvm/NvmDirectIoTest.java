package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.nio.file.ExtendedOpenOption;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageContent;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVM tier's file side honours {@code pagecache.io=direct}: pages that went from the frames into NVM
 * and from NVM into the file (through O_DIRECT, from NVM slots that are not block-aligned) come back
 * intact, and a page size direct IO cannot use is refused at map. Skipped where the temporary folder's
 * file system refuses O_DIRECT.
 */
class NvmDirectIoTest {
    private static final int PAGE = 4096;
    private static final long[] BODY = new long[PageContent.bodyWords(PAGE)];

    @TempDir
    Path dir;

    @BeforeEach
    void requireDirectIo() throws IOException {
        Path probe = dir.resolve("probe");
        Files.write(probe, new byte[0]);
        try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            assumeTrue(Files.getFileStore(probe).getBlockSize() <= PAGE, "block size above the 4k page size");
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "the file system of " + dir + " refuses O_DIRECT: " + e);
        }
    }

    private static PageCacheConfig config(String io) {
        return PageCacheConfig.parse(Map.of("pagecache.memory", String.valueOf(16 * PAGE), "pagecache.page_size",
            String.valueOf(PAGE), "pagecache.swap", "nvm", "pagecache.nvm.capacity", String.valueOf(32 * PAGE),
            "pagecache.nvm.inject_latency", "false", "pagecache.io", io, "pagecache.jmx.enabled", "false"));
    }

    @Test
    void pagesThatWentThroughNvmIntoTheFileComeBack() throws IOException {
        Path path = dir.resolve("nvm-direct.db");
        int pages = 200; // 16 frames, 32 NVM slots: most pages leave NVM into the file
        try (PageCache cache = PageCache.open(config("direct")); PagedFile file = cache.map(path, PAGE)) {
            for (int round = 0; round < 2; round++) {
                for (long p = 0; p < pages; p++) {
                    try (PageCursor c = file.io(p, PagedFile.PF_SHARED_WRITE_LOCK)) {
                        assertTrue(c.next());
                        PageContent.write(c, p, round);
                    }
                }
            }
            assertTrue(cache.stats().nvm().writeBacks() > 0, "no page went from NVM into the file: " + cache.stats());
        }
        try (PageCache cache = PageCache.open(config("direct")); PagedFile file = cache.map(path, PAGE, false)) {
            for (long p = 0; p < pages; p++) {
                try (PageCursor c = file.io(p, PagedFile.PF_SHARED_READ_LOCK)) {
                    assertTrue(c.next());
                    assertEquals(1, PageContent.readValidated(c, p, BODY), "page " + p);
                }
            }
        }
    }

    @Test
    void aPageSizeDirectIoCannotUseIsRefusedThroughTheTier() throws IOException {
        assumeTrue(Files.getFileStore(dir).getBlockSize() > 512, "a block size of 512 divides every page size");
        Path path = dir.resolve("small.db");
        try (PageCache cache = PageCache.open(config("direct"))) {
            IOException e = assertThrows(IOException.class, () -> cache.map(path, 512));
            assertTrue(e.getMessage().contains("pagecache.io=direct") && e.getMessage().contains(path.getFileName().toString()),
                e.getMessage());
        }
    }
}
