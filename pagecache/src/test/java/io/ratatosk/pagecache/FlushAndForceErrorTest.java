package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.LifecycleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.ratatosk.core.ForwardingPageSwapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PageCache.flushAndForce} where a file's flush fails with an Error (a plug-in swapper's AssertionError, an
 * OutOfMemoryError): the other files are still flushed and forced, as for an IOException, and the Error is thrown as
 * itself with the others' failures in it. It ended the call at the first such file, the files after it left unflushed.
 */
class FlushAndForceErrorTest {
    private static final int PAGE = 8192;

    @TempDir
    Path dir;

    @Test
    void anErrorFlushingOneFileDoesNotKeepTheOthersUnflushed() throws IOException {
        AtomicBoolean forcesFail = new AtomicBoolean(true);
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "1m", "pagecache.page_size",
            String.valueOf(PAGE), "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false",
            "pagecache.jmx.enabled", "false"));
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        PageCache cache = PageCache.open(config, SwapperFactories.wrapping(file -> new ForwardingPageSwapper(file) {
            @Override
            public void force() throws IOException {
                if (forcesFail.get()) {
                    throw new AssertionError("injected force error of " + file);
                }
                super.force();
            }
        }));
        try {
            PagedFile fa = cache.map(a, PAGE);
            PagedFile fb = cache.map(b, PAGE);
            write(fa, 0, 1);
            write(fb, 0, 2);
            AssertionError e = assertThrows(AssertionError.class, cache::flushAndForce);
            assertEquals(1, inFile(a), "a.db was flushed: " + e);
            assertEquals(2, inFile(b), "b.db was flushed: " + e);
            assertEquals(1, e.getSuppressed().length, "the other file's failure is in it");
            assertTrue(e.getSuppressed()[0] instanceof AssertionError, e.getSuppressed()[0].toString());
        } finally {
            forcesFail.set(false);
            try {
                cache.close();
            } catch (IOException sticks) {
                // the failed forces, said again
            }
        }
    }

    /** The first word of page 0 as the file itself holds it. */
    private static long inFile(Path path) throws IOException {
        ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(path)) {
            channel.read(word, 0);
        }
        return word.getLong(0);
    }
}
