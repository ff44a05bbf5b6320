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
 * A create through the tier that fails after the file behind it was opened closes that file, whatever it failed with: an
 * Error from the file swapper's page size (a plug-in's AssertionError) left the file open, a descriptor no one held.
 */
class NvmCreateFailureTest {
    private static final int PAGE = 512;

    @Test
    void aFileSwapperWhosePageSizeFailsWithAnErrorIsClosed() throws IOException {
        AssertionError broken = new AssertionError("injected: the plug-in's page size is broken");
        AtomicInteger closes = new AtomicInteger();
        InMemoryFiles files = new InMemoryFiles();
        PageSwapperFactory failing = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(files.create(path, fileId, filePageSize, create)) {
                    @Override
                    public int filePageSize() {
                        throw broken;
                    }

                    @Override
                    public void close() throws IOException {
                        closes.incrementAndGet();
                        super.close();
                    }
                };
            }

            @Override
            public void close() {
            }
        };
        NvmSwapStore store = new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(), failing);

        assertSame(broken, assertThrows(AssertionError.class, () -> store.create(Path.of("a.db"), 0, PAGE, true)));

        assertEquals(1, closes.get(), "the file opened for the failed create was closed");
        store.close();
    }
}
