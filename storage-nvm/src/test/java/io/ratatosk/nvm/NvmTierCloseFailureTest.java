package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import org.junit.jupiter.api.Test;

/**
 * The tier's close over a file swapper that fails every call with one exception instance (a plug-in over storage that
 * is gone; the JVM's preallocated {@code OutOfMemoryError}): the close reports that failure, and closes the device and
 * the file all the same. Adding the instance to itself as suppressed threw {@code IllegalArgumentException:
 * Self-suppression not permitted} out of the close instead, with the device, its memory and the file factory kept.
 */
class NvmTierCloseFailureTest {
    private static final int PAGE = 512;

    @Test
    void aFileFailingItsForceAndCloseWithOneExceptionFailsTheTiersCloseWithItAndTheDeviceCloses() throws IOException {
        IOException gone = new IOException("injected: the storage behind a.db is gone");
        AtomicInteger fileCloses = new AtomicInteger();
        AtomicInteger factoryCloses = new AtomicInteger();
        InMemoryFiles files = new InMemoryFiles();
        PageSwapperFactory failingOnce = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(files.create(path, fileId, filePageSize, create)) {
                    @Override
                    public void force() throws IOException {
                        throw gone;
                    }

                    @Override
                    public void close() throws IOException {
                        fileCloses.incrementAndGet();
                        throw gone;
                    }
                };
            }

            @Override
            public void close() {
                factoryCloses.incrementAndGet();
            }
        };
        NvmSwapStore store = new NvmSwapStore(
            NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(), failingOnce);
        store.create(Path.of("a.db"), 0, PAGE, true);

        IOException thrown = assertThrows(IOException.class, store::close);

        assertSame(gone, thrown, "the file's own failure");
        assertEquals(1, fileCloses.get(), "the file was closed, without a force, once nothing of it was left in NVM");
        assertEquals(1, factoryCloses.get(), "so was the file factory");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> store.create(Path.of("b.db"), 1, PAGE, true));
        assertEquals("NVM swap store is closed", refused.getMessage());
        store.close(); // closed: nothing more to do
    }
}
