package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.read;
import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache whose close cannot write the NVM tier's dirty copies of a file back (the file refuses writes) stays open,
 * and a retried close, once the file takes writes again, writes them: closed all the same, the cache lost them (the
 * tier's close failed on them too, and a second close did nothing). In this package for {@link LifecycleTest}'s read
 * and write.
 */
class NvmCloseKeepsUnwrittenCopiesTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 40;

    @TempDir
    Path dir;

    /** The cache's own file swappers, whose writes fail while {@link #failWrites} is set. */
    private static final class FailingWrites implements PageSwapperFactory {
        private final FileSwapperFactory files = new FileSwapperFactory();
        volatile boolean failWrites;

        @Override
        public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
            return new ForwardingPageSwapper(files.create(file, fileId, filePageSize, create)) {
                @Override
                public void write(long pageId, long address) throws IOException {
                    refuse(pageId);
                    super.write(pageId, address);
                }

                @Override
                public void write(long startPageId, long[] addresses, int count) throws IOException {
                    refuse(startPageId);
                    super.write(startPageId, addresses, count);
                }

                private void refuse(long pageId) throws IOException {
                    if (failWrites) {
                        throw new IOException("injected write failure: page " + pageId + " of " + file.getFileName());
                    }
                }
            };
        }

        @Override
        public void close() throws IOException {
            files.close();
        }
    }

    @Test
    void aCloseThatCannotWriteTheTiersDirtyCopiesLeavesTheCacheOpenAndARetryWritesThem() throws IOException {
        FailingWrites swappers = new FailingWrites();
        Path path = dir.resolve("f.db");
        PageCache cache = PageCache.open(NvmTruncateFailureTest.sixteenFramesBeforeAWriteBackTier(), swappers);
        try {
            PagedFile other = cache.map(dir.resolve("other.db"), PAGE);
            for (int p = 0; p < 32; p++) {
                write(other, p, p);
            }
            other.flush(); // clean from here on: its close writes nothing
            PagedFile file = cache.map(path, PAGE);
            for (int p = 0; p < PAGES; p++) {
                write(file, p, 1000 + p);
            }
            for (int round = 0; round < 6; round++) { // reads of the other file push every dirty page into the tier
                for (int p = 0; p < 32; p++) {
                    read(other, p);
                }
            }
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            int dirtyCopies = 0;
            for (int p = 0; p < PAGES; p++) {
                dirtyCopies += tier.contains(file.fileId(), p) ? 1 : 0;
            }
            assertTrue(dirtyCopies > 0, "some of the file's dirty pages went into the tier");

            swappers.failWrites = true;
            IOException e = assertThrows(IOException.class, cache::close);
            assertTrue(String.valueOf(e).contains("injected write failure")
                || String.valueOf(e.getCause()).contains("injected write failure"), e.toString());
            assertFalse(cache.isClosed(), "the cache stays open while the tier holds pages the file lacks: " + e);

            swappers.failWrites = false;
            cache.close(); // the retry writes them back
            assertTrue(cache.isClosed());
        } finally {
            swappers.failWrites = false;
            cache.close();
        }
        try (FileChannel channel = FileChannel.open(path)) {
            ByteBuffer page = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
            for (int p = 0; p < PAGES; p++) {
                page.clear();
                channel.read(page, (long) p * PAGE);
                assertEquals(1000 + p, page.getLong(0), "page " + p + " reached the file");
            }
        }
    }
}
