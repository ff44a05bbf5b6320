package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.ForwardingPageSwapper;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swapper's IOException without a message (the JDK's ClosedChannelException, an EOFException) is named by its class in
 * the cache's failure: its message alone read "failed: null", naming nothing.
 */
class UnnamedSwapperFailureTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void aFaultWhoseReadFailsWithoutAMessageNamesTheFailure() throws Exception {
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
                 "pagecache.page_size", String.valueOf(PAGE))), SwapperFactories.wrapping(real -> new ForwardingPageSwapper(real) {
                     @Override
                     public int read(long pageId, long address) throws IOException {
                         throw new ClosedChannelException();
                     }
                 }));
             PagedFile file = cache.map(dir.resolve("a.db"), PAGE);
             PageCursor c = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
            IOException e = assertThrows(IOException.class, c::next);
            assertTrue(e.getMessage().contains("ClosedChannelException"), e.getMessage());
        }
    }
}
