package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.nvm.NvmSwapStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache whose close could not write a file's dirty copies in the NVM tier back (the file's write-backs failing) keeps
 * that file from every other cache of the JVM until a retried close wrote those copies: the cache's close once gave the
 * file's claim back all the same, another cache mapped it and wrote it, and the retry then wrote the tier's older copies
 * over that cache's newer pages. Since b649fbb the cache stays open then, claims and all. In this package for
 * {@link LifecycleTest}'s read and write.
 */
class NvmClaimAfterFailedTierCloseTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private static Map<String, String> flags(boolean tier) {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(4 * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.evictor.enabled", "false");
        flags.put("pagecache.warmup.enabled", "false");
        flags.put("pagecache.jmx.enabled", "false");
        if (tier) {
            flags.put("pagecache.swap", "nvm");
            flags.put("pagecache.nvm.capacity", String.valueOf(64 * PAGE));
            flags.put("pagecache.nvm.write_policy", "write-back");
            flags.put("pagecache.nvm.inject_latency", "false");
            flags.put("pagecache.policy", "clock");
        }
        return flags;
    }

    /** The first word of the page as the file itself holds it. */
    private static long inFile(Path path, long pageId) throws IOException {
        ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(path)) {
            channel.read(word, pageId * PAGE);
        }
        return word.getLong(0);
    }

    @Test
    void aFileWhoseDirtyCopiesTheTierKeptStaysClaimedUntilARetriedCloseWritesThem() throws IOException {
        Path path = dir.resolve("a.db");
        AtomicBoolean pageZeroRefused = new AtomicBoolean();
        PageSwapperFactory failing = SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void write(long pageId, long address) throws IOException {
                refuse(pageId, 1);
                super.write(pageId, address);
            }

            @Override
            public void write(long startPageId, long[] addresses, int count) throws IOException {
                refuse(startPageId, count);
                super.write(startPageId, addresses, count);
            }

            private void refuse(long startPageId, int count) throws IOException {
                if (pageZeroRefused.get() && startPageId == 0) {
                    throw new IOException("injected: the storage refuses page 0 of " + path);
                }
            }
        });
        PageCache closing = PageCache.open(PageCacheConfig.parse(flags(true)), failing);
        NvmSwapStore tier = (NvmSwapStore) closing.tier();
        PagedFile file = closing.map(path, PAGE);
        int fileId = file.fileId();
        write(file, 0, 1);
        for (long other = 100; !tier.isDirtyInNvm(fileId, 0); other++) {
            assertTrue(other < 200, "page 0 never went dirty into NVM: " + tier.stats());
            write(file, other, 1); // until page 0 was evicted, dirty, into NVM
        }
        pageZeroRefused.set(true);
        assertThrows(IOException.class, closing::close, "the unmap's force and the swapper's close cannot write page 0");
        // Since b649fbb the cache stays open while a file's swapper holds pages the file lacks (before, it closed and
        // the tier's close failed on the same copy, which is where releaseClaims' retry below the cache comes in).
        assertFalse(closing.isClosed(), "the tier holds page 0 dirty: the cache stays open");
        assertTrue(tier.isDirtyInNvm(fileId, 0), "the tier keeps page 0's copy");

        try (PageCache other = PageCache.open(PageCacheConfig.parse(flags(false)))) {
            // Mapped here, written (version 2) and closed, page 0 got the tier's older version 1 from the retry below.
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> other.map(path, PAGE),
                "the tier still holds page 0 dirty and may write it: the file is not free");
            assertTrue(refused.getMessage().contains("another page cache"), refused.getMessage());

            pageZeroRefused.set(false);
            closing.close(); // the retry: writes the tier's copy of page 0 back, closes the file and the cache
            assertTrue(closing.isClosed());
            assertEquals(1, inFile(path, 0), "the retry wrote the tier's copy");
            try (PagedFile again = other.map(path, PAGE)) {
                assertEquals(1, read(again, 0), "free once the retry closed the file");
                write(again, 0, 2);
            }
            assertEquals(2, inFile(path, 0));
            tier.close(); // closed with the cache: nothing of the file is written again
            assertEquals(2, inFile(path, 0));
        }
    }

    /**
     * A tier whose close failed with nothing of the file left in NVM closes the file all the same (it abandons it): the
     * file is free at the cache's close, as before, without a retry.
     */
    @Test
    void aFileTheTiersFailedCloseAbandonedIsFreeAtTheCachesClose() throws IOException {
        Path path = dir.resolve("b.db");
        PageSwapperFactory forceFails = SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
            @Override
            public void force() throws IOException {
                throw new IOException("injected: the storage cannot force " + path);
            }
        });
        PageCache closing = PageCache.open(PageCacheConfig.parse(flags(true)), forceFails);
        write(closing.map(path, PAGE), 0, 3);
        assertThrows(IOException.class, closing::close);
        assertTrue(closing.isClosed());
        assertEquals(0, ((NvmSwapStore) closing.tier()).stats().dirtyPages());
        try (PageCache other = PageCache.open(PageCacheConfig.parse(flags(false)));
             PagedFile again = other.map(path, PAGE)) {
            assertEquals(3, read(again, 0));
        }
    }
}
