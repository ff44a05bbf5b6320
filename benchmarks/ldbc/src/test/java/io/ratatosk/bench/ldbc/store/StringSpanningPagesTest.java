package io.ratatosk.bench.ldbc.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example store's dynamic strings are records that span pages: read through the strings cursor and
 * its linked cursor, validated as one read; a damaged block is reported as a damaged store, through the
 * cursor exception its decoder records.
 */
class StringSpanningPagesTest {
    private static final int NODES = 200;

    @TempDir
    Path dir;

    private static String content(int i) {
        StringBuilder b = new StringBuilder();
        while (b.length() < 1500 + (i * 37) % 3000) {
            b.append("message ").append(i).append(" says ").append(b.length()).append("; ");
        }
        return b.toString();
    }

    private Path writeStore() throws IOException {
        Path store = dir.resolve("store");
        try (PageCache cache = cache("8m"); StoreWriter writer = StoreWriter.create(store, cache, NODES)) {
            PropertyBatch batch = new PropertyBatch();
            for (int i = 0; i < NODES; i++) {
                writer.addNode(Label.POST, i, batch.clear().addString(PropertyKey.CONTENT, content(i)));
            }
            writer.finish("test");
        }
        return store;
    }

    private static PageCache cache(String memory) {
        return PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", memory, "pagecache.page_size", "8k")));
    }

    @Test
    void stringsWhoseBlocksSpanPagesReadBackWholeOnACacheSmallerThanTheStrings() throws IOException {
        Path store = writeStore();
        long stringPages;
        try (PageCache cache = cache("80k"); GraphStore s = GraphStore.open(store, cache); StoreReader reader = s.newReader()) {
            stringPages = StoreFile.STRINGS.pageOf(s.meta().stringBlocks() - 1) + 1;
            assertTrue(stringPages > cache.frameCount(), "the strings do not fit the cache: pages are evicted between reads");
            PropertyValues values = PropertyValues.of(PropertyKey.CONTENT);
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < NODES; i++) {
                    int node = reader.nodeById(Label.POST, i);
                    assertEquals(content(i), reader.properties(node, values).getString(PropertyKey.CONTENT), "node " + i);
                }
            }
        }
    }

    @Test
    void aDamagedStringBlockIsReportedAsADamagedStoreNamingTheBlock() throws IOException {
        Path store = writeStore();
        // Block 1 (the first string's second block): its USED field now says 7 bytes.
        try (FileChannel ch = FileChannel.open(store.resolve(StoreFile.STRINGS.fileName()), StandardOpenOption.WRITE)) {
            ByteBuffer used = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, 7);
            ch.write(used, StoreFile.STRINGS.pageOf(1) * StoreFile.PAGE_SIZE + StoreFile.STRINGS.offsetOf(1) + StringBlock.USED);
        }
        try (PageCache cache = cache("1m"); GraphStore s = GraphStore.open(store, cache); StoreReader reader = s.newReader()) {
            int node = reader.nodeById(Label.POST, 0);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> reader.properties(node, PropertyValues.of(PropertyKey.CONTENT)));
            assertTrue(e.getMessage().contains("damaged graph store") && e.getMessage().contains("string block 1 holds 7 bytes"),
                e.getMessage());
            assertEquals(content(1), reader.properties(reader.nodeById(Label.POST, 1), PropertyValues.of(PropertyKey.CONTENT))
                .getString(PropertyKey.CONTENT), "the reader carries on after reporting: the cursor exception was cleared");
        }
    }
}
