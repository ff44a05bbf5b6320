package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PageCacheInternals;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.ratatosk.pagecache.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PagedFile.flush()} promises that every page modified before it began is in the file when it returns. Under
 * write-back a page's only copy of such a version may be its dirty NVM copy, which the flush's {@code force} writes
 * back. An NVM write error while that page, re-faulted and modified again, is evicted over its dirty copy tears and
 * drops the copy: before the fix nothing of either version was in the file when the flush under way returned.
 */
class NvmFlushDurabilityTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 4;

    @TempDir
    Path dir;

    private static int stripe(int fileId, long pageId) {
        return (int) (PageKey.hash(PageKey.of(fileId, pageId)) >>> 58);
    }



    /** The page as the file itself holds it: what a crash now would leave. */
    private static long inFile(Path path, long pageId) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(PAGE).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(path)) {
            while (buffer.hasRemaining() && channel.read(buffer, pageId * PAGE + buffer.position()) >= 0) {
                // read the whole page, or up to the end of the file
            }
        }
        long[] words = new long[PAGE / Long.BYTES];
        for (int i = 0; i < words.length; i++) {
            words[i] = i * Long.BYTES + Long.BYTES <= buffer.position() ? buffer.getLong(i * Long.BYTES) : 0;
        }
        return NvmCursorModelTest.decode(words, "page " + pageId + " in the file");
    }

    @Test
    void aFlushUnderWayKeepsAVersionWhoseDirtyNvmCopyATornSwapOutDropped() throws Exception {
        Map<String, String> flags = new HashMap<>();
        flags.put("pagecache.memory", String.valueOf(FRAMES * PAGE));
        flags.put("pagecache.page_size", String.valueOf(PAGE));
        flags.put("pagecache.swap", "nvm");
        flags.put("pagecache.nvm.capacity", String.valueOf(64 * PAGE));
        flags.put("pagecache.nvm.write_policy", "write-back");
        flags.put("pagecache.nvm.inject_latency", "false");
        flags.put("pagecache.nvm.prefetch", "0");
        flags.put("pagecache.policy", "clock"); // evicts the oldest unreferenced page: P leaves as others come in
        flags.put("pagecache.evictor.enabled", "false");
        flags.put("pagecache.warmup.enabled", "false");
        Path path = dir.resolve("durable.db");

        CountDownLatch flushWriting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        long[] blockOn = {-1};
        FileSwapperFactory real = new FileSwapperFactory();
        PageSwapperFactory blocking = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(real.create(file, fileId, filePageSize, create)) {
                    @Override
                    public void write(long pageId, long address) throws IOException {
                        await(pageId, 1);
                        super.write(pageId, address);
                    }

                    @Override
                    public void write(long startPageId, long[] addresses, int count) throws IOException {
                        await(startPageId, count);
                        super.write(startPageId, addresses, count);
                    }

                    private void await(long startPageId, int count) {
                        long q = blockOn[0];
                        if (q >= startPageId && q < startPageId + count && Thread.currentThread().getName().equals("flusher")) {
                            flushWriting.countDown();
                            Waits.awaitQuietly(release); // the bound, keeping an interrupt
                        }
                    }
                };
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        ExecutorService flusher = Executors.newSingleThreadExecutor(r -> new Thread(r, "flusher"));
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(flags), blocking)) {
            NvmSwapStore tier = (NvmSwapStore) cache.tier();
            PagedFile file = cache.map(path, PAGE);
            int fileId = PageCacheInternals.fileId(file);
            // P: the page whose newest version lives only in NVM; Q: the page the flush is writing meanwhile;
            // W1, W2: pinned by write cursors; R: the fault that must evict P. Only Q's latch is held by the flush.
            long p = 0;
            long q = 1;
            while (stripe(fileId, q) == stripe(fileId, p)) {
                q++;
            }
            List<Long> others = new ArrayList<>();
            for (long x = q + 2; others.size() < 3; x++) {
                if (stripe(fileId, x) != stripe(fileId, q)) {
                    others.add(x);
                }
            }
            long w1 = others.get(0);
            long w2 = others.get(1);
            long r = others.get(2);
            blockOn[0] = q;

            NvmCursorModelTest.writePage(file, p, 1);
            for (long x = 100; !tier.isDirtyInNvm(fileId, p); x++) {
                assertTrue(x < 200, "page " + p + " never went dirty into NVM: " + tier.stats() + " " + cache.stats());
                NvmCursorModelTest.writePage(file, x, 1); // until P was evicted, dirty, into NVM
            }
            try (PageCursor pin1 = file.io(w1, PagedFile.PF_SHARED_WRITE_LOCK);
                 PageCursor pin2 = file.io(w2, PagedFile.PF_SHARED_WRITE_LOCK)) {
                assertTrue(pin1.next());
                assertTrue(pin2.next());
                // P faulted from NVM (a clean frame), Q dirty in a frame for the flush to write: the two frames left
                for (int attempt = 0; PageCacheInternals.tableEntry(file, p) <= 0 || PageCacheInternals.tableEntry(file, q) <= 0; attempt++) {
                    assertTrue(attempt < 100, "P and Q never shared the two unpinned frames");
                    if (PageCacheInternals.tableEntry(file, p) <= 0) {
                        assertEquals(NvmCursorModelTest.content(p, 1), NvmCursorModelTest.readPage(file, p));
                    }
                    if (PageCacheInternals.tableEntry(file, q) <= 0) {
                        NvmCursorModelTest.writePage(file, q, 1);
                    }
                }
                assertTrue(PageCacheInternals.tableEntry(file, p) > 0, "P is in a frame");
                assertTrue(tier.isDirtyInNvm(fileId, p), "P's version 1 is only in NVM");
                assertEquals(0, inFile(path, p), "and not in the file");

                Future<?> flush = flusher.submit(() -> {
                    file.flush();
                    return null;
                });
                Waits.await(flushWriting, "the flush writes Q");
                // The flush has passed P (clean in its frame) and counts on P's dirty NVM copy.
                NvmCursorModelTest.writePage(file, p, 2);
                tier.device().failNextWrites(1);
                assertThrows(IOException.class, () -> NvmCursorModelTest.readPage(file, r), "evicting P over its NVM copy failed");
                release.countDown();
                flush.get(Waits.BOUND_SECONDS, TimeUnit.SECONDS);

                long after = inFile(path, p);
                assertTrue(after == NvmCursorModelTest.content(p, 1) || after == NvmCursorModelTest.content(p, 2),
                    "page " + p + " was modified before the flush began, so the file holds it once the flush returned;"
                        + " it holds " + (after == 0 ? "nothing" : "version " + (after & 0xFFFF_FFFFL)));
            }
            assertEquals(NvmCursorModelTest.content(p, 2), NvmCursorModelTest.readPage(file, p));
            file.close();
            tier.checkInvariants();
        } finally {
            release.countDown();
            flusher.shutdownNow();
        }
        assertEquals(NvmCursorModelTest.content(0, 2), inFile(path, 0));
    }
}
