package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageSwapper;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file closed through the tier frees its file id for the next file mapped. Its swapper, used after its close (a
 * careless store, or a page cache bug), must throw as the file swapper does, never reach the pages of whichever file
 * took its id: before, an eviction through it stored its page in NVM under the id, where the next file of that id
 * read it as its own, and a truncate through it dropped that file's dirty pages.
 */
class NvmSwapperAfterCloseTest {
    private static final int PAGE = 512;

    private final OffHeapPages pages = new OffHeapPages(PAGE);

    @TempDir
    Path dir;

    @AfterEach
    void freePages() {
        pages.close();
    }

    private long page(long version) {
        long address = pages.allocate();
        pages.fill(address, version);
        return address;
    }

    private static NvmSwapStore store() {
        return new NvmSwapStore(NvmDeviceConfig.builder(PAGE).slots(8).injectLatency(false).build(), new FileChannelFiles());
    }

    @Test
    void aClosedSwapperRefusesEveryCallNamingItsFileAndNeverTouchesTheFileThatTookItsId() throws IOException {
        Path a = dir.resolve("a.db");
        Path b = dir.resolve("b.db");
        try (NvmSwapStore store = store()) {
            PageSwapper closed = store.create(a, 0, PAGE, true);
            closed.evict(0, page(1), true);
            closed.close();
            PageSwapper reuser = store.create(b, 0, PAGE, true);
            reuser.evict(5, page(5), true); // dirty in NVM: only the tier has it
            long frame = pages.allocate();

            ClosedChannelException e = assertThrows(ClosedChannelException.class, () -> closed.evict(0, page(2), true));
            assertTrue(e.getMessage().contains(a.toString()) && e.getMessage().contains("closed"), e.getMessage());
            assertThrows(ClosedChannelException.class, () -> closed.evict(1, page(3), false));
            assertThrows(ClosedChannelException.class, () -> closed.read(5, frame));
            assertThrows(ClosedChannelException.class, () -> closed.write(6, page(4)));
            assertThrows(ClosedChannelException.class, () -> closed.write(6, new long[] {page(4)}, 1));
            assertThrows(ClosedChannelException.class, () -> closed.truncate(0));
            assertThrows(ClosedChannelException.class, closed::force);
            assertThrows(ClosedChannelException.class, closed::pageCount);
            closed.close(); // closing again does nothing

            assertEquals(0, reuser.read(0, frame), "the file that took the id has no page 0");
            assertEquals(0L, OffHeapPages.UNSAFE.getLong(frame));
            assertFalse(store.contains(0, 1), "nothing of the closed file went into NVM");
            assertTrue(store.isDirtyInNvm(0, 5), "the truncate through the closed swapper dropped nothing");
            assertEquals(PAGE, reuser.read(5, frame));
            assertEquals(-1, pages.firstMismatch(frame, 5), "page 5 of the file that took the id");
            store.checkInvariants();
            reuser.close();
        }
        assertEquals(PAGE, Files.size(a), "the closed file kept its one page");
        assertEquals(6L * PAGE, Files.size(b), "page 5 reached the file that took the id");
    }
}
